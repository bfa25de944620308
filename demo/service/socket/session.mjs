// The state of one conversation socket (a session) and the small operations on it that every part of the
// socket uses: its timers, sleeping, sending and the transcript.

import { WebSocket } from 'ws';
import { DEFAULT_AUDIO_FORMAT } from '../records.mjs';

/**
 * @typedef {import('../records.mjs').Json} Json
 * @typedef {import('../records.mjs').AgentRecord} AgentRecord
 * @typedef {import('../records.mjs').ConversationRecord} ConversationRecord
 * @typedef {import('../records.mjs').TranscriptEntry} TranscriptEntry
 */

/**
 * Internal state of one conversation socket (never part of the public record).
 * @typedef {object} Session
 * @property {WebSocket} ws
 * @property {AgentRecord | undefined} agent
 * @property {ConversationRecord | null} record
 * @property {number} startedMs
 * @property {Set<ReturnType<typeof setTimeout>>} timers
 * @property {Set<(value: boolean) => void>} sleepers
 * @property {Map<string, (outcome: {result: unknown, isError: boolean} | null) => void>} pendingTools
 * @property {Set<number>} agentEventIds   event ids of the agent messages sent
 * @property {Set<number>} feedbackEventIds event ids that already got like/dislike feedback
 * @property {number} eventId     last agent event id used
 * @property {number} pingId      last ping event id used
 * @property {number} toolCounter
 * @property {Promise<void>} queue replies are produced one after the other
 * @property {boolean} ended
 * @property {string | null} endedBy  termination reason decided by the service before closing
 * @property {{code: number, reason: string} | null} error
 * @property {string} label
 * @property {import('../faults.mjs').SocketFault | null} fault  the injected fault of this conversation (faults.mjs)
 * @property {boolean} errorMessageSent  the fault's `error_message` went out
 * @property {boolean} silenced  the fault's `silent_after_ms` has passed: nothing more is sent
 * @property {boolean} voice      not text-only: agent turns are spoken, user audio is listened to
 * @property {string} outputFormat agent_output_audio_format of the conversation
 * @property {string} inputFormat  user_input_audio_format of the conversation
 * @property {Map<number, TranscriptEntry>} agentEntries the transcript entry of each agent turn, by event id
 * @property {Promise<void>} audioQueue  agent turns are spoken one after the other
 * @property {Set<number>} pendingAudio  event ids of agent turns waiting to be spoken (synthesis, queue)
 * @property {Playback | null} playback the agent turn spoken last (or now)
 * @property {number} audioCutoff  agent turns up to this event id are not spoken any more (interrupted)
 * @property {ReturnType<typeof import('../vad.mjs').createVad> | null} vad  voice activity detection of the user's audio
 * @property {Buffer | null} audioCarry  an odd byte of PCM user audio left for the next chunk
 *
 * @typedef {object} Playback
 * @property {number} eventId
 * @property {number} startedMs   when its first chunk went out
 * @property {number} endsAtMs    when a client playing it from its start is done (startedMs + its duration)
 * @property {boolean} sentAll
 * @property {boolean} cancelled
 * @property {() => void} cancel  stops sending its chunks
 */

/**
 * The session of a socket just opened for `agentId` (`agent`: its record, if there is one); no conversation yet.
 * @param {WebSocket} ws @param {string} agentId @param {AgentRecord | undefined} agent
 * @param {import('../faults.mjs').SocketFault | null} fault
 * @returns {Session}
 */
export function newSession(ws, agentId, agent, fault) {
  return {
    ws,
    agent,
    record: null,
    startedMs: Date.now(),
    timers: new Set(),
    sleepers: new Set(),
    pendingTools: new Map(),
    agentEventIds: new Set(),
    feedbackEventIds: new Set(),
    eventId: 0,
    pingId: 0,
    toolCounter: 0,
    queue: Promise.resolve(),
    ended: false,
    endedBy: null,
    error: null,
    label: `socket for agent ${JSON.stringify(agentId)}`,
    fault,
    errorMessageSent: false,
    silenced: false,
    voice: false,
    outputFormat: DEFAULT_AUDIO_FORMAT,
    inputFormat: DEFAULT_AUDIO_FORMAT,
    agentEntries: new Map(),
    audioQueue: Promise.resolve(),
    pendingAudio: new Set(),
    playback: null,
    audioCutoff: 0,
    vad: null,
    audioCarry: null,
  };
}

/** @param {Session} session @param {() => void} fn @param {number} ms */
export function later(session, fn, ms) {
  const timer = setTimeout(() => {
    session.timers.delete(timer);
    fn();
  }, ms);
  session.timers.add(timer);
  return timer;
}

/**
 * Resolves true after `ms`, or false at once when (or as soon as) the conversation ends.
 * @param {Session} session @param {number} ms @returns {Promise<boolean>}
 */
export function sleep(session, ms) {
  return new Promise((resolve) => {
    if (session.ended) return resolve(false);
    const done = (/** @type {boolean} */ value) => {
      session.sleepers.delete(done);
      resolve(value);
    };
    session.sleepers.add(done);
    later(session, () => done(true), ms);
  });
}

/** @param {Session} session @param {Json} message */
export function send(session, message) {
  // A `silent` fault: nothing after conversation_initiation_metadata; `silent_after_ms`: nothing once it has passed.
  if (session.silenced || (session.fault?.silent && session.record && message.type !== 'conversation_initiation_metadata')) return;
  if (session.ws.readyState === WebSocket.OPEN) session.ws.send(JSON.stringify(message));
  if (message.type === 'agent_response' && session.fault?.error_message && !session.errorMessageSent) {
    // An `error_message` fault: an error right after the first agent message; the conversation goes on.
    session.errorMessageSent = true;
    send(session, { type: 'error', error_event: { ...session.fault.error_message } });
  }
}

/** @param {Session} session */
export const secondsInCall = (session) => Math.floor((Date.now() - session.startedMs) / 1000);

/** @param {Session} session @param {TranscriptEntry} entry */
export function addTranscript(session, entry) {
  session.record?.transcript.push(entry);
}

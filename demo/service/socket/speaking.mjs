// Speaking: the agent's turns of a voice conversation as `audio` messages (speech.mjs: eSpeak NG), paced at
// real time, one turn after the other.

import { chunk, encodeAudio, parseAudioFormat } from '../speech.mjs';
import { inputLevelsOf } from '../records.mjs';
import { later, send } from './session.mjs';

/**
 * @typedef {import('./session.mjs').Session} Session
 * @typedef {import('./session.mjs').Playback} Playback
 * @typedef {import('../records.mjs').ConversationRecord} ConversationRecord
 */

/** Length of the agent's speech in one `audio` message, ms. */
export const AUDIO_CHUNK_MS = 100;

/**
 * The speaking of a service's conversations.
 * @param {import('../context.mjs').ServiceContext} ctx
 */
export function createSpeaking({ synthesize, audioSpeed, log }) {
  let speechFailureLogged = false;

  /**
   * Synthesises a text; resolves null (and logs the first failure of the service) when synthesis fails.
   * @param {string} text
   */
  async function synthesizeSpeech(text) {
    try {
      return await synthesize(text);
    } catch (error) {
      if (!speechFailureLogged) {
        speechFailureLogged = true;
        log(`[service] speech synthesis failed; conversations go on without agent audio: ${/** @type {Error} */ (error)?.message ?? error}`);
      }
      return null;
    }
  }

  /**
   * Speaks an agent turn of a voice conversation: its speech as `audio` messages with the turn's event id, in the
   * conversation's output format, AUDIO_CHUNK_MS per message, at real time (audioSpeed). Turns are spoken one after
   * the other. Resolves once the turn was played (or dropped: interrupted, ended, no speech).
   * @param {Session} session @param {number} eventId @param {string} text
   * @returns {Promise<void>}
   */
  function speak(session, eventId, text) {
    if (!session.voice || session.ended || session.fault?.silent) return Promise.resolve();
    session.pendingAudio.add(eventId);
    const speech = synthesizeSpeech(text);
    const run = session.audioQueue.then(async () => {
      const result = await speech;
      session.pendingAudio.delete(eventId);
      if (!result || result.samples.length === 0 || session.ended || eventId <= session.audioCutoff) return;
      if (session.vad?.speaking) {
        // The agent does not start speaking over the user: the turn is dropped, as if interrupted at once.
        const entry = session.agentEntries.get(eventId);
        if (entry) entry.interrupted = true;
        return;
      }
      await play(session, eventId, result);
    });
    const settled = run.catch((error) => {
      session.pendingAudio.delete(eventId);
      log(`[service] ${session.label}: speaking turn ${eventId} failed: ${error?.stack ?? error}`);
    });
    session.audioQueue = settled;
    return settled;
  }

  /**
   * Sends one turn's speech in chunks, paced by audioSpeed; a timer per chunk (the session's, cleared on close).
   * @param {Session} session @param {number} eventId @param {{sampleRate: number, samples: Int16Array}} speech
   * @returns {Promise<void>}
   */
  function play(session, eventId, speech) {
    const info = parseAudioFormat(session.outputFormat);
    const bytes = encodeAudio(speech, session.outputFormat);
    const pieces = chunk(bytes, Math.round((info.sampleRate * AUDIO_CHUNK_MS) / 1000) * info.bytesPerSample);
    const durationMs = (bytes.length / info.bytesPerSample / info.sampleRate) * 1000;
    const record = /** @type {ConversationRecord} */ (session.record);
    return new Promise((resolve) => {
      const done = () => {
        session.sleepers.delete(done);
        resolve();
      };
      session.sleepers.add(done); // the conversation ending resolves it too
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let timer;
      const startedMs = Date.now();
      /** @type {Playback} */
      const playback = {
        eventId,
        startedMs,
        endsAtMs: startedMs + durationMs,
        sentAll: false,
        cancelled: false,
        cancel() {
          playback.cancelled = true;
          spoken.cancelled_ms = Date.now();
          if (timer !== undefined) {
            clearTimeout(timer);
            session.timers.delete(timer);
            timer = undefined;
          }
          done();
        },
      };
      session.playback = playback;
      // For the echo rig (records.mjs, inputLevelsOf): when this turn was audible.
      const spoken = { event_id: eventId, started_ms: startedMs, ends_at_ms: startedMs + durationMs, cancelled_ms: /** @type {number|null} */ (null) };
      inputLevelsOf(record).agent.push(spoken);
      let index = 0;
      const step = () => {
        timer = undefined;
        if (session.ended || playback.cancelled) return done();
        do {
          send(session, { type: 'audio', audio_event: { audio_base_64: pieces[index].toString('base64'), event_id: eventId } });
          index += 1;
        } while (audioSpeed === Infinity && index < pieces.length);
        record.has_response_audio = true;
        record.has_audio = true;
        if (index >= pieces.length) {
          playback.sentAll = true;
          // Paced: the turn is over when its last chunk has been played.
          if (audioSpeed === Infinity) return done();
          timer = later(session, done, (durationMs - (index - 1) * AUDIO_CHUNK_MS) / audioSpeed);
          return;
        }
        timer = later(session, step, Math.max(0, startedMs + (index * AUDIO_CHUNK_MS) / audioSpeed - Date.now()));
      };
      step();
    });
  }

  return { speak };
}

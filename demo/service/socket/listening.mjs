// Listening: the user's audio of a voice conversation through voice activity detection (vad.mjs): vad_score,
// interruption of the agent's speech, and a user turn with a reply when the user stops speaking.

import { speechTranscript, voiceReply } from '../script.mjs';
import { INPUT_LEVEL_MAX, INPUT_LEVEL_TAIL_MS, inputLevelsOf } from '../records.mjs';
import { decodePcm16, decodeUlaw, rms, toDbfs } from '../speech.mjs';
import { addTranscript, secondsInCall, send } from './session.mjs';

/** @typedef {import('./session.mjs').Session} Session */

/**
 * The listening of a service's conversations.
 * @param {import('../context.mjs').ServiceContext} ctx
 * @param {ReturnType<typeof import('./reply.mjs').createReplies>['queueReply']} queueReply
 */
export function createListening({ log }, queueReply) {
  /**
   * The user started speaking: when the agent is speaking (its audio still being sent, or within the time a client
   * takes to play it), `interruption` with that turn's event id, the rest of its chunks dropped and the turn recorded
   * as interrupted; agent turns still waiting to be spoken are dropped too.
   * @param {Session} session
   */
  function onSpeechStart(session) {
    const playback = session.playback;
    const audible = playback !== null && !playback.cancelled && (!playback.sentAll || Date.now() < playback.endsAtMs);
    if (session.record) inputLevelsOf(session.record).speech.push({ ms: Date.now(), interrupted: audible ? playback.eventId : null });
    const waiting = [...session.pendingAudio];
    if (!audible && waiting.length === 0) return;
    session.audioCutoff = Math.max(session.audioCutoff, audible ? playback.eventId : 0, ...waiting);
    for (const eventId of waiting) {
      const entry = session.agentEntries.get(eventId);
      if (entry) entry.interrupted = true;
    }
    if (audible) {
      playback.cancel();
      send(session, { type: 'interruption', interruption_event: { event_id: playback.eventId } });
      const entry = session.agentEntries.get(playback.eventId);
      if (entry) entry.interrupted = true;
      log(`[service] ${session.label}: the user interrupted agent turn ${playback.eventId}`);
    }
  }

  /**
   * The user stopped speaking: a final user_transcript that says what was heard, a user turn, and a reply.
   * @param {Session} session @param {number} durationMs
   */
  function onSpeechEnd(session, durationMs) {
    const seconds = durationMs / 1000;
    const text = speechTranscript(seconds);
    session.eventId += 1;
    send(session, { type: 'user_transcript', user_transcription_event: { user_transcript: text, event_id: session.eventId } });
    addTranscript(session, { role: 'user', message: text, time_in_call_secs: secondsInCall(session), interrupted: false });
    const choice = /** @type {import('../script.mjs').ScriptedReply} */ ({ kind: 'echo', text: voiceReply(seconds) });
    queueReply(session, text, choice);
  }

  /**
   * A user_audio_chunk of a voice conversation: decoded (PCM 16-bit at the input rate, or μ-law) and given to the
   * voice activity detection, whose scores go out as vad_score and whose speech starts and ends are acted on.
   * @param {Session} session @param {Buffer} bytes
   */
  function listen(session, bytes) {
    if (!session.vad) return;
    let samples;
    if (session.inputFormat === 'ulaw_8000') {
      samples = decodeUlaw(bytes);
    } else {
      let data = bytes;
      if (session.audioCarry) {
        data = Buffer.concat([session.audioCarry, bytes]);
        session.audioCarry = null;
      }
      if (data.length % 2 === 1) session.audioCarry = Buffer.from(data.subarray(data.length - 1));
      samples = decodePcm16(data);
    }
    // For the echo rig (records.mjs, inputLevelsOf): the level of what the microphone sent while the agent spoke.
    if (session.record) {
      const { agent, chunks } = inputLevelsOf(session.record);
      const spoken = agent.at(-1);
      const now = Date.now();
      if (spoken && now < Math.min(spoken.ends_at_ms, spoken.cancelled_ms ?? Infinity) + INPUT_LEVEL_TAIL_MS && chunks.length < INPUT_LEVEL_MAX) {
        chunks.push({ ms: now, dbfs: Math.round(toDbfs(rms(samples)) * 10) / 10, event_id: spoken.event_id });
      }
    }
    for (const event of session.vad.push(samples)) {
      if (session.ended) return;
      if (event.type === 'score') send(session, { type: 'vad_score', vad_score_event: { vad_score: event.score } });
      else if (event.type === 'start') onSpeechStart(session);
      else onSpeechEnd(session, event.durationMs);
    }
  }

  return { listen };
}

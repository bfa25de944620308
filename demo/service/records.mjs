// The records the service keeps (agents, conversations) and the JSON helpers that copy and merge them.

import { randomBytes } from 'node:crypto';
import { AUDIO_FORMATS, isPlainObject } from './validate.mjs';

/**
 * @typedef {Record<string, any>} Json
 *
 * @typedef {object} AgentRecord
 * @property {string} agent_id
 * @property {string|null} name
 * @property {string[]} tags
 * @property {Json} conversation_config  {agent: {first_message?, language?, prompt: {prompt}}, conversation: {text_only?}, tts: {agent_output_audio_format}, asr: {user_input_audio_format}, ...}
 * @property {Json} platform_settings    {widget: {...widget_config}, ...}
 * @property {Json} [workflow]
 * @property {{created_at_unix_secs: number, updated_at_unix_secs?: number}} metadata
 * @property {boolean} [devWidget] platform_settings.widget was stored as given by the dev switch (served verbatim)
 *
 * @typedef {object} TranscriptEntry
 * @property {'agent'|'user'} role
 * @property {string} message
 * @property {number} time_in_call_secs
 * @property {boolean} interrupted
 * @property {'contextual_update'} [source]  set on the entries of `contextual_update` messages (role 'user')
 * @property {Json[]} [tool_calls]
 * @property {Json[]} [tool_results]
 *
 * @typedef {object} ConversationRecord
 * @property {string} agent_id
 * @property {string|null} agent_name
 * @property {string} conversation_id
 * @property {'initiated'|'in-progress'|'processing'|'done'|'failed'} status
 * @property {TranscriptEntry[]} transcript
 * @property {{start_time_unix_secs: number, call_duration_secs: number, main_language: string, text_only: boolean,
 *   termination_reason: string|null, feedback: {likes: number, dislikes: number, rating: number|null, comment: string|null},
 *   pings_sent: number, pongs_received: number, user_audio_bytes: number, error?: {code: number, reason: string}}} metadata
 * @property {boolean} has_audio
 * @property {boolean} has_user_audio
 * @property {boolean} has_response_audio
 * @property {string|null} user_id
 * @property {Json} conversation_initiation_client_data
 */

export const DEFAULT_PROMPT = 'You are the scripted demo agent of the reference Voice Agent Service.';
export const DEFAULT_AUDIO_FORMAT = 'pcm_16000';

/** @param {number} bytes */
export const randomHex = (bytes) => randomBytes(bytes).toString('hex');
export const nowSecs = () => Math.floor(Date.now() / 1000);

/** @param {unknown} value @param {string} fallback */
export const audioFormat = (value, fallback) => (typeof value === 'string' && AUDIO_FORMATS.includes(value) ? value : fallback);

/**
 * A new agent record with the default prompt and audio formats, created now.
 * @param {string} agentId
 * @param {string|null} name
 * @param {Json} agent  conversation_config.agent (its `prompt` is set here)
 * @param {Json} conversation  conversation_config.conversation
 * @param {Json} platformSettings
 * @returns {AgentRecord}
 */
export function newAgentRecord(agentId, name, agent, conversation, platformSettings) {
  agent.prompt = { prompt: DEFAULT_PROMPT };
  return {
    agent_id: agentId,
    name,
    tags: [],
    conversation_config: {
      agent,
      conversation,
      tts: { agent_output_audio_format: DEFAULT_AUDIO_FORMAT },
      asr: { user_input_audio_format: DEFAULT_AUDIO_FORMAT },
    },
    platform_settings: platformSettings,
    metadata: { created_at_unix_secs: nowSecs() },
  };
}

/**
 * Deep copy of JSON data that drops `__proto__` keys (JSON.parse makes them own properties; copying
 * them by assignment would change an object's prototype).
 * @param {unknown} value
 * @returns {any}
 */
export function cloneJson(value) {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (isPlainObject(value)) {
    /** @type {Json} */
    const out = {};
    for (const [key, entry] of Object.entries(value)) {
      if (key !== '__proto__') out[key] = cloneJson(entry);
    }
    return out;
  }
  return value;
}

/**
 * Partial update: plain objects are merged key by key (recursively); arrays, scalars and null replace.
 * Returns a new object; neither argument is changed.
 * @param {unknown} target
 * @param {unknown} patch
 * @returns {any}
 */
export function deepMerge(target, patch) {
  if (!isPlainObject(patch) || !isPlainObject(target)) return cloneJson(patch);
  const out = cloneJson(target);
  for (const [key, value] of Object.entries(patch)) {
    if (key === '__proto__') continue;
    out[key] = isPlainObject(value) && isPlainObject(out[key]) ? deepMerge(out[key], value) : cloneJson(value);
  }
  return out;
}

/**
 * What a voice conversation's microphone sent while the agent spoke (issue 19, "Never hears itself"): kept beside
 * the record, never part of it (the REST read and the protocol are unchanged), for the echo rig (test/echo/) and
 * `bench:echo` to measure from outside the page.
 * - `agent`: each agent turn spoken, `{event_id, started_ms, ends_at_ms, cancelled_ms}`: when its first chunk went out,
 *   when a client playing it from its start is done, when an interruption stopped it (null: never); ms since the epoch;
 * - `chunks`: each `user_audio_chunk` received while an agent turn was audible or within `INPUT_LEVEL_TAIL_MS` after
 *   its end, `{ms, dbfs, event_id}`: when it arrived (ms since the epoch), its RMS level (dBFS of its 16-bit samples,
 *   -120 for digital silence), the turn spoken;
 * - `speech`: each start of speech the VAD detected (vad.mjs), `{ms, interrupted}`: when (ms since the epoch), and the
 *   event id of the agent turn it interrupted (null: none was audible).
 * At most `INPUT_LEVEL_MAX` chunks are kept per conversation (10 minutes of 20 ms chunks).
 * @typedef {{agent: {event_id: number, started_ms: number, ends_at_ms: number, cancelled_ms: number|null}[],
 *   chunks: {ms: number, dbfs: number, event_id: number}[], speech: {ms: number, interrupted: number|null}[]}} InputLevels
 */

/**
 * How long after an agent turn's end (as the service reckons it) the chunks are still kept (ms): a client plays it
 * later by its playout delay, and by the time its audio took to start (Firefox: about a second, at the call's start).
 */
export const INPUT_LEVEL_TAIL_MS = 3000;
/** The most chunks kept per conversation. */
export const INPUT_LEVEL_MAX = 30000;

/** @type {WeakMap<ConversationRecord, InputLevels>} */
const inputLevels = new WeakMap();

/**
 * The input levels of a conversation's record (created empty on first use).
 * @param {ConversationRecord} record
 * @returns {InputLevels}
 */
export function inputLevelsOf(record) {
  let levels = inputLevels.get(record);
  if (!levels) inputLevels.set(record, (levels = { agent: [], chunks: [], speech: [] }));
  return levels;
}

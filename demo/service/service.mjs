// The reference Voice Agent Service: the REST endpoints the widget and the demo use
// (SERVICE-INTERFACE.md 4.2, 4.5, 5, 7) and the conversation WebSocket with a scripted agent
// (PROTOCOL.md 3 and 4) that speaks its replies (speech.mjs: eSpeak NG) and listens for speech (vad.mjs).
// Plain Node ESM, no build step; the dependencies are `ws` and, for speech only, `espeak-ng`.
// Run it with `node demo/service/main.mjs`; embed it with createService() / startService().

import http from 'node:http';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket, WebSocketServer } from 'ws';
import { GARBAGE_FRAMES, createFaults, parseFaults } from './faults.mjs';
import {
  fillDynamicVariables, scriptedReply, speechTranscript, splitReply, stringifyValue, toolReply, voiceReply,
} from './script.mjs';
import { chunk, decodePcm16, decodeUlaw, encodeAudio, parseAudioFormat, synthesize as espeakSynthesize } from './speech.mjs';
import { createVad } from './vad.mjs';
import { AUDIO_FORMATS, isPlainObject, validateAgentCreate, validateAgentUpdate, validateFeedback } from './validate.mjs';

/** Largest request body accepted (bytes); a larger one gets 413. */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Largest body of the dev widget switch (`PUT /v1/dev/agents/{agent_id}/widget`), bytes: large enough for a
 * configuration that holds a few 1 MB strings (hostile-config tests); a larger one gets 413.
 */
export const DEV_MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Largest conversation message handled (bytes); a larger text frame is ignored. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;
/**
 * The socket's hard frame limit (ws `maxPayload`): frames up to MAX_MESSAGE_BYTES are handled, frames
 * between that and this limit are ignored (logged), and only a frame above this limit makes `ws`
 * close the socket with 1009, so one oversized message does not end a conversation.
 */
export const HARD_MAX_PAYLOAD_BYTES = 4 * MAX_MESSAGE_BYTES;
/** Path of the conversation WebSocket. */
export const CONVERSATION_PATH = '/v1/voiceai/conversation';

const DEFAULT_FIXTURES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const DEFAULT_PROMPT = 'You are the scripted demo agent of the reference Voice Agent Service.';
const DEFAULT_AUDIO_FORMAT = 'pcm_16000';
/** Length of the agent's speech in one `audio` message, ms. */
export const AUDIO_CHUNK_MS = 100;
const ACCESS_INFO = Object.freeze({ is_creator: true, creator_name: 'Developer', creator_email: 'dev@localhost' });

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
 *
 * @typedef {object} ServiceOptions
 * @property {string} [apiKey]          default: 'dev_' + 24 random hex characters
 * @property {string} [fixturesDir]     default: ./fixtures beside this module
 * @property {number} [pingIntervalMs]  default 15000
 * @property {number} [replyDelayMs]    default 35: pause between streamed reply parts
 * @property {number} [toolTimeoutMs]   default 10000: how long the agent waits for a client_tool_result
 * @property {number} [initiationTimeoutMs] default 10000: how long a socket may stay without conversation_initiation_client_data
 * @property {boolean | number} [audioRealtime] default true: the agent's audio chunks go out at real time (one per
 *   AUDIO_CHUNK_MS); a number > 0 is a speed factor (2: twice as fast); false: all chunks at once (tests)
 * @property {(text: string) => Promise<{sampleRate: number, samples: Int16Array}>} [synthesize] default speech.mjs
 *   synthesize (eSpeak NG); tests pass a replacement, e.g. one that fails
 * @property {(line: string) => void} [log] default console.log
 *
 * @typedef {object} Service
 * @property {string} apiKey
 * @property {(req: http.IncomingMessage, res: http.ServerResponse) => boolean} handleRequest
 * @property {(req: http.IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) => boolean} handleUpgrade
 * @property {Map<string, AgentRecord>} agents
 * @property {Map<string, ConversationRecord>} conversations
 * @property {ReturnType<typeof createFaults>} faults  the fault switches (faults.mjs; `PUT /v1/dev/faults`)
 * @property {() => Promise<void>} close
 */

/** @param {number} bytes */
const randomHex = (bytes) => randomBytes(bytes).toString('hex');
const nowSecs = () => Math.floor(Date.now() / 1000);

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

/** @param {string} key @returns {Buffer} */
const digest = (key) => createHash('sha256').update(key).digest();

/**
 * Reads every `widget-config.*.json` of a directory (the GET-widget response shape `{agent_id, widget_config}`)
 * and builds an agent record from each.
 * @param {string} dir
 * @param {(line: string) => void} log
 * @returns {AgentRecord[]}
 */
function loadFixtureAgents(dir, log) {
  /** @type {string[]} */
  let files;
  try {
    files = readdirSync(dir).filter((name) => /^widget-config\..+\.json$/.test(name)).sort();
  } catch (error) {
    log(`[service] no fixtures read from ${dir}: ${/** @type {Error} */ (error).message}`);
    return [];
  }
  /** @type {AgentRecord[]} */
  const agents = [];
  for (const file of files) {
    try {
      const fixture = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
      if (!isPlainObject(fixture) || typeof fixture.agent_id !== 'string' || !isPlainObject(fixture.widget_config)) {
        throw new Error('expected {agent_id: string, widget_config: object}');
      }
      const label = file.slice('widget-config.'.length, -'.json'.length);
      agents.push(agentFromWidgetConfig(fixture.agent_id, `Fixture agent (${label})`, fixture.widget_config));
    } catch (error) {
      log(`[service] skipped fixture ${file}: ${/** @type {Error} */ (error).message}`);
    }
  }
  return agents;
}

/**
 * An agent record whose widget is `widgetConfig`; its first_message, language and text_only (when set)
 * are copied into conversation_config.
 * @param {string} agentId
 * @param {string} name
 * @param {Json} widgetConfig
 * @returns {AgentRecord}
 */
function agentFromWidgetConfig(agentId, name, widgetConfig) {
  const widget = cloneJson(widgetConfig);
  /** @type {Json} */
  const agent = {};
  if (typeof widget.first_message === 'string') agent.first_message = widget.first_message;
  if (typeof widget.language === 'string') agent.language = widget.language;
  agent.prompt = { prompt: DEFAULT_PROMPT };
  /** @type {Json} */
  const conversation = {};
  if (typeof widget.text_only === 'boolean') conversation.text_only = widget.text_only;
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
    platform_settings: { widget },
    metadata: { created_at_unix_secs: nowSecs() },
  };
}

/**
 * The widget configuration served for an agent: platform_settings.widget, with first_message, language
 * and text_only taken from conversation_config when they are set there. For an agent whose widget was last
 * written through the dev switch (`devWidget`), the stored value exactly as given, whatever it is.
 * @param {AgentRecord} agent
 * @returns {unknown}
 */
export function widgetConfigOf(agent) {
  // Written through the dev switch: served exactly as stored (any JSON value, `__proto__` keys included).
  if (agent.devWidget) return agent.platform_settings?.widget;
  const widget = isPlainObject(agent.platform_settings?.widget) ? cloneJson(agent.platform_settings.widget) : {};
  const cc = agent.conversation_config ?? {};
  if (typeof cc.agent?.first_message === 'string') widget.first_message = cc.agent.first_message;
  if (typeof cc.agent?.language === 'string') widget.language = cc.agent.language;
  if (typeof cc.conversation?.text_only === 'boolean') widget.text_only = cc.conversation.text_only;
  return widget;
}

/**
 * The agent as the update response (SERVICE-INTERFACE.md 2.7) and the agent read return it.
 * @param {AgentRecord} agent
 */
function agentResponse(agent) {
  /** @type {Json} */
  const out = {
    agent_id: agent.agent_id,
    name: agent.name ?? '',
    conversation_config: cloneJson(agent.conversation_config),
    metadata: cloneJson(agent.metadata),
    platform_settings: cloneJson(agent.platform_settings),
    phone_numbers: [],
  };
  if (agent.workflow !== undefined) out.workflow = cloneJson(agent.workflow);
  out.access_info = { ...ACCESS_INFO };
  out.tags = [...(agent.tags ?? [])];
  return out;
}

/** @param {unknown} value @param {string} fallback */
const audioFormat = (value, fallback) => (typeof value === 'string' && AUDIO_FORMATS.includes(value) ? value : fallback);

/**
 * Creates the service (no listening socket of its own): a request handler and an upgrade handler
 * that a Node http server, or a demo server that also serves static files, calls.
 * @param {ServiceOptions} [options]
 * @returns {Service}
 */
export function createService(options = {}) {
  const apiKey = options.apiKey ?? `dev_${randomHex(12)}`;
  const fixturesDir = options.fixturesDir ?? DEFAULT_FIXTURES_DIR;
  const pingIntervalMs = options.pingIntervalMs ?? 15000;
  const replyDelayMs = options.replyDelayMs ?? 35;
  const toolTimeoutMs = options.toolTimeoutMs ?? 10000;
  const initiationTimeoutMs = options.initiationTimeoutMs ?? 10000;
  const audioRealtime = options.audioRealtime ?? true;
  /** speed of the agent's audio stream relative to real time (Infinity: no pacing) */
  const audioSpeed = typeof audioRealtime === 'number' && audioRealtime > 0 ? audioRealtime : audioRealtime === false ? Infinity : 1;
  const synthesize = options.synthesize ?? espeakSynthesize;
  const log = options.log ?? ((line) => console.log(line));
  let speechFailureLogged = false;
  const apiKeyDigest = digest(apiKey);

  /** @type {Map<string, AgentRecord>} */
  const agents = new Map();
  for (const agent of loadFixtureAgents(fixturesDir, log)) agents.set(agent.agent_id, agent);
  /** @type {Map<string, ConversationRecord>} */
  const conversations = new Map();
  /** @type {Set<Session>} */
  const sessions = new Set();
  const faults = createFaults(log);
  let closed = false;

  const wss = new WebSocketServer({ noServer: true, maxPayload: HARD_MAX_PAYLOAD_BYTES, perMessageDeflate: false });

  // ------------------------------------------------------------------ REST

  /** @param {http.IncomingMessage} req */
  const corsHeaders = (req) => ({
    'Access-Control-Allow-Origin': typeof req.headers.origin === 'string' && req.headers.origin ? req.headers.origin : '*',
    'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    'Access-Control-Allow-Headers': 'content-type, x-api-key',
    'Access-Control-Max-Age': '600',
    Vary: 'Origin',
  });

  /**
   * @param {http.IncomingMessage} req @param {http.ServerResponse} res
   * @param {number} status @param {unknown} body @param {Record<string, string>} [extra]
   */
  function sendJson(req, res, status, body, extra = {}) {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      ...corsHeaders(req),
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(text)),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      ...extra,
    });
    res.end(text);
  }

  /**
   * Checks the x-api-key header; answers 401 and returns false when it is missing or wrong.
   * @param {http.IncomingMessage} req @param {http.ServerResponse} res
   */
  function authorised(req, res) {
    const key = req.headers['x-api-key'];
    if (typeof key === 'string' && key !== '' && timingSafeEqual(digest(key), apiKeyDigest)) return true;
    const message = typeof key === 'string' && key !== '' ? 'The API key (header x-api-key) is not valid' : 'An API key is required (header x-api-key)';
    sendJson(req, res, 401, { detail: { status: 'invalid_api_key', message } });
    return false;
  }

  /**
   * Reads and parses a JSON body. On failure it answers (413 or 422) and returns undefined.
   * @param {http.IncomingMessage} req @param {http.ServerResponse} res
   * @param {number} [limit] largest body accepted, bytes
   * @returns {Promise<{value: unknown} | undefined>}
   */
  async function readJsonBody(req, res, limit = MAX_BODY_BYTES) {
    const tooLarge = () => {
      sendJson(req, res, 413, { detail: `Request body too large (limit ${limit} bytes)` }, { Connection: 'close' });
      req.resume();
    };
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      tooLarge();
      return undefined;
    }
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    let overflow = false;
    try {
      for await (const chunk of req) {
        size += chunk.length;
        if (size > limit) {
          overflow = true;
          break;
        }
        chunks.push(chunk);
      }
    } catch {
      return undefined; // the client went away
    }
    if (overflow) {
      tooLarge();
      return undefined;
    }
    const raw = Buffer.concat(chunks);
    let text;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch {
      sendJson(req, res, 422, { detail: [{ loc: ['body'], msg: 'Body is not valid UTF-8', type: 'json_invalid' }] });
      return undefined;
    }
    if (text.trim() === '') {
      sendJson(req, res, 422, { detail: [{ loc: ['body'], msg: 'Field required', type: 'missing', input: null }] });
      return undefined;
    }
    try {
      return { value: JSON.parse(text) };
    } catch (error) {
      sendJson(req, res, 422, {
        detail: [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid', ctx: { error: /** @type {Error} */ (error).message } }],
      });
      return undefined;
    }
  }

  /**
   * Reads, parses and validates a body; answers 413/422 itself and returns undefined on failure.
   * @param {http.IncomingMessage} req @param {http.ServerResponse} res
   * @param {(body: unknown) => import('./validate.mjs').ValidationError[]} validate
   * @returns {Promise<Json | undefined>}
   */
  async function readValidBody(req, res, validate) {
    const body = await readJsonBody(req, res);
    if (!body) return undefined;
    const errors = validate(body.value);
    if (errors.length > 0) {
      sendJson(req, res, 422, { detail: errors });
      return undefined;
    }
    return cloneJson(body.value);
  }

  /** @param {http.IncomingMessage} req @param {http.ServerResponse} res @param {string} agentId */
  const agentNotFound = (req, res, agentId) =>
    sendJson(req, res, 404, { detail: { status: 'agent_not_found', message: `Agent '${agentId}' was not found` } });
  /** @param {http.IncomingMessage} req @param {http.ServerResponse} res @param {string} conversationId */
  const conversationNotFound = (req, res, conversationId) =>
    sendJson(req, res, 404, {
      detail: { status: 'conversation_not_found', message: `Conversation '${conversationId}' was not found` },
    });

  /**
   * Applies a widget-read fault: waits (`delay_ms`, `hang`), then answers with the fault's status/body.
   * Returns true when the normal answer is to follow (no status/body, or the faults were cleared while it waited).
   * @param {http.IncomingMessage} req @param {http.ServerResponse} res @param {import('./faults.mjs').WidgetFault} fault
   */
  async function applyWidgetFault(req, res, fault) {
    if (fault.hang || fault.delay_ms !== undefined) {
      const outcome = await faults.hold(res, fault.hang ? undefined : fault.delay_ms);
      if (outcome === 'gone') {
        res.destroy(); // the client went away or the service closed: nothing to answer
        return false;
      }
      if (outcome === 'cleared') return true;
    }
    if (fault.status === undefined && fault.body === undefined) return true;
    const status = fault.status ?? 200;
    const text = fault.body ?? JSON.stringify({ detail: { status: 'injected_fault', message: `Injected fault: HTTP ${status}` } });
    res.writeHead(status, {
      ...corsHeaders(req),
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(text)),
      'Cache-Control': 'no-store',
    });
    res.end(text);
    return false;
  }

  /**
   * @typedef {(req: http.IncomingMessage, res: http.ServerResponse, params: string[]) => Promise<void> | void} Handler
   * @type {{pattern: RegExp, methods: Record<string, Handler>}[]}
   */
  const routes = [
    {
      pattern: /^\/v1\/convai\/agents$/,
      methods: {
        GET(req, res) {
          if (!authorised(req, res)) return;
          sendJson(req, res, 200, { agents: [...agents.values()].map((a) => ({ agent_id: a.agent_id, name: a.name ?? '' })) });
        },
      },
    },
    {
      pattern: /^\/v1\/convai\/agents\/create$/,
      methods: {
        async POST(req, res) {
          if (!authorised(req, res)) return;
          const body = await readValidBody(req, res, validateAgentCreate);
          if (!body) return;
          let agentId;
          do agentId = `agent_${randomHex(12)}`;
          while (agents.has(agentId));
          /** @type {AgentRecord} */
          const agent = {
            agent_id: agentId,
            name: body.name ?? null,
            tags: body.tags ?? [],
            conversation_config: body.conversation_config,
            platform_settings: isPlainObject(body.platform_settings) ? body.platform_settings : { widget: {} },
            metadata: { created_at_unix_secs: nowSecs() },
          };
          if (body.workflow !== undefined) agent.workflow = body.workflow;
          agents.set(agentId, agent);
          log(`[service] agent ${agentId} created`);
          sendJson(req, res, 200, { agent_id: agentId });
        },
      },
    },
    {
      pattern: /^\/v1\/convai\/agents\/([^/]+)\/widget$/,
      methods: {
        async GET(req, res, [agentId]) {
          const fault = faults.takeWidget(agentId);
          if (fault && !(await applyWidgetFault(req, res, fault))) return;
          const agent = agents.get(agentId);
          if (!agent) return agentNotFound(req, res, agentId);
          sendJson(req, res, 200, { agent_id: agent.agent_id, widget_config: widgetConfigOf(agent) });
        },
      },
    },
    {
      pattern: /^\/v1\/convai\/agents\/([^/]+)$/,
      methods: {
        GET(req, res, [agentId]) {
          if (!authorised(req, res)) return;
          const agent = agents.get(agentId);
          if (!agent) return agentNotFound(req, res, agentId);
          sendJson(req, res, 200, agentResponse(agent));
        },
        async PATCH(req, res, [agentId]) {
          if (!authorised(req, res)) return;
          const body = await readValidBody(req, res, validateAgentUpdate);
          if (!body) return;
          const agent = agents.get(agentId);
          if (!agent) return agentNotFound(req, res, agentId);
          if ('name' in body) agent.name = body.name;
          if ('tags' in body) agent.tags = body.tags ?? [];
          if (isPlainObject(body.conversation_config)) agent.conversation_config = deepMerge(agent.conversation_config, body.conversation_config);
          if (isPlainObject(body.platform_settings)) agent.platform_settings = deepMerge(agent.platform_settings, body.platform_settings);
          delete agent.devWidget; // an agent PATCHed after the dev switch is served as any other again
          if (isPlainObject(body.workflow)) agent.workflow = deepMerge(agent.workflow ?? {}, body.workflow);
          agent.metadata = { ...agent.metadata, updated_at_unix_secs: nowSecs() };
          log(`[service] agent ${agentId} updated`);
          sendJson(req, res, 200, agentResponse(agent));
        },
      },
    },
    {
      // Test switch of the reference service only (README.md, "Dev switch"): stores any JSON value as the agent's
      // platform_settings.widget, unvalidated, so tests can serve hostile or wrong-typed widget configurations that
      // PATCH refuses with 422. A real service would refuse such configurations.
      pattern: /^\/v1\/dev\/agents\/([^/]+)\/widget$/,
      methods: {
        async PUT(req, res, [agentId]) {
          if (!authorised(req, res)) return;
          const body = await readJsonBody(req, res, DEV_MAX_BODY_BYTES);
          if (!body) return;
          let agent = agents.get(agentId);
          if (!agent) {
            agent = {
              agent_id: agentId,
              name: null,
              tags: [],
              conversation_config: {
                agent: { prompt: { prompt: DEFAULT_PROMPT } },
                conversation: {},
                tts: { agent_output_audio_format: DEFAULT_AUDIO_FORMAT },
                asr: { user_input_audio_format: DEFAULT_AUDIO_FORMAT },
              },
              platform_settings: {},
              metadata: { created_at_unix_secs: nowSecs() },
            };
            agents.set(agentId, agent);
          } else {
            agent.metadata = { ...agent.metadata, updated_at_unix_secs: nowSecs() };
          }
          // Kept as parsed (JSON.parse makes `__proto__` an own key; nothing here copies it by assignment).
          agent.platform_settings = { ...agent.platform_settings, widget: body.value };
          agent.devWidget = true;
          log(`[service] agent ${agentId}: widget stored by the dev switch`);
          sendJson(req, res, 200, { agent_id: agentId, widget_config: widgetConfigOf(agent) });
        },
      },
    },
    {
      // Test switch of the reference service only (README.md, "Fault switches"; faults.mjs): the faults of the next
      // widget reads and conversations.
      pattern: /^\/v1\/dev\/faults$/,
      methods: {
        GET(req, res) {
          if (!authorised(req, res)) return;
          sendJson(req, res, 200, faults.current);
        },
        async PUT(req, res) {
          if (!authorised(req, res)) return;
          const body = await readJsonBody(req, res);
          if (!body) return;
          const { faults: next, errors } = parseFaults(body.value);
          if (errors.length > 0) return sendJson(req, res, 422, { detail: errors });
          faults.set(next);
          log(`[service] faults set: ${JSON.stringify(next)}`);
          sendJson(req, res, 200, faults.current);
        },
        DELETE(req, res) {
          if (!authorised(req, res)) return;
          faults.clear();
          log('[service] faults cleared');
          sendJson(req, res, 200, faults.current);
        },
      },
    },
    {
      pattern: /^\/v1\/voiceai\/conversations\/([^/]+)\/feedback$/,
      methods: {
        // Public: the widget posts end-of-call feedback without an API key (one that is sent is not checked).
        async POST(req, res, [conversationId]) {
          const body = await readValidBody(req, res, validateFeedback);
          if (!body) return;
          const record = conversations.get(conversationId);
          if (!record) return conversationNotFound(req, res, conversationId);
          const feedback = record.metadata.feedback;
          if (body.feedback === 'like') feedback.likes += 1;
          if (body.feedback === 'dislike') feedback.dislikes += 1;
          if (typeof body.rating === 'number') feedback.rating = body.rating;
          if (typeof body.comment === 'string') feedback.comment = body.comment;
          log(`[service] conversation ${conversationId}: feedback ${JSON.stringify(body)}`);
          sendJson(req, res, 200, {});
        },
      },
    },
    {
      pattern: /^\/v1\/voiceai\/conversations\/([^/]+)$/,
      methods: {
        GET(req, res, [conversationId]) {
          if (!authorised(req, res)) return;
          const record = conversations.get(conversationId);
          if (!record) return conversationNotFound(req, res, conversationId);
          const session = [...sessions].find((s) => s.record === record);
          if (session) record.metadata.call_duration_secs = Math.floor((Date.now() - session.startedMs) / 1000);
          sendJson(req, res, 200, record);
        },
      },
    },
    {
      pattern: /^\/v1\/voiceai\/conversation$/,
      methods: {
        GET(req, res) {
          sendJson(req, res, 426, { detail: 'Upgrade Required: open this path as a WebSocket' }, { Upgrade: 'websocket' });
        },
      },
    },
  ];

  /** @param {http.IncomingMessage} req @param {http.ServerResponse} res @param {string} pathname */
  async function route(req, res, pathname) {
    const method = (req.method ?? 'GET').toUpperCase();
    if (method === 'OPTIONS') {
      res.writeHead(204, { ...corsHeaders(req), 'Content-Length': '0' });
      res.end();
      return;
    }
    for (const { pattern, methods } of routes) {
      const match = pattern.exec(pathname);
      if (!match) continue;
      /** @type {string[]} */
      let params;
      try {
        params = match.slice(1).map((segment) => decodeURIComponent(segment));
      } catch {
        break; // a malformed %-escape: not found
      }
      const handler = methods[method];
      if (!handler) {
        const allow = [...Object.keys(methods), 'OPTIONS'].join(', ');
        sendJson(req, res, 405, { detail: 'Method Not Allowed' }, { Allow: allow });
        return;
      }
      await handler(req, res, params);
      return;
    }
    sendJson(req, res, 404, { detail: 'Not found' });
  }

  /**
   * Handles a request whose path starts with /v1/ and returns true; returns false (and leaves `res`
   * alone) for every other path.
   * @param {http.IncomingMessage} req @param {http.ServerResponse} res
   */
  function handleRequest(req, res) {
    const pathname = pathOf(req);
    if (pathname === undefined || !pathname.startsWith('/v1/')) return false;
    const normalised = pathname.length > 4 ? pathname.replace(/\/+$/, '') : pathname;
    route(req, res, normalised).catch((error) => {
      log(`[service] ${req.method} ${pathname} failed: ${error?.stack ?? error}`);
      if (!res.headersSent) sendJson(req, res, 500, { detail: 'Internal server error' });
      else res.destroy();
    });
    return true;
  }

  // ------------------------------------------------------------------ conversation socket

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
   * @property {import('./faults.mjs').SocketFault | null} fault  the injected fault of this conversation (faults.mjs)
   * @property {boolean} errorMessageSent  the fault's `error_message` went out
   * @property {boolean} voice      not text-only: agent turns are spoken, user audio is listened to
   * @property {string} outputFormat agent_output_audio_format of the conversation
   * @property {string} inputFormat  user_input_audio_format of the conversation
   * @property {Map<number, TranscriptEntry>} agentEntries the transcript entry of each agent turn, by event id
   * @property {Promise<void>} audioQueue  agent turns are spoken one after the other
   * @property {Set<number>} pendingAudio  event ids of agent turns waiting to be spoken (synthesis, queue)
   * @property {Playback | null} playback the agent turn spoken last (or now)
   * @property {number} audioCutoff  agent turns up to this event id are not spoken any more (interrupted)
   * @property {ReturnType<typeof createVad> | null} vad  voice activity detection of the user's audio
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

  /** @param {Session} session @param {() => void} fn @param {number} ms */
  function later(session, fn, ms) {
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
  function sleep(session, ms) {
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
  function send(session, message) {
    // A `silent` fault: nothing after conversation_initiation_metadata.
    if (session.fault?.silent && session.record && message.type !== 'conversation_initiation_metadata') return;
    if (session.ws.readyState === WebSocket.OPEN) session.ws.send(JSON.stringify(message));
    if (message.type === 'agent_response' && session.fault?.error_message && !session.errorMessageSent) {
      // An `error_message` fault: an error right after the first agent message; the conversation goes on.
      session.errorMessageSent = true;
      send(session, { type: 'error', error_event: { ...session.fault.error_message } });
    }
  }

  /**
   * Starts the timed faults of a conversation (`close_after_ms`, `garbage_every_ms`); their timers are the
   * session's, cleared when it ends.
   * @param {Session} session
   */
  function startTimedFaults(session) {
    const fault = session.fault;
    if (!fault) return;
    if (fault.close_after_ms !== undefined) {
      later(session, () => {
        const code = fault.code ?? 1011;
        const reason = fault.reason ?? 'injected fault';
        if (code === 1000) session.endedBy = 'agent_ended';
        else session.error = { code, reason };
        log(`[service] ${session.label}: injected close ${code} (${reason})`);
        if (session.ws.readyState === WebSocket.OPEN) session.ws.close(code, reason);
      }, fault.close_after_ms);
    }
    if (fault.garbage_every_ms !== undefined) {
      let index = 0;
      const timer = setInterval(() => {
        if (session.ws.readyState !== WebSocket.OPEN) return;
        session.ws.send(GARBAGE_FRAMES[index++ % GARBAGE_FRAMES.length]);
      }, fault.garbage_every_ms);
      session.timers.add(timer);
    }
  }

  /** @param {Session} session @param {number} code @param {string} message @param {string} reason */
  function fail(session, code, message, reason) {
    send(session, { type: 'error', error_event: { code, message } });
    log(`[service] ${session.label}: ${message}; closing with ${code}`);
    if (session.ws.readyState === WebSocket.OPEN) session.ws.close(code, reason);
  }

  /** @param {Session} session */
  const secondsInCall = (session) => Math.floor((Date.now() - session.startedMs) / 1000);

  /** @param {Session} session @param {TranscriptEntry} entry */
  function addTranscript(session, entry) {
    session.record?.transcript.push(entry);
  }

  /** @param {Session} session */
  function sendPing(session) {
    if (!session.record) return;
    session.pingId += 1;
    session.record.metadata.pings_sent += 1;
    send(session, { type: 'ping', ping_event: { event_id: session.pingId, ping_ms: null } });
  }

  /** @param {Session} session */
  function startPings(session) {
    sendPing(session);
    const timer = setInterval(() => sendPing(session), pingIntervalMs);
    session.timers.add(timer);
  }

  /**
   * Streams `text` (start, deltas, stop) and then sends the whole text as agent_response.
   * @param {Session} session @param {number} eventId @param {string} text
   * @returns {Promise<boolean>} false when the conversation ended meanwhile
   */
  async function streamReply(session, eventId, text) {
    send(session, { type: 'agent_chat_response_part', text_response_part: { text: '', type: 'start', event_id: eventId } });
    for (const part of splitReply(text)) {
      if (!(await sleep(session, replyDelayMs))) return false;
      send(session, { type: 'agent_chat_response_part', text_response_part: { text: part, type: 'delta', event_id: eventId } });
    }
    if (session.ended) return false;
    send(session, { type: 'agent_chat_response_part', text_response_part: { text: '', type: 'stop', event_id: eventId } });
    send(session, { type: 'agent_response', agent_response_event: { agent_response: text, event_id: eventId } });
    session.agentEventIds.add(eventId);
    return true;
  }

  /**
   * Sends a client tool call and waits for its result.
   * @param {Session} session @param {string} toolName @param {Json} parameters @param {number} eventId
   */
  async function callClientTool(session, toolName, parameters, eventId) {
    session.toolCounter += 1;
    const toolCallId = `call_${session.toolCounter}`;
    const startedAt = Date.now();
    /** @type {Promise<{result: unknown, isError: boolean} | null>} */
    const answered = new Promise((resolve) => {
      const timer = later(session, () => finish(null), toolTimeoutMs);
      const finish = (/** @type {{result: unknown, isError: boolean} | null} */ outcome) => {
        clearTimeout(timer);
        session.timers.delete(timer);
        session.pendingTools.delete(toolCallId);
        resolve(outcome);
      };
      session.pendingTools.set(toolCallId, finish);
    });
    send(session, {
      type: 'client_tool_call',
      client_tool_call: { tool_name: toolName, tool_call_id: toolCallId, parameters, event_id: eventId },
    });
    const outcome = await answered;
    const latency = Math.round(Date.now() - startedAt) / 1000;
    const toolCalls = [{
      request_id: toolCallId,
      tool_name: toolName,
      params_as_json: JSON.stringify(parameters),
      tool_has_been_called: true,
      tool_details: { type: 'client' },
    }];
    const toolResults = [{
      request_id: toolCallId,
      tool_name: toolName,
      result_value: outcome ? stringifyValue(outcome.result) : '',
      is_error: outcome ? outcome.isError : true,
      tool_has_been_called: true,
      tool_latency_secs: latency,
      dynamic_variable_updates: [],
    }];
    return { outcome, toolCalls, toolResults };
  }

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
          if (timer !== undefined) {
            clearTimeout(timer);
            session.timers.delete(timer);
            timer = undefined;
          }
          done();
        },
      };
      session.playback = playback;
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

  /**
   * The user started speaking: when the agent is speaking (its audio still being sent, or within the time a client
   * takes to play it), `interruption` with that turn's event id, the rest of its chunks dropped and the turn recorded
   * as interrupted; agent turns still waiting to be spoken are dropped too.
   * @param {Session} session
   */
  function onSpeechStart(session) {
    const playback = session.playback;
    const audible = playback !== null && !playback.cancelled && (!playback.sentAll || Date.now() < playback.endsAtMs);
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
    const choice = /** @type {import('./script.mjs').ScriptedReply} */ ({ kind: 'echo', text: voiceReply(seconds) });
    session.queue = session.queue.then(() => reply(session, text, choice)).catch((error) => {
      log(`[service] ${session.label}: reply failed: ${error?.stack ?? error}`);
    });
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
    for (const event of session.vad.push(samples)) {
      if (session.ended) return;
      if (event.type === 'score') send(session, { type: 'vad_score', vad_score_event: { vad_score: event.score } });
      else if (event.type === 'start') onSpeechStart(session);
      else onSpeechEnd(session, event.durationMs);
    }
  }

  /**
   * @param {Session} session @param {string} userText
   * @param {import('./script.mjs').ScriptedReply} [choice] default: scriptedReply(userText)
   */
  async function reply(session, userText, choice = scriptedReply(userText)) {
    if (session.ended || session.fault?.silent) return;
    session.eventId += 1;
    const eventId = session.eventId;
    /** @type {Partial<TranscriptEntry>} */
    const extra = {};
    let text;
    if (choice.kind === 'tool') {
      const call = await callClientTool(session, choice.toolName, choice.parameters, eventId);
      if (session.ended) return;
      text = toolReply(call.outcome);
      extra.tool_calls = call.toolCalls;
      extra.tool_results = call.toolResults;
    } else {
      text = choice.text;
    }
    if (!(await streamReply(session, eventId, text))) return;
    /** @type {TranscriptEntry} */
    const entry = { role: 'agent', message: text, time_in_call_secs: secondsInCall(session), interrupted: false, ...extra };
    addTranscript(session, entry);
    session.agentEntries.set(eventId, entry);
    const spoken = speak(session, eventId, text);
    if (choice.kind === 'end') {
      await spoken; // the goodbye is heard before the socket closes
      if (session.ended) return;
      session.endedBy = 'agent_ended';
      log(`[service] ${session.label}: the agent ended the conversation`);
      session.ws.close(1000, 'agent ended the conversation');
    }
  }

  /** @param {Session} session @param {Json} message */
  function initiate(session, message) {
    const agent = /** @type {AgentRecord} */ (session.agent);
    const cc = agent.conversation_config ?? {};
    const override = isPlainObject(message.conversation_config_override) ? message.conversation_config_override : {};
    const dynamicVariables = isPlainObject(message.dynamic_variables) ? message.dynamic_variables : {};
    const overrideAgent = isPlainObject(override.agent) ? override.agent : {};
    const overrideConversation = isPlainObject(override.conversation) ? override.conversation : {};
    const mainLanguage = [overrideAgent.language, cc.agent?.language].find((v) => typeof v === 'string' && v !== '') ?? 'en';
    const textOnly = [overrideConversation.text_only, cc.conversation?.text_only].find((v) => typeof v === 'boolean') ?? false;
    const outputFormat = audioFormat(cc.tts?.agent_output_audio_format, DEFAULT_AUDIO_FORMAT);
    const inputFormat = audioFormat(cc.asr?.user_input_audio_format, DEFAULT_AUDIO_FORMAT);
    // Spoken and listened to unless the initiation or the agent asks for text only.
    session.voice = overrideConversation.text_only !== true && cc.conversation?.text_only !== true;
    session.outputFormat = outputFormat;
    session.inputFormat = inputFormat;
    session.vad = session.voice ? createVad(parseAudioFormat(inputFormat).sampleRate) : null;

    let conversationId;
    do conversationId = `conv_${randomHex(10)}`;
    while (conversations.has(conversationId));
    session.startedMs = Date.now();
    session.label = `conversation ${conversationId}`;
    /** @type {ConversationRecord} */
    const record = {
      agent_id: agent.agent_id,
      agent_name: agent.name ?? null,
      conversation_id: conversationId,
      status: 'in-progress',
      transcript: [],
      metadata: {
        start_time_unix_secs: Math.floor(session.startedMs / 1000),
        call_duration_secs: 0,
        main_language: mainLanguage,
        text_only: textOnly,
        termination_reason: null,
        feedback: { likes: 0, dislikes: 0, rating: null, comment: null },
        pings_sent: 0,
        pongs_received: 0,
        user_audio_bytes: 0,
      },
      has_audio: false,
      has_user_audio: false,
      has_response_audio: false,
      user_id: typeof message.user_id === 'string' ? message.user_id : null,
      conversation_initiation_client_data: {
        conversation_config_override: cloneJson(override),
        custom_llm_extra_body: isPlainObject(message.custom_llm_extra_body) ? cloneJson(message.custom_llm_extra_body) : {},
        user_id: typeof message.user_id === 'string' ? message.user_id : null,
        source_info: isPlainObject(message.source_info) ? cloneJson(message.source_info) : {},
        dynamic_variables: cloneJson(dynamicVariables),
      },
    };
    session.record = record;
    conversations.set(conversationId, record);
    log(`[service] ${session.label}: started with agent ${agent.agent_id}`);

    send(session, {
      type: 'conversation_initiation_metadata',
      conversation_initiation_metadata_event: {
        conversation_id: conversationId,
        agent_output_audio_format: outputFormat,
        user_input_audio_format: inputFormat,
      },
    });

    startTimedFaults(session);
    if (session.fault?.silent) return; // no first message, no pings

    const template = typeof overrideAgent.first_message === 'string'
      ? overrideAgent.first_message
      : typeof cc.agent?.first_message === 'string' ? cc.agent.first_message : '';
    const placeholders = isPlainObject(cc.agent?.dynamic_variables?.dynamic_variable_placeholders)
      ? cc.agent.dynamic_variables.dynamic_variable_placeholders
      : {};
    const firstMessage = fillDynamicVariables(template, { ...placeholders, ...dynamicVariables });
    if (firstMessage !== '') {
      session.eventId += 1;
      send(session, { type: 'agent_response', agent_response_event: { agent_response: firstMessage, event_id: session.eventId } });
      session.agentEventIds.add(session.eventId);
      /** @type {TranscriptEntry} */
      const entry = { role: 'agent', message: firstMessage, time_in_call_secs: 0, interrupted: false };
      addTranscript(session, entry);
      session.agentEntries.set(session.eventId, entry);
      speak(session, session.eventId, firstMessage);
    }
    startPings(session);
  }

  /** @param {Session} session @param {Json} message */
  function handleMessage(session, message) {
    const record = /** @type {ConversationRecord} */ (session.record);
    switch (message.type) {
      case 'user_message': {
        if (typeof message.text !== 'string' || message.text.trim() === '') {
          log(`[service] ${session.label}: ignored a user_message without text`);
          return;
        }
        const text = message.text;
        addTranscript(session, { role: 'user', message: text, time_in_call_secs: secondsInCall(session), interrupted: false });
        session.queue = session.queue.then(() => reply(session, text)).catch((error) => {
          log(`[service] ${session.label}: reply failed: ${error?.stack ?? error}`);
        });
        return;
      }
      case 'contextual_update':
        if (typeof message.text !== 'string') {
          log(`[service] ${session.label}: ignored a contextual_update without text`);
          return;
        }
        addTranscript(session, {
          role: 'user', message: message.text, time_in_call_secs: secondsInCall(session), interrupted: false, source: 'contextual_update',
        });
        return;
      case 'user_activity':
        return;
      case 'pong':
        if (Number.isInteger(message.event_id) && message.event_id >= 1 && message.event_id <= session.pingId) {
          record.metadata.pongs_received += 1;
        } else {
          log(`[service] ${session.label}: ignored a pong for an unknown ping ${JSON.stringify(message.event_id)}`);
        }
        return;
      case 'client_tool_result': {
        const finish = typeof message.tool_call_id === 'string' ? session.pendingTools.get(message.tool_call_id) : undefined;
        if (!finish) {
          log(`[service] ${session.label}: ignored a result for an unknown tool call ${JSON.stringify(message.tool_call_id)}`);
          return;
        }
        finish({ result: message.result, isError: message.is_error === true });
        return;
      }
      case 'feedback': {
        const { score, event_id: eventId } = message;
        if ((score !== 'like' && score !== 'dislike') || !session.agentEventIds.has(eventId) || session.feedbackEventIds.has(eventId)) {
          log(`[service] ${session.label}: ignored feedback ${JSON.stringify(message)}`);
          return;
        }
        session.feedbackEventIds.add(eventId);
        if (score === 'like') record.metadata.feedback.likes += 1;
        else record.metadata.feedback.dislikes += 1;
        return;
      }
      case 'conversation_initiation_client_data':
        log(`[service] ${session.label}: ignored a second conversation_initiation_client_data`);
        return;
      case undefined:
        if (typeof message.user_audio_chunk === 'string') {
          const bytes = Buffer.from(message.user_audio_chunk, 'base64');
          record.metadata.user_audio_bytes += bytes.length;
          record.has_user_audio = true;
          record.has_audio = true;
          if (session.voice) listen(session, bytes);
          return;
        }
      // fall through
      default:
        log(`[service] ${session.label}: ignored a message of unknown type ${JSON.stringify(message.type)}`);
    }
  }

  /** @param {Session} session @param {number} code */
  function finishSession(session, code) {
    if (session.ended) return;
    session.ended = true;
    sessions.delete(session);
    for (const timer of session.timers) clearTimeout(timer);
    session.timers.clear();
    for (const wake of [...session.sleepers]) wake(false);
    for (const finish of [...session.pendingTools.values()]) finish(null);
    const record = session.record;
    if (!record) return;
    record.metadata.call_duration_secs = secondsInCall(session);
    if (session.error) {
      record.status = 'failed';
      record.metadata.termination_reason = 'error';
      record.metadata.error = { ...session.error };
    } else {
      record.status = 'done';
      record.metadata.termination_reason = session.endedBy ?? (code === 1000 ? 'client_ended' : 'client_disconnected');
    }
    log(`[service] ${session.label}: ${record.status} (${record.metadata.termination_reason}, close code ${code})`);
  }

  /** @param {WebSocket} ws @param {URL} url @param {import('./faults.mjs').SocketFault | null} fault */
  function onConnection(ws, url, fault) {
    const agentId = url.searchParams.get('agent_id') ?? '';
    /** @type {Session} */
    const session = {
      ws,
      agent: agents.get(agentId),
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
    sessions.add(session);
    ws.on('close', (code) => finishSession(session, code));
    ws.on('error', (error) => {
      // ws reports protocol errors (a frame over maxPayload, invalid UTF-8, ...) and closes the socket itself.
      // ws closes the socket itself; the close code it sends to the client follows from the error.
      const wsCode = /** @type {{code?: string}} */ (error).code;
      const code = wsCode === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? 1009 : wsCode === 'WS_ERR_INVALID_UTF8' ? 1007 : 1002;
      session.error = { code, reason: error.message };
      log(`[service] ${session.label}: socket error: ${error.message}`);
    });

    if (!session.agent) {
      fail(session, 4004, `Agent '${agentId}' was not found`, 'agent not found');
      return;
    }
    later(session, () => {
      if (!session.record) {
        fail(session, 1008, `No conversation_initiation_client_data within ${initiationTimeoutMs} ms`, 'initiation timeout');
      }
    }, initiationTimeoutMs);

    ws.on('message', (data, isBinary) => {
      if (session.ended) return;
      if (isBinary) {
        log(`[service] ${session.label}: ignored a binary frame`);
        return;
      }
      const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(/** @type {any} */ (data));
      if (buffer.length > MAX_MESSAGE_BYTES) {
        log(`[service] ${session.label}: ignored a message of ${buffer.length} bytes (limit ${MAX_MESSAGE_BYTES})`);
        return;
      }
      let message;
      try {
        message = JSON.parse(buffer.toString('utf8'));
      } catch {
        log(`[service] ${session.label}: ignored a message that is not JSON`);
        return;
      }
      if (!isPlainObject(message)) {
        log(`[service] ${session.label}: ignored a message that is not a JSON object`);
        return;
      }
      if (session.record) {
        handleMessage(session, message);
      } else if (message.type === 'conversation_initiation_client_data') {
        initiate(session, message);
      } else {
        fail(session, 1008, 'The first message must be conversation_initiation_client_data', 'expected conversation_initiation_client_data');
      }
    });
  }

  /**
   * Handles a WebSocket upgrade of the conversation path and returns true; returns false (and leaves
   * the socket alone) for every other path.
   * @param {http.IncomingMessage} req @param {import('node:stream').Duplex} socket @param {Buffer} head
   */
  function handleUpgrade(req, socket, head) {
    const pathname = pathOf(req);
    if (pathname === undefined || pathname.replace(/\/+$/, '') !== CONVERSATION_PATH) return false;
    if (closed) {
      socket.destroy();
      return true;
    }
    const url = new URL(req.url ?? '/', 'http://service.invalid');
    const fault = faults.takeSocket(url.searchParams.get('agent_id') ?? '');
    if (fault?.refuse) {
      const body = JSON.stringify({ detail: { status: 'injected_fault', message: 'Injected fault: the upgrade is refused' } });
      socket.on('error', () => {}); // the client may reset first; nothing to report
      socket.end(`HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      return true;
    }
    wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, url, fault));
    return true;
  }

  /** Closes every open conversation socket (1001) and clears every timer. */
  async function close() {
    closed = true;
    faults.close(); // cleared; held widget reads end unanswered
    const open = [...sessions];
    /** @type {Promise<void>[]} */
    const waits = [];
    for (const session of open) {
      const { ws } = session;
      if (session.record) session.endedBy ??= 'service_shutdown';
      waits.push(new Promise((resolve) => {
        if (ws.readyState === WebSocket.CLOSED) resolve();
        else ws.once('close', () => resolve());
      }));
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(1001, 'service shutting down');
      // Stop every timer now, even before the close handshake ends.
      for (const timer of session.timers) clearTimeout(timer);
      session.timers.clear();
    }
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let fallback;
    await Promise.race([
      Promise.all(waits),
      new Promise((resolve) => { fallback = setTimeout(resolve, 1000); }),
    ]);
    clearTimeout(fallback);
    for (const session of open) {
      if (session.ws.readyState !== WebSocket.CLOSED) session.ws.terminate();
      finishSession(session, 1001);
    }
    await new Promise((resolve) => wss.close(() => resolve(undefined)));
  }

  return { apiKey, handleRequest, handleUpgrade, agents, conversations, faults, close };
}

/** @param {http.IncomingMessage} req @returns {string | undefined} */
function pathOf(req) {
  try {
    return new URL(req.url ?? '/', 'http://service.invalid').pathname;
  } catch {
    return undefined;
  }
}

/**
 * Starts the service on its own node:http server.
 * `fallback(req, res)` answers the requests that are not the service's (a demo page, a script); without it they get 404.
 * @param {ServiceOptions & {port?: number, host?: string, fallback?: (req: http.IncomingMessage, res: http.ServerResponse) => void}} [options]
 * @returns {Promise<{url: string, port: number, apiKey: string, service: Service, server: http.Server, close: () => Promise<void>}>}
 */
export async function startService({ port = 0, host = '127.0.0.1', fallback, ...options } = {}) {
  const service = createService(options);
  const server = http.createServer((req, res) => {
    if (service.handleRequest(req, res)) return;
    if (fallback) return fallback(req, res);
    const body = JSON.stringify({ detail: 'Not found' });
    res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)) });
    res.end(body);
  });
  server.on('upgrade', (req, socket, head) => {
    if (service.handleUpgrade(req, socket, head)) return;
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  try {
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve(undefined);
      });
    });
  } catch (error) {
    await service.close();
    throw error;
  }
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  const shownHost = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
  let closing;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    apiKey: service.apiKey,
    service,
    server,
    close() {
      closing ??= (async () => {
        await service.close();
        await new Promise((resolve) => {
          server.close(() => resolve(undefined));
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}

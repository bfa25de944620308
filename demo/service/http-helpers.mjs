// HTTP helpers shared by the route families: CORS headers, JSON answers, the API key check, body reading,
// the not-found answers and the route table's types.

import { createHash, timingSafeEqual } from 'node:crypto';
import { cloneJson } from './records.mjs';

/** Largest request body accepted (bytes); a larger one gets 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * @typedef {import('./records.mjs').Json} Json
 * @typedef {import('node:http').IncomingMessage} IncomingMessage
 * @typedef {import('node:http').ServerResponse} ServerResponse
 *
 * @typedef {(req: IncomingMessage, res: ServerResponse, params: string[]) => Promise<void> | void} Handler
 * @typedef {{pattern: RegExp, methods: Record<string, Handler>}} Route  a path pattern (its groups are the params) and its methods
 */

/** @param {string} key @returns {Buffer} */
const digest = (key) => createHash('sha256').update(key).digest();

/** @param {IncomingMessage} req */
export const corsHeaders = (req) => ({
  'Access-Control-Allow-Origin': typeof req.headers.origin === 'string' && req.headers.origin ? req.headers.origin : '*',
  'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'content-type, x-api-key',
  'Access-Control-Max-Age': '600',
  Vary: 'Origin',
});

/**
 * @param {IncomingMessage} req @param {ServerResponse} res
 * @param {number} status @param {unknown} body @param {Record<string, string>} [extra]
 */
export function sendJson(req, res, status, body, extra = {}) {
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
 * The API key check of a service whose key is `apiKey`.
 * @param {string} apiKey
 */
export function createAuthorised(apiKey) {
  const apiKeyDigest = digest(apiKey);
  /**
   * Checks the x-api-key header; answers 401 and returns false when it is missing or wrong.
   * @param {IncomingMessage} req @param {ServerResponse} res
   */
  return function authorised(req, res) {
    const key = req.headers['x-api-key'];
    if (typeof key === 'string' && key !== '' && timingSafeEqual(digest(key), apiKeyDigest)) return true;
    const message = typeof key === 'string' && key !== '' ? 'The API key (header x-api-key) is not valid' : 'An API key is required (header x-api-key)';
    sendJson(req, res, 401, { detail: { status: 'invalid_api_key', message } });
    return false;
  };
}

/**
 * Reads and parses a JSON body. On failure it answers (413 or 422) and returns undefined.
 * @param {IncomingMessage} req @param {ServerResponse} res
 * @param {number} [limit] largest body accepted, bytes
 * @returns {Promise<{value: unknown} | undefined>}
 */
export async function readJsonBody(req, res, limit = MAX_BODY_BYTES) {
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
 * @param {IncomingMessage} req @param {ServerResponse} res
 * @param {(body: unknown) => import('./validate.mjs').ValidationError[]} validate
 * @returns {Promise<Json | undefined>}
 */
export async function readValidBody(req, res, validate) {
  const body = await readJsonBody(req, res);
  if (!body) return undefined;
  const errors = validate(body.value);
  if (errors.length > 0) {
    sendJson(req, res, 422, { detail: errors });
    return undefined;
  }
  return cloneJson(body.value);
}

/** @param {IncomingMessage} req @param {ServerResponse} res @param {string} agentId */
export const agentNotFound = (req, res, agentId) =>
  sendJson(req, res, 404, { detail: { status: 'agent_not_found', message: `Agent '${agentId}' was not found` } });
/** @param {IncomingMessage} req @param {ServerResponse} res @param {string} conversationId */
export const conversationNotFound = (req, res, conversationId) =>
  sendJson(req, res, 404, {
    detail: { status: 'conversation_not_found', message: `Conversation '${conversationId}' was not found` },
  });

/** @param {IncomingMessage} req @returns {string | undefined} */
export function pathOf(req) {
  try {
    return new URL(req.url ?? '/', 'http://service.invalid').pathname;
  } catch {
    return undefined;
  }
}

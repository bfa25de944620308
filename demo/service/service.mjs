// The reference Voice Agent Service: the REST endpoints the widget and the demo use
// (SERVICE-INTERFACE.md 4.2, 4.5, 5, 7) and the conversation WebSocket with a scripted agent
// (PROTOCOL.md 3 and 4) that speaks its replies (speech.mjs: eSpeak NG) and listens for speech (vad.mjs).
// Plain Node ESM, no build step; the dependencies are `ws` and, for speech only, `espeak-ng`.
// Run it with `node demo/service/main.mjs`; embed it with createService() / startService().
// This module puts the service together (README.md, "Layout"): the context (context.mjs), the route families
// (routes/), the conversation socket (socket/) and the request dispatch.

import http from 'node:http';
import { createContext } from './context.mjs';
import { corsHeaders, pathOf, sendJson } from './http-helpers.mjs';
import { agentRoutes } from './routes/agents.mjs';
import { conversationRoutes } from './routes/conversations.mjs';
import { devRoutes } from './routes/dev.mjs';
import { widgetRoutes } from './routes/widget.mjs';
import { createConversationSocket } from './socket/conversation-socket.mjs';

export { MAX_BODY_BYTES } from './http-helpers.mjs';
export { DEV_MAX_BODY_BYTES } from './routes/dev.mjs';
export { CONVERSATION_PATH, HARD_MAX_PAYLOAD_BYTES, MAX_MESSAGE_BYTES } from './socket/conversation-socket.mjs';
export { AUDIO_CHUNK_MS } from './socket/speaking.mjs';
export { cloneJson, deepMerge } from './records.mjs';
export { widgetConfigOf } from './routes/widget.mjs';

/**
 * @typedef {import('./records.mjs').Json} Json
 * @typedef {import('./records.mjs').AgentRecord} AgentRecord
 * @typedef {import('./records.mjs').TranscriptEntry} TranscriptEntry
 * @typedef {import('./records.mjs').ConversationRecord} ConversationRecord
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
 * @property {ReturnType<typeof import('./faults.mjs').createFaults>} faults  the fault switches (faults.mjs; `PUT /v1/dev/faults`)
 * @property {() => Promise<void>} close
 */

/**
 * Creates the service (no listening socket of its own): a request handler and an upgrade handler
 * that a Node http server, or a demo server that also serves static files, calls.
 * @param {ServiceOptions} [options]
 * @returns {Service}
 */
export function createService(options = {}) {
  const ctx = createContext(options);
  const { apiKey, agents, conversations, faults, log } = ctx;
  const socket = createConversationSocket(ctx);

  /** @type {import('./http-helpers.mjs').Route[]} */
  const routes = [
    ...agentRoutes(ctx),
    ...widgetRoutes(ctx),
    ...devRoutes(ctx),
    ...conversationRoutes(ctx),
    ...socket.routes,
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

  /** Closes every open conversation socket (1001) and clears every timer. */
  async function close() {
    faults.close(); // cleared; held widget reads end unanswered
    await socket.close();
  }

  return { apiKey, handleRequest, handleUpgrade: socket.handleUpgrade, agents, conversations, faults, close };
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

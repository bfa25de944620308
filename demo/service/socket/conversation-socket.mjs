// The conversation WebSocket (PROTOCOL.md 3 and 4): the upgrade (with its injected faults), the socket's life
// from open to close, its first message, and the closing of every socket when the service closes. The parts of
// a conversation are the sibling modules: initiate.mjs, messages.mjs, reply.mjs, speaking.mjs, listening.mjs.

import { WebSocket, WebSocketServer } from 'ws';
import { pathOf, sendJson } from '../http-helpers.mjs';
import { isPlainObject } from '../validate.mjs';
import { createInitiation } from './initiate.mjs';
import { createListening } from './listening.mjs';
import { createMessageHandler } from './messages.mjs';
import { createReplies } from './reply.mjs';
import { later, newSession, secondsInCall, send } from './session.mjs';
import { createSpeaking } from './speaking.mjs';

/** @typedef {import('./session.mjs').Session} Session */

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

/**
 * The conversation socket of a service: `routes` answers its path over plain HTTP (426), `handleUpgrade` takes
 * its upgrades, `close` closes every open conversation socket.
 * @param {import('../context.mjs').ServiceContext} ctx
 */
export function createConversationSocket(ctx) {
  const { agents, sessions, faults, initiationTimeoutMs, log } = ctx;
  const { speak } = createSpeaking(ctx);
  const { queueReply } = createReplies(ctx, speak);
  const { listen } = createListening(ctx, queueReply);
  const { initiate } = createInitiation(ctx, speak);
  const { handleMessage } = createMessageHandler(ctx, { queueReply, listen });
  let closed = false;

  const wss = new WebSocketServer({ noServer: true, maxPayload: HARD_MAX_PAYLOAD_BYTES, perMessageDeflate: false });

  /** @type {import('../http-helpers.mjs').Route[]} */
  const routes = [
    {
      pattern: /^\/v1\/voiceai\/conversation$/,
      methods: {
        GET(req, res) {
          sendJson(req, res, 426, { detail: 'Upgrade Required: open this path as a WebSocket' }, { Upgrade: 'websocket' });
        },
      },
    },
  ];

  /** @param {Session} session @param {number} code @param {string} message @param {string} reason */
  function fail(session, code, message, reason) {
    send(session, { type: 'error', error_event: { code, message } });
    log(`[service] ${session.label}: ${message}; closing with ${code}`);
    if (session.ws.readyState === WebSocket.OPEN) session.ws.close(code, reason);
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

  /** @param {WebSocket} ws @param {URL} url @param {import('../faults.mjs').SocketFault | null} fault */
  function onConnection(ws, url, fault) {
    const agentId = url.searchParams.get('agent_id') ?? '';
    const session = newSession(ws, agentId, agents.get(agentId), fault);
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
   * @param {import('node:http').IncomingMessage} req @param {import('node:stream').Duplex} socket @param {Buffer} head
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

  /** Closes every open conversation socket (1001) and clears every timer; later upgrades are refused. */
  async function close() {
    closed = true;
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

  return { routes, handleUpgrade, close };
}

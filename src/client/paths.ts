import { preview } from '../config/validate.js';

/**
 * Every path the widget uses on the Voice Agent Service, in one module so a deployment can change them in
 * one place (PROTOCOL.md, introduction and section 1).
 */

/** `GET` the public widget configuration (SERVICE-INTERFACE.md 4.2, PROTOCOL.md section 2). */
export const widgetConfigPath = (agentId: string): string => `/v1/convai/agents/${encodeURIComponent(agentId)}/widget`;
/** The conversation socket (PROTOCOL.md section 3). */
export const conversationSocketPath = '/v1/voiceai/conversation';
/** `POST` end-of-call feedback (PROTOCOL.md section 4). */
export const feedbackPath = (conversationId: string): string => `/v1/voiceai/conversations/${encodeURIComponent(conversationId)}/feedback`;

/**
 * Parses a `server-url` value: an absolute http(s) URL, returned without a trailing slash, its path kept
 * (`http://127.0.0.1:8787/prefix`). Throws a `TypeError` naming the problem otherwise.
 */
export function normalizeServerUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`server-url ${preview(value)} is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`server-url must be http(s), not ${url.protocol}`);
  if (url.username || url.password) throw new TypeError('server-url must not hold a username or password');
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '');
}

/** `http:` → `ws:`, `https:` → `wss:` on the same base (PROTOCOL.md section 1). */
export function socketBase(serverUrl: string): string {
  return serverUrl.replace(/^http/, 'ws');
}

/** The socket URL for a public agent: `{ws_base}/v1/voiceai/conversation?agent_id=...` (PROTOCOL.md section 3). */
export function conversationSocketUrl(serverUrl: string, agentId: string): string {
  return `${socketBase(serverUrl)}${conversationSocketPath}?agent_id=${encodeURIComponent(agentId)}`;
}

import { preview } from '../internal/console.js';
import { parseUrl } from '../internal/url.js';

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
  const url = parseUrl(value);
  if (!url) throw new TypeError(`server-url ${preview(value)} is not an absolute URL`);
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

/** A `signed-url` read by `parseSignedUrl` (PROTOCOL.md section 3). */
export interface SignedUrl {
  /** The whole ws(s) URL, normalised; the conversation socket opens on it as it is. */
  url: string;
  /** Its `agent_id` query parameter, '' when it has none. */
  agentId: string;
  /** Its `conversation_signature` query parameter, never ''. */
  signature: string;
}

/**
 * Reads `signed-url` (PROTOCOL.md section 3): a ws(s) URL whose query holds `agent_id` and `conversation_signature`.
 * @throws Error naming the problem when it is not one (not a URL, not ws(s), no signature, credentials in it)
 */
export function parseSignedUrl(value: string): SignedUrl {
  const url = parseUrl(value);
  if (!url) throw new Error(`signed-url ${preview(value)} is not a URL`);
  const agentId = url.searchParams.get('agent_id') ?? '';
  const signature = url.searchParams.get('conversation_signature') ?? '';
  if (!/^wss?:$/.test(url.protocol) || !signature || url.username || url.password) {
    throw new Error('signed-url must be a ws(s) URL with a conversation_signature');
  }
  return { url: url.href, agentId, signature };
}

/** Agent ids are opaque, but never empty and never longer than this (characters). */
export const MAX_AGENT_ID_LENGTH = 256;

/** Where one element talks to (PROTOCOL.md sections 1 and 3): the service's base URL, the agent and its socket. */
export interface ServiceEndpoint {
  /** Base URL of the service, normalised (`normalizeServerUrl`), for the REST calls. */
  serverUrl: string;
  agentId: string;
  /** The conversation socket: the signed URL as given, else `conversationSocketUrl(serverUrl, agentId)`. */
  socketUrl: string;
  /** The signed URL's `conversation_signature`, sent with the configuration read; '' for a public agent. */
  signature: string;
}

/**
 * Derives the endpoint from the element's attributes (all untrusted): `server-url` when set, else the signed URL's
 * origin (ws → http), else `defaultOrigin` (the defining script's origin); the agent from `agent-id`, else the signed
 * URL's `agent_id`.
 * @throws Error naming the attribute at fault: a bad `signed-url` or `server-url`, a missing or too long agent id
 */
export function serviceEndpoint(attributes: { serverUrl: string; agentId: string; signedUrl: string | null }, defaultOrigin: string): ServiceEndpoint {
  const signed = attributes.signedUrl ? parseSignedUrl(attributes.signedUrl) : null;
  const agentId = attributes.agentId.trim() || signed?.agentId || '';
  if (!agentId || agentId.length > MAX_AGENT_ID_LENGTH) {
    throw new Error(agentId ? `agent-id is longer than ${MAX_AGENT_ID_LENGTH} characters` : 'the agent-id attribute is missing');
  }
  const signedOrigin = signed ? parseUrl(signed.url.replace(/^ws/, 'http'))!.origin : '';
  const serverUrl = normalizeServerUrl(attributes.serverUrl.trim() || signedOrigin || defaultOrigin);
  return { serverUrl, agentId, socketUrl: signed?.url ?? conversationSocketUrl(serverUrl, attributes.agentId.trim()), signature: signed?.signature ?? '' };
}

/**
 * The defining script's URL (http or https): its origin is the default service base URL (PROTOCOL.md section 1), and
 * the files the build writes beside it (the audio worklets) are found from it. The script-tag entry and the module
 * entry each record their own URL through `recordScriptUrl`.
 */
let scriptUrl: URL | null = null;

/** Records the defining script's URL (`document.currentScript.src` or `import.meta.url`); ignores what is not http(s). */
export function recordScriptUrl(url: string | null | undefined): void {
  const parsed = url ? parseUrl(url, location.href) : null;
  if (parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:')) scriptUrl = parsed;
}

/** The defining script's origin, else the page's origin. */
export function defaultServerUrl(): string {
  return scriptUrl?.origin ?? location.origin;
}

/** The URL of `file` in the defining script's folder (`voice-agent-capture-worklet.js`), or undefined when no script URL was recorded. */
export function besideScript(file: string): string | undefined {
  return scriptUrl ? new URL(file, scriptUrl).href : undefined;
}

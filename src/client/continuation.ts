/**
 * A conversation's continuation between the pages of one visit (issue 21): what the widget keeps of a conversation in
 * the tab's `sessionStorage` so that the next page of the site (or a reload, or a framework mounting the element
 * again) shows it as it was, and what it tells the agent when the conversation goes on: a `contextual_update`
 * (PROTOCOL.md section 3) with the earlier turns and the page the visitor is on. The protocol has no resume message;
 * the continuation is a new conversation told what came before.
 *
 * What is kept, once the visitor has started a conversation (never before): the complete agent and visitor messages
 * (text, never audio), the conversation id, the panel's open and expanded state, the mode and whether a call was on,
 * and when it was last active. Never in localStorage.
 *
 * Where: `sessionStorage` key `voice-agent-widget:conversation:v1:{serverUrl} {agentId}` (`continuationKey`), one per
 * (server, agent); each tab has its own.
 *
 * Bounds: the last `CONTINUATION_MAX_MESSAGES` messages, at most `CONTINUATION_MAX_CHARS` characters of JSON (oldest
 * messages dropped first); a continuation idle for `CONTINUATION_IDLE_MS` is dropped when read.
 *
 * What is read back is untrusted (any script of the origin, or the visitor, can write it): `readContinuation` checks
 * every field, drops a message that fails with a console line, and drops the whole entry (removing it) when it is not
 * an object of this version, too large, or too old. Agent text goes through the markdown pipeline again when shown.
 *
 * Opt-out: `<html data-voice-agent-no-storage>` (`CONTINUATION_OPT_OUT`): nothing is read, written or removed.
 *
 * Never throws: storage that is missing, disabled, full or throwing makes every function a no-op (or null).
 */
import * as log from '../internal/console.js';
import { isRecord } from '../internal/record.js';
import { CONTINUATION_FAMILY } from './kept-conversation.js';

/** Every key of this version's continuations starts with this. */
export const CONTINUATION_PREFIX = `${CONTINUATION_FAMILY}v1:`;
/** The attribute on the page's `<html>` element that turns continuations off. */
export const CONTINUATION_OPT_OUT = 'data-voice-agent-no-storage';
/** At most this many messages are kept (the last ones). */
export const CONTINUATION_MAX_MESSAGES = 200;
/** A continuation is at most this many characters of JSON (UTF-16 code units: 256 K); the oldest messages go first. */
export const CONTINUATION_MAX_CHARS = 262144;
/** A continuation idle for longer than this (ms: 30 minutes) is dropped. */
export const CONTINUATION_IDLE_MS = 30 * 60 * 1000;
/** The `contextual_update` of a continued conversation is at most this many bytes of UTF-8. */
export const CONTEXT_MAX_BYTES = 4096;

/** One complete message of the earlier conversation. `text`: agent markdown or the visitor's plain text (untrusted). */
export interface ContinuedMessage {
  role: 'agent' | 'user';
  text: string;
}

/** What a continuation holds (see the module). */
export interface Continuation {
  /** The earlier conversation's id (PROTOCOL.md section 3 `conversation_id`), or null when it had none yet. */
  conversationId: string | null;
  /** The panel was open, and expanded to the viewport. */
  open: boolean;
  expanded: boolean;
  /** The earlier conversation's mode; `call`: a voice call was on when the page changed (it cannot outlive a load). */
  mode: 'text' | 'voice';
  call: boolean;
  /** When the conversation was last active, ms since the epoch (`Date.now()`). */
  updatedAt: number;
  /** Its complete messages, oldest first. */
  messages: ContinuedMessage[];
}

/** The tab's sessionStorage, or null where the page opted out or the browser gives none (reading it may throw). */
export function continuationStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null {
  try {
    return document.documentElement.hasAttribute(CONTINUATION_OPT_OUT) ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** The key of the continuation of (`serverUrl`, `agentId`). */
export function continuationKey(serverUrl: string, agentId: string): string {
  return `${CONTINUATION_PREFIX}${serverUrl} ${agentId}`;
}

/** A conversation id as the service makes them: 1 to 128 letters, digits, `_` or `-`. */
const CONVERSATION_ID = /^[\w-]{1,128}$/;

/**
 * Reads the continuation under `key`, checked field by field (see the module).
 * @returns the continuation, or null when there is none, the page opted out, or it was dropped (then removed; told in
 * the console when it was not what the widget writes)
 */
export function readContinuation(key: string, now = Date.now()): Continuation | null {
  const storage = continuationStorage();
  let raw: string | null = null;
  try {
    raw = storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
  if (raw === null) return null;
  const drop = (why: string | null): null => {
    if (why) log.warn(`the stored conversation of this agent was dropped: ${why}`);
    clearContinuation(key);
    return null;
  };
  // Twice the bound: a UTF-16 character may take two of JSON's (an escape), and nothing the widget wrote is longer.
  if (raw.length > CONTINUATION_MAX_CHARS * 2) return drop(`it is ${raw.length} characters long`);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return drop('it is not JSON');
  }
  if (!isRecord(value) || value['v'] !== 1 || !Array.isArray(value['messages'])) return drop('it is not a conversation the widget kept');
  const updatedAt = value['updatedAt'];
  if (typeof updatedAt !== 'number' || !Number.isFinite(updatedAt)) return drop('it has no time of last activity');
  if (now - updatedAt > CONTINUATION_IDLE_MS) return drop(null);
  const messages: ContinuedMessage[] = [];
  let dropped = 0;
  for (const message of value['messages'].slice(-CONTINUATION_MAX_MESSAGES) as unknown[]) {
    if (isRecord(message) && (message['role'] === 'agent' || message['role'] === 'user') && typeof message['text'] === 'string') {
      messages.push({ role: message['role'], text: message['text'] });
    } else dropped++;
  }
  if (dropped) log.warn(`${dropped} stored message(s) of this agent's conversation were dropped: not a message the widget kept`);
  const id = value['conversationId'];
  return {
    conversationId: typeof id === 'string' && CONVERSATION_ID.test(id) ? id : null,
    open: value['open'] === true,
    expanded: value['expanded'] === true,
    mode: value['mode'] === 'voice' ? 'voice' : 'text',
    call: value['call'] === true,
    updatedAt,
    messages,
  };
}

/**
 * Keeps `continuation` under `key`: its last `CONTINUATION_MAX_MESSAGES` messages, then the oldest dropped until its
 * JSON is at most `CONTINUATION_MAX_CHARS` characters. A full storage keeps nothing (the entry is removed).
 */
export function writeContinuation(key: string, continuation: Continuation): void {
  const storage = continuationStorage();
  if (!storage) return;
  let messages = continuation.messages.slice(-CONTINUATION_MAX_MESSAGES);
  let json = '';
  for (;;) {
    json = JSON.stringify({ v: 1, ...continuation, messages });
    if (json.length <= CONTINUATION_MAX_CHARS || !messages.length) break;
    // Drops about as many of the oldest as the excess asks for (at least one), not one per stringify.
    messages = messages.slice(Math.max(1, Math.floor((messages.length * (json.length - CONTINUATION_MAX_CHARS)) / json.length)));
  }
  try {
    storage.setItem(key, json);
  } catch {
    clearContinuation(key);
  }
}

/** Removes the continuation under `key` (the conversation ended, or it was dropped). */
export function clearContinuation(key: string): void {
  try {
    continuationStorage()?.removeItem(key);
  } catch {
    // nothing kept, nothing to remove
  }
}

/** UTF-8 length of `text`, in bytes. */
const bytes = (text: string): number => new TextEncoder().encode(text).length;

/**
 * The `contextual_update` text of a conversation that continues an earlier one (PROTOCOL.md section 3): what it is, the
 * page the visitor is on now (its title and path, never the query string or fragment), and the earlier turns that fit
 * in `CONTEXT_MAX_BYTES` with it, labelled `user:` / `agent:`, oldest dropped first (a newest turn longer than that is
 * cut, its start kept).
 *
 * Shapes: `messages` oldest first; `page` the document's title and `location.pathname`. Errors: never throws.
 */
export function continuationContext(messages: readonly ContinuedMessage[], conversationId: string | null, page: { title: string; path: string }): string {
  const head =
    `The visitor is continuing an earlier conversation of this visit${conversationId ? ` (${conversationId})` : ''}, ` +
    `now on the page "${page.title.slice(0, 200)}" (${page.path.slice(0, 300)}). The earlier turns, oldest first:`;
  let room = CONTEXT_MAX_BYTES - bytes(head);
  const turns: string[] = [];
  for (let i = messages.length - 1; i >= 0 && room > 0; i--) {
    let turn = `\n${messages[i]!.role}: ${messages[i]!.text}`;
    let size = bytes(turn);
    if (size > room) {
      if (turns.length) break;
      // The newest turn alone is too long: its start, as much as fits before the '…' (3 bytes). `encodeInto` stops
      // before a code point that does not fit, so none is split; `read` is how many UTF-16 units went in.
      const { read } = new TextEncoder().encodeInto(turn, new Uint8Array(Math.max(0, room - 3)));
      turn = `${turn.slice(0, read)}…`;
      size = bytes(turn);
    }
    turns.unshift(turn);
    room -= size;
  }
  return head + turns.join('');
}

/**
 * The configuration cache (PROTOCOL.md section 2): the last good public `widget_config` of each
 * (server, agent), kept in the page's localStorage so a returning visitor's launcher paints from it at once while the
 * read runs in the background (stale-while-revalidate, widget/controllers/widget-config.ts).
 *
 * What is kept: only the `widget_config` object the service returned for a PUBLIC agent (a read without a
 * `conversation_signature`), as the service sent it. Never attributes, dynamic variables, conversation data or signed
 * URLs; the reader never passes a signed read here. What is read back is untrusted input, exactly like a network
 * answer: the caller validates it with `resolveWidgetConfig`; an entry that is not a JSON object is dropped here with a
 * console warning.
 *
 * Where: localStorage keys starting with `voice-agent-widget:config:` (`CONFIG_CACHE_FAMILY`): one entry per
 * (server, agent) under `voice-agent-widget:config:v1:{serverUrl} {agentId}` (`serverUrl` normalised, without spaces, so
 * the first space ends it), and the recency list `voice-agent-widget:config:v1` (a JSON array of entry keys, most
 * recently used first). A key of the family that the list does not name (an older version, a lost list) is removed
 * the next time an entry is stored.
 *
 * Bounds: at most `CONFIG_CACHE_MAX_ENTRIES` entries (the least recently used, read or stored, is evicted), each at most
 * `CONFIG_CACHE_MAX_CHARS` characters of JSON (a larger configuration is not kept).
 *
 * Never throws: localStorage that is missing, disabled or throwing on access (Safari private mode, a sandboxed
 * iframe, cookies blocked) or full (`QuotaExceededError`) makes every function a no-op; the widget then reads the
 * configuration from the service each time, as without a cache.
 *
 * Opt-out: a page with the attribute `data-voice-agent-no-config-cache` on its `<html>` element
 * (`CONFIG_CACHE_OPT_OUT`) has no cache: nothing is read from, written to or removed from localStorage while the
 * attribute is there. `clearWidgetConfigCache()` removes every entry (a page using the script tag alone removes the
 * keys of the family itself).
 */
import * as log from '../internal/console.js';
import { isRecord } from '../internal/record.js';

/** Every key of the cache, of every version, starts with this. */
export const CONFIG_CACHE_FAMILY = 'voice-agent-widget:config:';
/** The recency list of this version's entries (a JSON array of entry keys, most recently used first). */
export const CONFIG_CACHE_INDEX_KEY = `${CONFIG_CACHE_FAMILY}v1`;
/** The entries of this version: this prefix, then `{serverUrl} {agentId}`. */
export const CONFIG_CACHE_PREFIX = `${CONFIG_CACHE_INDEX_KEY}:`;
/** At most this many (server, agent) entries are kept. */
export const CONFIG_CACHE_MAX_ENTRIES = 8;
/** An entry is at most this many characters of JSON (UTF-16 code units, about 64 KB); a larger one is not kept. */
export const CONFIG_CACHE_MAX_CHARS = 65536;
/** The attribute on the page's `<html>` element that turns the cache off. */
export const CONFIG_CACHE_OPT_OUT = 'data-voice-agent-no-config-cache';

/** The part of the Web Storage API the cache uses; injectable for tests (localStorage by default). */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

/** A cached configuration: the stored `widget_config` (untrusted) and its JSON text, to compare answers with. */
export interface CachedWidgetConfig {
  config: Record<string, unknown>;
  json: string;
}

/**
 * The page's localStorage, or null when the page opted out (`CONFIG_CACHE_OPT_OUT`) or the browser gives none
 * (reading `localStorage` throws a `SecurityError` where storage is disabled).
 */
function pageStorage(): StorageLike | null {
  if (typeof document !== 'undefined' && document.documentElement?.hasAttribute(CONFIG_CACHE_OPT_OUT)) return null;
  return browserStorage();
}

/** The browser's localStorage, or null when it gives none (reading `localStorage` throws where storage is disabled). */
function browserStorage(): StorageLike | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The entry key of (serverUrl, agentId). */
const entryKey = (serverUrl: string, agentId: string): string => `${CONFIG_CACHE_PREFIX}${serverUrl} ${agentId}`;

/** The recency list, most recently used first; [] when missing or unreadable. */
function readIndex(storage: StorageLike): string[] {
  try {
    const list: unknown = JSON.parse(storage.getItem(CONFIG_CACHE_INDEX_KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((key): key is string => typeof key === 'string' && key.startsWith(CONFIG_CACHE_PREFIX)) : [];
  } catch {
    return [];
  }
}

/** Writes the recency list with `first` in front (when given) and without `dropped`; evicts past the bound. */
function writeIndex(storage: StorageLike, index: string[], first: string | null, dropped: string | null = null): string[] {
  const next = [...new Set([...(first ? [first] : []), ...index])].filter((key) => key !== dropped);
  for (const evicted of next.splice(CONFIG_CACHE_MAX_ENTRIES)) storage.removeItem(evicted);
  if (next.length === index.length && next.every((key, i) => key === index[i])) return next;
  if (next.length) storage.setItem(CONFIG_CACHE_INDEX_KEY, JSON.stringify(next));
  else storage.removeItem(CONFIG_CACHE_INDEX_KEY);
  return next;
}

/**
 * The cached configuration of `agentId` on `serverUrl` (normalised, as `serviceEndpoint` gives it), or null. Marks it
 * the most recently used. A corrupt entry (not JSON, not an object, too long) is removed and a warning says so.
 * @param storage defaults to the page's localStorage (none when the page opted out)
 */
export function readCachedWidgetConfig(serverUrl: string, agentId: string, storage: StorageLike | null = pageStorage()): CachedWidgetConfig | null {
  if (!storage) return null;
  const key = entryKey(serverUrl, agentId);
  try {
    const index = readIndex(storage);
    const json = storage.getItem(key);
    if (json === null) {
      if (index.includes(key)) writeIndex(storage, index, null, key);
      return null;
    }
    let config: unknown = null;
    try {
      config = json.length <= CONFIG_CACHE_MAX_CHARS ? JSON.parse(json) : null;
    } catch {
      // corrupt: dropped below
    }
    if (!isRecord(config)) {
      storage.removeItem(key);
      writeIndex(storage, index, null, key);
      log.warn(`the cached configuration of agent "${agentId}" from ${serverUrl} was unreadable and is dropped; reading it from the service.`);
      return null;
    }
    writeIndex(storage, index, key);
    return { config, json };
  } catch {
    return null;
  }
}

/**
 * Keeps `widgetConfig` (the public `widget_config` the service answered, as JSON text) as the configuration of
 * `agentId` on `serverUrl`, the most recently used; evicts the least recently used past `CONFIG_CACHE_MAX_ENTRIES`
 * and removes stray keys of the family. A text longer than `CONFIG_CACHE_MAX_CHARS` is not kept (an older entry of the
 * same agent is removed). Never call it for a read made with a conversation signature (a private agent).
 * @returns whether it was stored (false: too long, no storage, storage full or throwing)
 */
export function storeWidgetConfig(serverUrl: string, agentId: string, widgetConfig: string, storage: StorageLike | null = pageStorage()): boolean {
  if (!storage) return false;
  const key = entryKey(serverUrl, agentId);
  try {
    if (widgetConfig.length > CONFIG_CACHE_MAX_CHARS) {
      removeCachedWidgetConfig(serverUrl, agentId, storage);
      log.info(`the configuration of agent "${agentId}" is over ${CONFIG_CACHE_MAX_CHARS} characters: not cached.`);
      return false;
    }
    const index = writeIndex(storage, readIndex(storage), key);
    storage.setItem(key, widgetConfig);
    for (const stray of familyKeys(storage)) if (stray !== CONFIG_CACHE_INDEX_KEY && !index.includes(stray)) storage.removeItem(stray);
    return true;
  } catch {
    // Full (QuotaExceededError) or throwing: no cache this time; what was half written is removed.
    try {
      storage.removeItem(key);
    } catch {
      // nothing more to do
    }
    return false;
  }
}

/** Removes the cached configuration of `agentId` on `serverUrl`, if any. */
export function removeCachedWidgetConfig(serverUrl: string, agentId: string, storage: StorageLike | null = pageStorage()): void {
  if (!storage) return;
  const key = entryKey(serverUrl, agentId);
  try {
    storage.removeItem(key);
    writeIndex(storage, readIndex(storage), null, key);
  } catch {
    // no storage: nothing to remove
  }
}

/**
 * Removes every key of the cache (`CONFIG_CACHE_FAMILY`, every version), e.g. when a visitor withdraws consent; also
 * while the page opts out (`CONFIG_CACHE_OPT_OUT`): this is an explicit request.
 */
export function clearWidgetConfigCache(storage: StorageLike | null = browserStorage()): void {
  if (!storage) return;
  try {
    for (const key of familyKeys(storage)) storage.removeItem(key);
  } catch {
    // no storage: nothing to remove
  }
}

/** Every key of the family in `storage` (collected first: removing while iterating would skip keys). */
function familyKeys(storage: StorageLike): string[] {
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i += 1) {
    const key = storage.key(i);
    if (key?.startsWith(CONFIG_CACHE_FAMILY)) keys.push(key);
  }
  return keys;
}

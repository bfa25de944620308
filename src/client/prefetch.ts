/**
 * The configuration read, started early (PROTOCOL.md section 2): as soon as the script runs, before
 * the element upgrades, the read of each `<voice-agent-widget>` already in the document starts; the element's read
 * (widget/controllers/widget-config.ts) takes the request under way over instead of making its own.
 *
 * Each prefetch is kept in a module-level map by endpoint (server URL, agent id, signature) until an element takes it,
 * once. A prefetch nobody takes is harmless: its request ends (answer or the client's 10 s timeout) and it is dropped
 * the next time the map is used after `PREFETCH_MAX_AGE_MS`. A taken prefetch follows the taker's abort.
 */
import type { WidgetConfigResponse } from '../config/types.js';
import { normalizeServerUrl, serviceEndpoint, type ServiceEndpoint } from './paths.js';
import { fetchWidgetConfig, type FetchLike } from './rest.js';

/** How long an answered prefetch may wait to be taken, in ms; after that an element reads afresh. */
export const PREFETCH_MAX_AGE_MS = 10000;

/** One read started early: its answer, its abort, and when it settled (`performance.now()` ms; null while in flight). */
interface Prefetch {
  answer: Promise<WidgetConfigResponse>;
  abort: AbortController;
  settledAt: number | null;
}

const prefetches = new Map<string, Prefetch>();

const keyOf = (serverUrl: string, agentId: string, signature: string): string => JSON.stringify([serverUrl, agentId, signature]);

/** Drops the prefetches answered more than `PREFETCH_MAX_AGE_MS` ago. */
function dropStale(): void {
  const now = performance.now();
  for (const [key, prefetch] of prefetches) if (prefetch.settledAt !== null && now - prefetch.settledAt > PREFETCH_MAX_AGE_MS) prefetches.delete(key);
}

/**
 * Starts reading the widget configuration of `agentId` on `serverUrl` (`fetchWidgetConfig`, SERVICE-INTERFACE.md 4.2)
 * for an element to take over (`takePrefetchedWidgetConfig`). Does nothing when one for the same endpoint is under way
 * or waiting to be taken. Never rejects unhandled: a failed prefetch is the taker's first failed try (retried as usual).
 * @param serverUrl the service's base URL (normalised here with `normalizeServerUrl`, as the element does)
 * @param signature the `conversation_signature` of a private agent's signed URL, '' (default) for a public agent
 * @param options `fetch` for tests (DESIGN.md rule 11); the browser's by default
 * @throws TypeError when `serverUrl` is not an absolute http(s) URL
 */
export function prefetchWidgetConfig(serverUrl: string, agentId: string, signature = '', options: { fetch?: FetchLike } = {}): void {
  dropStale();
  const base = normalizeServerUrl(serverUrl);
  const key = keyOf(base, agentId, signature);
  if (prefetches.has(key)) return;
  const abort = new AbortController();
  const answer = fetchWidgetConfig(base, agentId, { ...options, signal: abort.signal, ...(signature ? { conversationSignature: signature } : {}) });
  const prefetch: Prefetch = { answer, abort, settledAt: null };
  const settled = (): void => void (prefetch.settledAt = performance.now());
  answer.then(settled, settled);
  prefetches.set(key, prefetch);
}

/**
 * Takes over the prefetch of `endpoint`, once: its answer (or its failure), or null when there is none (never started,
 * already taken, answered more than `PREFETCH_MAX_AGE_MS` ago). From then on `signal` aborts its request.
 */
export function takePrefetchedWidgetConfig(endpoint: Pick<ServiceEndpoint, 'serverUrl' | 'agentId' | 'signature'>, signal: AbortSignal): Promise<WidgetConfigResponse> | null {
  dropStale();
  const key = keyOf(endpoint.serverUrl, endpoint.agentId, endpoint.signature);
  const prefetch = prefetches.get(key);
  if (!prefetch) return null;
  prefetches.delete(key);
  if (signal.aborted) {
    prefetch.abort.abort(signal.reason);
    return null;
  }
  signal.addEventListener('abort', () => prefetch.abort.abort(signal.reason), { once: true });
  return prefetch.answer;
}

/**
 * Prefetches the configuration of every `<voice-agent-widget agent-id>` in `root` (`prefetchWidgetConfig`), with the
 * endpoint the element itself will use (`serviceEndpoint` of its `agent-id`, `server-url` and `signed-url`). An element
 * with unusable attributes is skipped silently: the element reports them itself. Call it before the element is defined
 * (or at least before its first update): an element that has already read never takes the prefetch.
 * @param defaultServerUrl the service when `server-url` is absent: the defining script's origin (`defaultServerUrl()`)
 * @returns how many reads were started or were already under way
 */
export function prefetchDocumentWidgets(root: ParentNode, defaultServerUrl: string): number {
  let count = 0;
  for (const element of root.querySelectorAll('voice-agent-widget[agent-id]')) {
    try {
      const { serverUrl, agentId, signature } = serviceEndpoint(
        { agentId: element.getAttribute('agent-id') ?? '', serverUrl: element.getAttribute('server-url') ?? '', signedUrl: element.getAttribute('signed-url') },
        defaultServerUrl,
      );
      prefetchWidgetConfig(serverUrl, agentId, signature);
      count += 1;
    } catch {
      // Bad attributes: the element says so when it upgrades.
    }
  }
  return count;
}

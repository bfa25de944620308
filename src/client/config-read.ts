/**
 * One agent's widget configuration read, start to end (PROTOCOL.md section 2; SERVICE-INTERFACE.md 4.2): the cached
 * configuration of a public agent first (config/cache.ts), then the request started early (client/prefetch.ts, taken
 * over on the first try) or a request of its own (`fetchWidgetConfig`); a failure time may mend is tried again after a
 * backoff (client/retry.ts), `READ_TRIES` tries in all. It decides what to ask and what to keep; its owner
 * (widget/controllers/widget-config.ts) decides what to show.
 *
 * One run at a time, in the style of `@lit/task` (DESIGN.md rule 5): `start` aborts the run under way; a run holds one
 * AbortController and at most one retry timer (`waiting` while it runs), both released by `abort()`, after which the
 * run reports nothing more. What happens is reported to the owner (`WidgetConfigReport`), which keeps the status: a
 * configuration to show (the cached one at once, then the service's answer), or a final failure; a retry is only a
 * console warning (the owner keeps showing what it shows). Stale-while-revalidate: a final failure while the cached configuration
 * stands in is a console warning and not reported (a final refusal, such as a 404, also removes the stored entry, so the
 * next visit shows what the service says). The answer of a public agent is stored when it differs from the stored one;
 * a read with a conversation signature (a private agent) never reads or writes the cache.
 */
import { readCachedWidgetConfig, removeCachedWidgetConfig, storeWidgetConfig } from '../config/cache.js';
import * as log from '../internal/console.js';
import type { ServiceEndpoint } from './paths.js';
import { takePrefetchedWidgetConfig } from './prefetch.js';
import { fetchWidgetConfig, type FetchLike } from './rest.js';
import { READ_TRIES, isTransient, retryDelay } from './retry.js';

/** What a read tells its owner; never called after `abort()` or a newer `start`. Neither may throw. */
export interface WidgetConfigReport {
  /**
   * A configuration to show: the `widget_config` (untrusted: validate it) and its JSON text, to compare with the one
   * shown. `cached` true: the cached configuration, told at once (within `start`) while the service is asked; false:
   * the service's answer, the end of the run.
   */
  value(widgetConfig: unknown, json: string, cached: boolean): void;
  /**
   * The run failed for good (after its retries) and no cached configuration stands in: the `cause` in words
   * (`could not read the widget configuration of agent "…" from …: …`), the error thrown (`ServiceHttpError`,
   * `ServiceNetworkError`, `ServiceResponseError`), and whether time may mend it (`isTransient`).
   */
  error(cause: string, error: unknown, transient: boolean): void;
}

/** Reads one element's widget configuration, one run at a time (see the module's description). */
export class WidgetConfigRead {
  /** The AbortController of the current run's request (kept, aborted or not, until the next run). */
  #abort: AbortController | undefined;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * @param report who hears what happens (the element's configuration controller)
   * @param network `fetch` for the requests, injectable for unit tests (DESIGN.md rule 11); the browser's by default
   */
  constructor(private readonly report: WidgetConfigReport, private readonly network: { fetch?: FetchLike } = {}) {}

  /** True while a retry waits for its timer (after a failure time may mend). */
  get waiting(): boolean {
    return this.#retryTimer !== undefined;
  }

  /**
   * Starts a run for `endpoint` (as `serviceEndpoint` gives it), aborting the one under way: reports the cached
   * configuration at once when there is one, then asks the service. Never throws; a failure is reported.
   */
  start(endpoint: ServiceEndpoint): void {
    this.abort();
    const cached = endpoint.signature ? null : readCachedWidgetConfig(endpoint.serverUrl, endpoint.agentId);
    if (cached) this.report.value(cached.config, cached.json, true);
    void this.#try(endpoint, cached?.json, 0);
  }

  /** Aborts the run under way, its request or its retry timer; a late answer is dropped. Nothing is reported. */
  abort(): void {
    this.#abort?.abort();
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
  }

  /**
   * Try number `retry` + 1 of a run: the prefetch (first try only) or a request, then the answer reported, a retry
   * scheduled, or the failure reported (or, with `cachedJson`, kept quiet).
   * @param cachedJson the JSON text the cache held at the start of the run (shown meanwhile), undefined when none
   */
  async #try(endpoint: ServiceEndpoint, cachedJson: string | undefined, retry: number): Promise<void> {
    const { serverUrl, agentId, signature } = endpoint;
    const abort = (this.#abort = new AbortController());
    this.#retryTimer = undefined;
    try {
      const { widget_config } = await ((retry ? null : takePrefetchedWidgetConfig(endpoint, abort.signal)) ??
        fetchWidgetConfig(serverUrl, agentId, { ...this.network, signal: abort.signal, ...(signature ? { conversationSignature: signature } : {}) }));
      // Aborted: `abort()` or a newer run took over.
      if (abort.signal.aborted) return;
      const json = JSON.stringify(widget_config);
      if (!signature && json !== cachedJson) storeWidgetConfig(serverUrl, agentId, json);
      this.report.value(widget_config, json, false);
    } catch (error) {
      if (abort.signal.aborted) return;
      const cause = `could not read the widget configuration of agent "${agentId}" from ${serverUrl}: ${(error as Error).message}`;
      const transient = isTransient(error);
      if (transient && retry + 1 < READ_TRIES) {
        // Not reported: while it retries the owner shows what it showed (loading, or the cached configuration).
        const delay = retryDelay(retry);
        log.warn(`${cause}; trying again in ${delay} ms (try ${retry + 2} of ${READ_TRIES}).`);
        this.#retryTimer = setTimeout(() => void this.#try(endpoint, cachedJson, retry + 1), delay);
      } else if (cachedJson) {
        log.warn(`${cause}; keeping the cached configuration.`);
        if (!transient) removeCachedWidgetConfig(serverUrl, agentId);
      } else this.report.error(cause, error, transient);
    }
  }
}

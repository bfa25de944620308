import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { defaultServerUrl, serviceEndpoint, type ServiceEndpoint } from '../../client/paths.js';
import { takePrefetchedWidgetConfig } from '../../client/prefetch.js';
import { fetchWidgetConfig, type FetchLike } from '../../client/rest.js';
import { READ_TRIES, isTransient, retryDelay } from '../../client/retry.js';
import {
  CONFIG_ATTRIBUTES, applyAttributeLayer, attributeFor, attributeLayer, parseDynamicVariables, parseTextContents,
  type AttributeValues, type DynamicVariables,
} from '../../config/attributes.js';
import { readCachedWidgetConfig, removeCachedWidgetConfig, storeWidgetConfig } from '../../config/cache.js';
import { DEFAULT_TEXTS, WIDGET_LABELS } from '../../config/defaults.js';
import { offeredLanguages, preferredLanguage } from '../../config/language.js';
import { resolveTexts, termsFor, type Terms } from '../../config/texts.js';
import type { Labels, WidgetConfig } from '../../config/types.js';
import { normalizeLanguage, resolveWidgetConfig } from '../../config/validate.js';
import { VoiceAgentErrorEvent } from '../../events/error.js';
import * as log from '../../internal/console.js';
import { isRecord } from '../../internal/record.js';
import type { LinkPolicy } from '../../markdown/link-policy.js';

/** What the configuration is read and resolved from: the element's attributes, as strings (untrusted). */
export interface WidgetConfigArgs {
  agentId: string;
  serverUrl: string;
  signedUrl: string | null;
  /** The `dynamicVariables` property: an object, or JSON of one (untrusted either way). */
  dynamicVariables: unknown;
  /** The `textContents` property: an object, or JSON of one (untrusted either way). */
  textContents: unknown;
  /** The override and conversation attributes (`variant`, …, `override-*`, `user-id`), null when absent. */
  attributes: AttributeValues;
}

/** The resolved configuration of one element (PROTOCOL.md section 2): what every part renders from. */
export interface WidgetConfigValue {
  /** The service's `widget_config`, validated, with the attributes laid over it (attributes win). */
  config: WidgetConfig;
  /** Every label in the conversation language (text precedence of PROTOCOL.md section 2). */
  texts: Labels;
  /** The link policy of agent markdown and `terms_html` (`markdown_link_*`). */
  linkPolicy: LinkPolicy;
  /** The terms to accept before the first conversation, in the conversation language, or null. */
  terms: Terms | null;
  /** The conversation language: the `language` attribute, else the visitor's choice, else the browser's when offered, else the agent's. */
  language: string;
  /** The agent's own language as the service sent it (normalised; `en` when none). */
  agentLanguage: string;
  /** The parsed `dynamic-variables`. */
  dynamicVariables: DynamicVariables;
  /** Where the element talks to. */
  endpoint: ServiceEndpoint;
}

/** Status of the read, in the style of `@lit/task` (DESIGN.md rule 5): `error` covers bad attributes and a failed read. */
export type WidgetConfigStatus = 'idle' | 'loading' | 'ready' | 'error';

/** The attributes whose change starts a new read. */
const readArgs = (args: WidgetConfigArgs): unknown[] => [args.agentId, args.serverUrl, args.signedUrl];

/**
 * Reads one agent's widget configuration (SERVICE-INTERFACE.md 4.2, PROTOCOL.md section 2) and resolves it with the
 * element's attributes, in the style of `@lit/task`: `args` are read before each update; a change of `agent-id`,
 * `server-url` or `signed-url` starts a new read (one AbortController per run; a newer run or the element leaving
 * aborts the older); every derived value is computed from its own arguments and kept while they stay the same
 * (a configuration is validated, and its problems reported, once per response and override attributes).
 * Never throws: bad attributes and a failed read end in status `error` with the cause in the console.
 *
 * Early and remembered (PROTOCOL.md section 2): a read started before the element upgraded (client/prefetch.ts) is taken
 * over instead of a new request (once, for the first try of a read). The last good configuration of a public agent is
 * kept in localStorage (config/cache.ts): when one is cached, the read is `ready` at once from it (`fromCache` true)
 * while the service is asked in the background (stale-while-revalidate). The service's answer replaces it whole when
 * it differs (the raw configuration is swapped and every derived value follows from it, so no mix of old and new is
 * ever rendered) and changes nothing, not even a render, when it is the same. A failed revalidation keeps the cached
 * configuration with a console warning instead of the error state (a final 4xx also removes the stored entry, so the
 * next visit shows the service's answer). A read with a conversation signature (a private agent) is never cached.
 */
export class WidgetConfigController implements ReactiveController {
  status: WidgetConfigStatus = 'idle';

  /** True when the read failed in a way time may mend (no answer, 5xx): the error state offers to try again. */
  retryable = false;

  /**
   * True while the value comes from the configuration cache (config/cache.ts) and no answer of the service has replaced
   * or confirmed it: the revalidation is under way, or failed (then the cached value stays).
   */
  fromCache = false;

  /** The service's `widget_config` (untrusted; validated lazily in `value`) and its JSON text, to compare answers with. */
  #raw: unknown = null;
  #rawJson = '';
  /** The JSON text read from the cache at the start of the current read ('' when none): an equal answer is not stored again. */
  #cachedJson = '';
  #endpoint: ServiceEndpoint | null = null;
  #abort: AbortController | null = null;
  /** Retries made of the current read, and the timer of the next one. */
  #retries = 0;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Who waits for the read to settle (`settled()`). */
  #waiting: { resolve: (value: WidgetConfigValue) => void; reject: (error: Error) => void }[] = [];
  /** Back online (the `online` event): a read that failed or waits for a retry is tried again at once. */
  readonly #online = (): void => {
    if (this.status === 'error' ? this.retryable : this.#retryTimer !== undefined) this.retry();
  };
  #readArgs: unknown[] = [];
  /** The conversation language chosen: see `WidgetConfigValue.language`. */
  #language = '';
  #languageAttribute: string | null | undefined;
  #announced = false;
  readonly #validated = memo((raw: unknown, ...attributes: (string | null | undefined)[]) => this.#validate(raw, attributes));
  readonly #labels = memo((config: WidgetConfig, language: string, textContents: unknown) => ({
    texts: resolveTexts(config, language, this.#textContents(textContents)),
    terms: termsFor(config, language),
  }));
  readonly #dynamicVariables = memo(parseDynamicVariables);
  readonly #textContents = memo(parseTextContents);

  /**
   * @param args the element's attributes, read before each update
   * @param network `fetch` for the read, injectable for unit tests (DESIGN.md rule 11); the browser's by default
   */
  constructor(
    private readonly host: ReactiveControllerHost & EventTarget,
    private readonly args: () => WidgetConfigArgs,
    private readonly network: { fetch?: FetchLike } = {},
  ) {
    host.addController(this);
  }

  /** The resolved configuration once read (status `ready`), else null. */
  get value(): WidgetConfigValue | null {
    if (this.status !== 'ready') return null;
    const args = this.args();
    const { config, linkPolicy, agentLanguage } = this.#validated(this.#raw, ...LAYERED_ATTRIBUTES.map((name) => args.attributes[name]));
    const language = this.#language;
    const { texts, terms } = this.#labels(config, language, args.textContents);
    return { config, texts, linkPolicy, terms, language, agentLanguage, dynamicVariables: this.#dynamicVariables(args.dynamicVariables), endpoint: this.#endpoint! };
  }

  /** Every label: the resolved ones, or before the configuration is read the defaults under the `text-contents` attribute. */
  get texts(): Labels {
    return this.value?.texts ?? { ...DEFAULT_TEXTS, ...WIDGET_LABELS, ...this.#textContents(this.args().textContents) };
  }

  /** A re-added element reads again unless its configuration was read from the service (its run was aborted on removal). */
  hostConnected(): void {
    addEventListener('online', this.#online);
    if (this.status === 'ready' && !this.fromCache) return;
    this.#readArgs = [];
    this.host.requestUpdate();
  }

  hostDisconnected(): void {
    removeEventListener('online', this.#online);
    this.#settle(new Error('the element left the page'));
    this.#abort?.abort();
    this.#abort = null;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    if (this.status === 'loading') this.status = 'idle';
  }

  /**
   * The resolved configuration once read: at once when it is, else when the read under way settles.
   * @throws Error when the read fails (after its retries), the attributes are unusable, or the element leaves first
   */
  settled(): Promise<WidgetConfigValue> {
    const value = this.value;
    if (value) return Promise.resolve(value);
    if (this.status === 'error') return Promise.reject(new Error('the widget configuration could not be read (see the console)'));
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }

  /** Settles everyone waiting: with the value, or with `error`. */
  #settle(error?: Error): void {
    const waiting = this.#waiting.splice(0);
    if (!waiting.length) return;
    const value = this.value;
    for (const { resolve, reject } of waiting) {
      if (value && !error) resolve(value);
      else reject(error ?? new Error('the widget configuration could not be read (see the console)'));
    }
  }

  /** Tries the read again at once (the error state's retry button, or back online), as a new read with all its tries. */
  retry(): void {
    void this.#read(this.args());
  }

  hostUpdate(): void {
    const args = this.args();
    const read = readArgs(args);
    if (read.some((value, i) => value !== this.#readArgs[i])) {
      this.#readArgs = read;
      void this.#read(args);
    }
  }

  /** The visitor picked a language in the selector (one of `offeredLanguages`): labels, terms and greeting follow. */
  chooseLanguage(language: string): void {
    this.#language = language;
    this.host.requestUpdate();
  }

  /** Reads the configuration; a transient failure is tried again after a backoff (client/retry.ts), up to `READ_TRIES` in all. */
  async #read(args: WidgetConfigArgs, retries = 0): Promise<void> {
    this.#abort?.abort();
    this.#abort = null;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#retries = retries;
    this.retryable = false;
    try {
      this.#endpoint = serviceEndpoint(args, defaultServerUrl());
    } catch (error) {
      this.status = 'error';
      this.fromCache = false;
      const message = `${(error as Error).message}; the widget cannot start.`;
      log.error(message);
      this.host.dispatchEvent(new VoiceAgentErrorEvent({ code: 'attributes', message, serviceCode: null }));
      this.#settle(new Error(message));
      return;
    }
    const endpoint = this.#endpoint;
    const { serverUrl, agentId, signature } = endpoint;
    const abort = (this.#abort = new AbortController());
    if (retries === 0) this.#readCache(endpoint);
    if (!this.fromCache) {
      this.status = 'loading';
      this.host.requestUpdate();
    }
    try {
      const response = await ((retries === 0 ? takePrefetchedWidgetConfig(endpoint, abort.signal) : null) ??
        fetchWidgetConfig(serverUrl, agentId, { ...this.network, signal: abort.signal, ...(signature ? { conversationSignature: signature } : {}) }));
      if (abort.signal.aborted) return;
      const json = JSON.stringify(response.widget_config);
      if (!signature && json !== this.#cachedJson) storeWidgetConfig(serverUrl, agentId, json);
      const changed = this.#show(response.widget_config, json);
      const wasReady = this.status === 'ready';
      this.fromCache = false;
      this.status = 'ready';
      this.#settle();
      // The same answer as the cached one: nothing to render again.
      if (wasReady && !changed) return;
    } catch (error) {
      if (abort.signal.aborted) return;
      const cause = `could not read the widget configuration of agent "${agentId}" from ${serverUrl}: ${(error as Error).message}`;
      if (isTransient(error) && this.#retries + 1 < READ_TRIES) {
        // While it retries the launcher says it is connecting (or shows the cached configuration), not that the widget is broken.
        const delay = retryDelay(this.#retries);
        log.warn(`${cause}; trying again in ${delay} ms (try ${this.#retries + 2} of ${READ_TRIES}).`);
        this.#retryTimer = setTimeout(() => void this.#read(this.args(), this.#retries + 1), delay);
        return;
      }
      if (this.fromCache) {
        // Stale-while-revalidate: the cached configuration stays; a final answer (a 4xx, a body that is not a
        // configuration) also removes the stored entry, so the next visit shows what the service says.
        log.warn(`${cause}; keeping the cached configuration.`);
        if (!isTransient(error)) removeCachedWidgetConfig(serverUrl, agentId);
        return;
      }
      this.status = 'error';
      this.retryable = isTransient(error);
      log.error(cause, error);
      this.host.dispatchEvent(new VoiceAgentErrorEvent({ code: 'config', message: cause, serviceCode: null }));
      this.#settle(new Error(cause));
    } finally {
      if (this.#abort === abort) this.#abort = null;
    }
    this.host.requestUpdate();
  }

  /**
   * At the start of a read: the cached configuration of a public agent's `endpoint`, when there is one, becomes the
   * value at once (status `ready`, `fromCache`); else the read starts from `loading`.
   */
  #readCache({ serverUrl, agentId, signature }: ServiceEndpoint): void {
    const cached = signature ? null : readCachedWidgetConfig(serverUrl, agentId);
    this.#cachedJson = cached?.json ?? '';
    this.fromCache = !!cached;
    if (!cached) return;
    this.#show(cached.config, cached.json);
    this.status = 'ready';
    this.#settle();
    // Read from hostUpdate, after the host's own willUpdate: one more update lets the host see the value there too.
    queueMicrotask(() => this.host.requestUpdate());
  }

  /**
   * Makes `raw` (a `widget_config`, untrusted) the configuration, whole: every derived value is memoised from this one
   * object, so swapping it swaps them all. Keeps the current object when `json` is the same text.
   * @returns whether the configuration changed
   */
  #show(raw: unknown, json: string): boolean {
    if (json === this.#rawJson) return false;
    this.#raw = raw;
    this.#rawJson = json;
    return true;
  }

  /** Validates the service's configuration with the override attributes laid over it (attributes win); sets the language. */
  #validate(raw: unknown, attributes: (string | null | undefined)[]): Pick<WidgetConfigValue, 'config' | 'linkPolicy' | 'agentLanguage'> {
    const values = Object.fromEntries(LAYERED_ATTRIBUTES.map((name, i) => [name, attributes[i]])) as AttributeValues;
    const config = resolveWidgetConfig(
      applyAttributeLayer(raw, attributeLayer(values, log.warn)),
      (field, problem) => {
        const attribute = attributeFor(field, values);
        log.warn(`${attribute ? `attribute ${attribute} (widget_config.${field})` : `widget_config.${field}`}: ${problem}; using the default.`);
      },
      location.href,
    );
    // The `language` attribute decides when it is set or changes; else keep the visitor's choice while it is offered;
    // else the browser's language when the agent offers it, else the agent's.
    const attributeChanged = values.language !== this.#languageAttribute;
    this.#languageAttribute = values.language;
    if (values.language && (attributeChanged || !this.#language)) this.#language = config.language;
    else if (!offeredLanguages(config).includes(this.#language)) this.#language = values.language ? config.language : preferredLanguage(config, navigator.languages ?? []);
    if (!this.#announced && config.use_rtc) log.info('use_rtc: talking over the WebSocket (no WebRTC transport yet).');
    this.#announced = true;
    return {
      config,
      linkPolicy: { allowedHosts: config.markdown_link_allowed_hosts, includeWww: config.markdown_link_include_www, allowHttp: config.markdown_link_allow_http, pageUrl: location.href },
      agentLanguage: normalizeLanguage(isRecord(raw) ? raw['language'] : '') ?? 'en',
    };
  }
}

/** The attributes laid over the configuration (`CONFIG_ATTRIBUTES`); the conversation attributes only shape the initiation. */
const LAYERED_ATTRIBUTES = Object.keys(CONFIG_ATTRIBUTES) as (keyof AttributeValues)[];

/** `fn` remembered for its last arguments, as `@lit/task` keeps its value while its args stay equal (`===` each). */
function memo<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  let last: { args: A; result: R } | null = null;
  return (...args) => {
    if (!last || args.length !== last.args.length || args.some((arg, i) => arg !== last!.args[i])) last = { args, result: fn(...args) };
    return last.result;
  };
}

import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { WidgetConfigRead } from '../../client/config-read.js';
import { defaultServerUrl, serviceEndpoint, type ServiceEndpoint } from '../../client/paths.js';
import type { FetchLike } from '../../client/rest.js';
import { CONFIG_ATTRIBUTES, parseDynamicVariables, parseTextContents, type AttributeValues, type DynamicVariables } from '../../config/attributes.js';
import { DEFAULT_TEXTS, WIDGET_LABELS } from '../../config/defaults.js';
import { chooseLanguage } from '../../config/language.js';
import type { LinkPolicy } from '../../config/link-policy.js';
import { resolveConfig, resolveLabels } from '../../config/resolve.js';
import type { Terms } from '../../config/texts.js';
import type { Labels, WidgetConfig } from '../../config/types.js';
import { VoiceAgentErrorEvent } from '../../events/error.js';
import * as log from '../../internal/console.js';

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

/**
 * Holds one element's widget configuration (PROTOCOL.md section 2) in the style of `@lit/task`: `args` are read before
 * each update; a change of `agent-id`, `server-url` or `signed-url` starts a new read (client/config-read.ts: cache,
 * prefetch, request, retries; one AbortController per run, aborted by a newer run or the element leaving), and `value`
 * resolves what was read with the other attributes (config/resolve.ts) in the conversation language
 * (config/language.ts `chooseLanguage`; the visitor's choice is kept here). Every derived value is remembered while its
 * own arguments stay the same: a configuration is validated, and its problems reported, once per response and override
 * attributes. Never throws: bad attributes and a failed read end in status `error` with the cause in the console and a
 * `voice-agent-error` event.
 *
 * Stale-while-revalidate (config/cache.ts): when a public agent's configuration is cached the read is `ready` at once
 * from it (`fromCache` true) while the service is asked. The service's answer replaces it whole when it differs (the
 * raw configuration is swapped and every derived value follows from it, so no mix of old and new is ever rendered) and
 * changes nothing, not even a render, when it is the same; a failed revalidation keeps it.
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

  /** The `widget_config` shown (untrusted; resolved lazily in `value`) and its JSON text, to compare answers with. */
  #raw: unknown;
  #rawJson?: string;
  #endpoint: ServiceEndpoint | undefined;
  readonly #read: WidgetConfigRead;
  /** Who waits for the read to settle (`settled()`). */
  #waiting: { resolve: (value: WidgetConfigValue) => void; reject: (error: Error) => void }[] = [];
  /** Back online (the `online` event): a read that failed or waits for a retry is tried again at once. */
  readonly #online = (): void => {
    if (this.status === 'error' ? this.retryable : this.#read.waiting) this.retry();
  };
  #readArgs: unknown[] = [];
  /**
   * The conversation language (see `WidgetConfigValue.language`): the visitor's choice (`chooseLanguage`), else the last
   * one `value` chose; '' before the first. Kept here, decided by config/language.ts `chooseLanguage`.
   */
  #language = '';
  /** The `language` attribute when `#language` was last chosen: its change lets the attribute decide again. */
  #languageAttribute: string | null | undefined;
  /** The `use_rtc` notice was given (once per element, with its first value). */
  #announced?: boolean;
  readonly #resolved = memo((raw: unknown, ...values: (string | null | undefined)[]) =>
    resolveConfig(raw, Object.fromEntries(LAYERED_ATTRIBUTES.map((name, i) => [name, values[i]])), location.href, log.warn));
  readonly #labels = memo(resolveLabels);
  /** The languages whose translation was asked for: its labels once loaded (`#translation`). */
  readonly #translations = new Map<string, Partial<Labels> | undefined>();
  readonly #dynamicVariables = memo(parseDynamicVariables);
  readonly #textContents = memo(parseTextContents);

  /**
   * @param args the element's attributes, read before each update
   * @param network `fetch` for the read, injectable for unit tests (DESIGN.md rule 11); the browser's by default
   */
  constructor(
    private readonly host: ReactiveControllerHost & EventTarget,
    private readonly args: () => WidgetConfigArgs,
    network: { fetch?: FetchLike } = {},
  ) {
    this.#read = new WidgetConfigRead({
      value: (raw, json, cached) => this.#show(raw, json, cached),
      error: (cause, error, transient) => this.#fail('config', cause, transient, error),
    }, network);
    host.addController(this);
  }

  /** The resolved configuration once read (status `ready`), else null. */
  get value(): WidgetConfigValue | null {
    if (this.status !== 'ready') return null;
    const args = this.args();
    const attribute = args.attributes.language;
    const resolved = this.#resolved(this.#raw, ...LAYERED_ATTRIBUTES.map((name) => args.attributes[name]));
    const { config } = resolved;
    if (!this.#announced && config.use_rtc) log.info('use_rtc: talking over the WebSocket (no WebRTC transport yet).');
    this.#announced = true;
    // Chosen again at each read, outside the memoised steps: the rule is stable (the same inputs give the same language).
    const language = (this.#language = chooseLanguage(config, attribute, this.#languageAttribute, this.#language, navigator.languages));
    this.#languageAttribute = attribute;
    const labels = this.#labels(config, language, this.#textContents(args.textContents), this.#translation(language));
    return { ...resolved, ...labels, language, dynamicVariables: this.#dynamicVariables(args.dynamicVariables), endpoint: this.#endpoint! };
  }

  /**
   * The widget's own labels in `language` once loaded (config/translations/), else undefined: the first ask loads them,
   * and their arrival renders the element again. English and languages with none have nothing to load.
   */
  #translation(language: string): Partial<Labels> | undefined {
    const { host } = this;
    const translations = this.#translations;
    if (!translations.has(language)) {
      translations.set(language, undefined);
      if (!language.startsWith('en')) {
        // The module itself failing to load is told as the browser words it; the labels stay in English.
        void import('../../config/translations/index.js').then((module) => module.loadTranslation(language)).then((labels) => {
          if (labels) translations.set(language, labels), host.requestUpdate();
        }, log.warn);
      }
    }
    return translations.get(language);
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
    this.#read.abort();
    if (this.status === 'loading') this.status = 'idle';
  }

  /** A change of `agent-id`, `server-url` or `signed-url` starts a new read (`retry()`). */
  hostUpdate(): void {
    const args = this.args();
    const read = [args.agentId, args.serverUrl, args.signedUrl];
    if (read.some((value, i) => value !== this.#readArgs[i])) {
      this.#readArgs = read;
      this.retry();
    }
  }

  /**
   * The resolved configuration once read: at once when it is, else when the read under way settles.
   * @throws Error when the read fails (after its retries), the attributes are unusable, or the element leaves first
   */
  settled(): Promise<WidgetConfigValue> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      if (this.status === 'ready' || this.status === 'error') this.#settle();
    });
  }

  /**
   * Starts a new read with the current attributes, with all its tries, aborting the one under way (a change of `agent-id`,
   * `server-url` or `signed-url`; the error state's retry button; back online); ends in `error` when they are unusable.
   */
  retry(): void {
    this.#read.abort();
    this.retryable = false;
    this.fromCache = false;
    try {
      this.#endpoint = serviceEndpoint(this.args(), defaultServerUrl());
    } catch (error) {
      return this.#fail('attributes', `${(error as Error).message}; the widget cannot start.`);
    }
    this.#read.start(this.#endpoint);
    if (!this.fromCache) {
      this.status = 'loading';
      this.host.requestUpdate();
    }
  }

  /** The visitor picked a language in the selector (one of `offeredLanguages`): labels, terms and greeting follow. */
  chooseLanguage(language: string): void {
    this.#language = language;
    this.host.requestUpdate();
  }

  /** Settles everyone waiting: with the value when there is one (status `ready`), else with `error`. */
  #settle(error?: Error): void {
    const waiting = this.#waiting.splice(0);
    if (!waiting.length) return;
    const value = this.value;
    for (const { resolve, reject } of waiting) {
      if (value) resolve(value);
      else reject(error ?? new Error('the widget configuration could not be read (see the console)'));
    }
  }

  /**
   * Shows `raw` (a `widget_config`, untrusted), whole: every derived value is memoised from this one object, so swapping
   * it swaps them all. The same `json` keeps the current object, and an answer that confirms what is shown renders nothing.
   */
  #show(raw: unknown, json: string, cached: boolean): void {
    const unchanged = this.status === 'ready' && json === this.#rawJson;
    if (json !== this.#rawJson) {
      this.#raw = raw;
      this.#rawJson = json;
    }
    this.fromCache = cached;
    this.status = 'ready';
    this.#settle();
    // The cached value comes within hostUpdate, after the host's own willUpdate: one more update lets the host see it there too.
    if (cached) queueMicrotask(() => this.host.requestUpdate());
    else if (!unchanged) this.host.requestUpdate();
  }

  /** Ends in `error` for `code`: the console, a `voice-agent-error` event and everyone waiting are told `message`. */
  #fail(code: 'attributes' | 'config', message: string, retryable = false, ...cause: unknown[]): void {
    this.status = 'error';
    this.retryable = retryable;
    log.error(message, ...cause);
    this.host.dispatchEvent(new VoiceAgentErrorEvent({ code, message, serviceCode: null }));
    this.#settle(new Error(message));
    this.host.requestUpdate();
  }
}

/** The attributes laid over the configuration (`CONFIG_ATTRIBUTES`); the conversation attributes only shape the initiation. */
const LAYERED_ATTRIBUTES = Object.keys(CONFIG_ATTRIBUTES) as (keyof AttributeValues)[];

/** `fn` remembered for its last arguments, as `@lit/task` keeps its value while its args stay equal (`===` each; always as many). */
function memo<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  let last: [args: A, result: R] | undefined;
  return (...args) => {
    if (!last || args.some((arg, i) => arg !== last![0][i])) last = [args, fn(...args)];
    return last[1];
  };
}

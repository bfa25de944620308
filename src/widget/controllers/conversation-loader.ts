import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ConversationPanel, PanelShell } from '../conversation-panel.js';
import { VoiceAgentErrorEvent } from '../../events/error.js';
import { hasKeptConversation } from '../../client/kept-conversation.js';
import * as log from '../../internal/console.js';
import { whenIdle } from '../../internal/idle.js';

/** The conversation module (../conversation-panel.ts), as `import()` gives it. */
type ConversationModule = typeof import('../conversation-panel.js');

/** The status of the load: `idle` (not asked for), `loading`, `ready`, `failed` (see the console; `load()` tries again). */
export type ConversationLoadStatus = 'idle' | 'loading' | 'ready' | 'failed';

/**
 * One load per page (per importer), shared by every element: `pending` is forgotten when it fails, so a later `load()`
 * fetches again; `loaded` is the module once it has, for elements that come later to make their panel at once, with no
 * frame of the loading state; `preloaded` once a preload was asked for.
 */
interface SharedLoad {
  pending: Promise<ConversationModule> | null;
  loaded: ConversationModule | null;
  preloaded: boolean;
}

const loads = new WeakMap<ImportConversation, SharedLoad>();

/** How the module is fetched: `import()`, injectable for unit tests (DESIGN.md rule 11). */
export type ImportConversation = () => Promise<ConversationModule>;

const importConversation: ImportConversation = () => import('../conversation-panel.js');

/**
 * Each lazy chunk's URL by chunk name, declared by the script-tag build around its first script
 * (scripts/classic-entry.mjs); not declared in a bundler's build, whose chunk names only the page's bundler knows.
 */
declare const __voiceAgentWidgetChunks: Readonly<Record<string, string>> | undefined;

/**
 * Fetches the conversation module ahead of intent without running it: returns true when the browser was asked to,
 * false when this build or browser cannot (no chunk URL, neither `prefetch` nor `modulepreload`) and only
 * `import()` can load it early. Injectable for unit tests (DESIGN.md rule 11).
 */
export type PreloadConversation = () => boolean;

/**
 * The script-tag build's `<link>` for the conversation chunk, in the page's head until it has loaded or failed:
 * - `rel="prefetch"` in Chromium (told by `navigator.userAgentData`, which only Chromium has): into the HTTP cache
 *   only, with the module's own request mode (CORS, no credentials across origins), where the later `import()` finds
 *   it. Nothing is compiled before intent: compiling it early kept 0.10 MB more of the page's JS heap (bench:launch,
 *   Chromium), for about 60 ms less from a press to the panel on a warm visit;
 * - else `rel="modulepreload"`: fetched and compiled, not run; the module stays in the page's module map for the
 *   `import()` of the same URL. Safari has no prefetch, and Firefox judges a prefetch by the page's `default-src`, not
 *   `script-src`: under a CSP that allows the widget's scripts (README "Content Security Policy") its prefetch was
 *   refused, and reported as a violation to the page.
 * A failed preload is not told (Firefox fires `load` even for a failed modulepreload): `load()` finds out, tries once
 * more and reports.
 */
const preloadConversationChunk: PreloadConversation = () => {
  const url = typeof __voiceAgentWidgetChunks === 'object' && __voiceAgentWidgetChunks['conversation-panel'];
  const link = document.createElement('link');
  const rel = ['prefetch', 'modulepreload'].find((r) => link.relList.supports?.(r) && (r !== 'prefetch' || 'userAgentData' in navigator));
  if (typeof url !== 'string' || !rel) return false;
  link.rel = rel;
  link.crossOrigin = 'anonymous';
  link.href = url;
  link.onload = link.onerror = () => link.remove();
  (document.head ?? document.documentElement).append(link);
  return true;
};

/** Longest wait (ms) for the browser to go idle after the page's `load` before the module is fetched anyway. */
export const IDLE_TIMEOUT_MS = 4000;

/**
 * Loads the conversation side of the element (the panel, markdown, the client session, audio) on intent: `load()`
 * (the launcher hovered, focused or pressed, a panel to show, a host API call). Once the browser goes idle after the
 * page's `load` event and the launcher is usable (`preloadWhenIdle()`), it is fetched ahead of intent: in the
 * script-tag build, where that module is a chunk beside the first script (vite.config.ts), by a `prefetch` (else a
 * `modulepreload`) that does not run it, so the heap it would allocate waits for the visitor; with a bundler, whose
 * chunk URL the widget cannot know, the same `import()` splits it and runs it at idle. Once loaded, `panel` is this element's `ConversationPanel`. A failed load is
 * told in the console, by `voice-agent-error` (code `load`) and through `status` (the panel offers to try again); it never throws out of `load()` unless
 * awaited. Removing the element cancels the idle wait; the module, once fetched, stays for the page.
 */
export class ConversationLoaderController implements ReactiveController {
  status: ConversationLoadStatus = 'idle';
  /** This element's conversation panel once the module has loaded, else null. */
  panel: ConversationPanel | null = null;

  /** Cancels the idle wait under way (`whenIdle`), or undefined when none is. */
  #idle: (() => void) | undefined;
  /** `preloadWhenIdle()` was asked for (and not yet done). */
  #idleWanted = false;
  #pending: Promise<ConversationPanel> | null = null;
  readonly #onLoad = (): void => this.#scheduleIdle();

  /**
   * @param shell what the element lends the panel
   * @param importModule how the module is fetched (injectable for unit tests)
   * @param onReady called once the panel exists (the element hands it the page's client tools, focus…)
   */
  constructor(
    private readonly host: ReactiveControllerHost & EventTarget,
    private readonly shell: PanelShell,
    private readonly onReady: (panel: ConversationPanel) => void,
    private readonly importModule: ImportConversation = importConversation,
    private readonly preloadModule: PreloadConversation = preloadConversationChunk,
  ) {
    host.addController(this);
  }

  /** This importer's page-wide load. */
  get #shared(): SharedLoad {
    let shared = loads.get(this.importModule);
    if (!shared) loads.set(this.importModule, (shared = { pending: null, loaded: null, preloaded: false }));
    return shared;
  }

  /** A re-added element waits for idle again if it was waiting when it left. */
  hostConnected(): void {
    if (this.#idleWanted) this.preloadWhenIdle();
  }

  /**
   * Preloads the module (a `prefetch` or `modulepreload`, else `load()`) once the browser goes idle after the page's `load` event (at
   * once if it has loaded). The element calls it when its launcher is usable, so the module never competes with the
   * configuration read.
   */
  preloadWhenIdle(): void {
    this.#idleWanted = true;
    if (this.panel || this.#shared.loaded || this.#shared.preloaded || this.status !== 'idle' || this.#idle !== undefined) return;
    // A conversation this tab kept from an earlier page is shown as it was (issue 21): the module loads now.
    if (hasKeptConversation()) void this.load().catch(() => {});
    else if (document.readyState === 'complete') this.#scheduleIdle();
    else addEventListener('load', this.#onLoad, { once: true });
  }

  hostDisconnected(): void {
    removeEventListener('load', this.#onLoad);
    this.#cancelIdle();
  }

  #scheduleIdle(): void {
    this.#cancelIdle();
    if (this.panel) return;
    const run = (): void => {
      this.#idle = undefined;
      this.#idleWanted = false;
      if (this.preloadModule()) this.#shared.preloaded = true;
      else this.load().catch(() => {});
    };
    this.#idle = whenIdle(run, IDLE_TIMEOUT_MS);
  }

  #cancelIdle(): void {
    this.#idle?.();
    this.#idle = undefined;
  }

  /**
   * Makes the element's panel now when the module has loaded (for another element): call it from the host's
   * `willUpdate`, where controllers may be added (not from `hostConnected`, while the host walks its controllers).
   */
  createIfLoaded(): void {
    const { loaded } = this.#shared;
    if (!this.panel && loaded) this.#create(loaded);
  }

  #create(module: ConversationModule): ConversationPanel {
    this.#cancelIdle();
    this.#idleWanted = false;
    const panel = (this.panel = new module.ConversationPanel(this.shell));
    this.status = 'ready';
    this.host.requestUpdate(); // before onReady, whose focus waits for this update
    this.onReady(panel);
    return panel;
  }

  /**
   * The element's conversation panel, loading the module first when it has not loaded.
   * @throws Error when the module cannot be loaded (offline, a missing chunk, a page's CSP or CORS); `status` is `failed`
   */
  load(): Promise<ConversationPanel> {
    if (this.panel) return Promise.resolve(this.panel);
    const shared = this.#shared;
    if (shared.loaded) return Promise.resolve(this.#create(shared.loaded));
    if (this.#pending) return this.#pending;
    this.#cancelIdle();
    this.status = 'loading';
    this.host.requestUpdate();
    // After a preload, a failed import() may be the preload's failure kept in the module map (Firefox's, for the page's
    // life): it is tried once more, at a URL of its own in the script-tag build (`?retry=N`, scripts/classic-entry.mjs).
    if (!shared.pending) {
      const first = this.importModule();
      shared.pending = (shared.preloaded ? first.catch(() => this.importModule()) : first).then((module) => (shared.loaded = module));
      shared.preloaded = false;
    }
    const pending = shared.pending.then(
      (module) => this.panel ?? this.#create(module),
      (error: unknown) => {
        shared.pending = null;
        this.#pending = null;
        this.status = 'failed';
        const message = `the conversation part could not be loaded: ${(error as Error)?.message ?? error}`;
        log.error(`${message}. With the script-tag build, its chunks (voice-agent-widget-*.js) must sit beside voice-agent-widget.js, and from another origin they need CORS.`);
        this.host.dispatchEvent(new VoiceAgentErrorEvent({ code: 'load', message, serviceCode: null }));
        this.host.requestUpdate();
        throw new Error(message);
      },
    );
    this.#pending = pending;
    return pending;
  }
}

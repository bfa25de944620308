import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { conversationSocketUrl, normalizeServerUrl } from '../client/paths.js';
import { postConversationFeedback } from '../client/rest.js';
import type { ConversationConfigOverride, ConversationInitiation } from '../client/protocol.js';
import type { SessionOptions } from '../client/session.js';
import {
  CONFIG_ATTRIBUTES, CONVERSATION_ATTRIBUTES, applyAttributeLayer, attributeFor, attributeLayer, parseBooleanAttribute, type AttributeValues,
} from '../config/attributes.js';
import { DEFAULT_TEXTS, MAX_LONG_TEXT_LENGTH, MAX_PROMPT_LENGTH, MAX_TEXT_LENGTH, TEXT_KEYS } from '../config/defaults.js';
import { directionOf, languageName, offeredLanguages, preferredLanguage } from '../config/language.js';
import { fillDynamicVariables, firstMessageFor, presetFor, resolveTexts } from '../config/texts.js';
import { resolveTheme, themeRule } from '../config/theme.js';
import type { TextContents, WidgetConfig } from '../config/types.js';
import { isRecord, normalizeLanguage, preview, resolveWidgetConfig } from '../config/validate.js';
import type { LinkPolicy } from '../markdown/link-policy.js';
import { renderAvatar } from './avatar.js';
import { ConfigController } from './config-controller.js';
import { ConversationController, type ClientToolHandler } from './conversation-controller.js';
import * as log from './console.js';
import { MediaQueryController } from './media-query-controller.js';
import { defaultServerUrl } from './server-url.js';
import { renderTerms, type Terms } from './terms.js';
import { renderTranscript } from './transcript.js';
import { widgetStyles } from './voice-agent-widget.styles.js';

/** Agent ids are opaque, but never empty and never longer than this. */
const MAX_AGENT_ID_LENGTH = 256;
/** Below this viewport width (px) the device counts as mobile for `expandable` (PROTOCOL.md section 2). */
const MOBILE_QUERY = '(max-width: 640px)';
/** How long the copy button says `copied`, in ms. */
const COPIED_MS = 2000;
/** Where the "powered by" line points unless `override_link` says otherwise. */
const BANNER_LINK = 'https://www.npmjs.com/package/voice-agent-widget';

const camel = (name: string): string => name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
const OVERRIDE_ATTRIBUTES = [...Object.keys(CONFIG_ATTRIBUTES), ...CONVERSATION_ATTRIBUTES];

/**
 * `<voice-agent-widget agent-id="...">`: reads the agent's public widget configuration from the Voice Agent
 * Service (PROTOCOL.md section 2), applies its styles, labels and layout flags, and lets a visitor hold a
 * conversation with the agent (PROTOCOL.md section 3).
 *
 * @attr agent-id - the agent to talk to (required unless `signed-url` holds it)
 * @attr server-url - base URL of the Voice Agent Service; default: the origin of the script that defined the element (PROTOCOL.md section 1)
 * @attr dynamic-variables - JSON object of dynamic variables sent with the conversation (values: string, number or boolean)
 * @attr text-contents - JSON object of labels that win over the configuration's `text_contents` (PROTOCOL.md section 2)
 * @attr variant - `tiny`, `compact` or `full`; overrides `variant`
 * @attr placement - `top-left`, `top`, `top-right`, `bottom-left`, `bottom`, `bottom-right`; overrides `placement`
 * @attr default-expanded - boolean (`true`/`false`/present); overrides `default_expanded`
 * @attr always-expanded - boolean (`true`/`false`/present); overrides `always_expanded`
 * @attr dismissible - boolean (`true`/`false`/present); overrides `dismissible`
 * @attr transcript - boolean (`true`/`false`/present); overrides `transcript_enabled`
 * @attr text-input - boolean (`true`/`false`/present); overrides `text_input_enabled`
 * @attr mic-muting - boolean (`true`/`false`/present); overrides `mic_muting_enabled`
 * @attr language - a language tag; overrides `language`
 * @attr avatar-image-url - https or same-origin picture; sets `avatar.type` to `image`
 * @attr avatar-orb-color-1 - CSS colour; overrides `avatar.color_1`
 * @attr avatar-orb-color-2 - CSS colour; overrides `avatar.color_2`
 * @attr markdown-link-allowed-hosts - comma-separated hosts; overrides `markdown_link_allowed_hosts`
 * @attr override-first-message - sent as the conversation's first message (SERVICE-INTERFACE.md 2.8 overrides)
 * @attr override-language - a language tag sent as the conversation's language (SERVICE-INTERFACE.md 2.8 overrides)
 * @attr override-prompt - sent as the agent's prompt (SERVICE-INTERFACE.md 2.8 overrides)
 * @attr override-voice-id - sent as the TTS voice id (SERVICE-INTERFACE.md 2.8 overrides)
 * @attr override-text-only - boolean (`true`/`false`/present), sent as `conversation.text_only`; default true (SERVICE-INTERFACE.md 2.8 overrides)
 * @attr user-id - the visitor's id for the agent owner (initiation `user_id`)
 * @attr signed-url - a ws(s) URL with `agent_id` and `conversation_signature` for a private agent (PROTOCOL.md section 3)
 *
 * @fires voice-agent-conversation - a conversation started: `detail.conversationId`
 * @fires voice-agent-conversation-end - it ended: `detail: {conversationId, reason, code, message}`
 *
 * @csspart root - the positioned wrapper of the launcher and the panel
 * @csspart launcher - the button that opens and closes the panel
 * @csspart dismiss-button - the button that hides the widget until the page reloads (`dismissible`)
 * @csspart avatar - the orb or picture avatar
 * @csspart panel - the conversation panel
 * @csspart header - the panel's header (avatar, status, buttons)
 * @csspart status - the conversation status line (aria-live)
 * @csspart language-select - the language selector
 * @csspart conversation-id - the conversation id line
 * @csspart copy-button - the button that copies the conversation id
 * @csspart transcript - the transcript (role="log")
 * @csspart message - every transcript message
 * @csspart agent-message - an agent message
 * @csspart user-message - a visitor's message
 * @csspart notice - a line that tells how a conversation ended, or a tool call's status
 * @csspart tool-status - the line shown while a client tool runs (also `notice`)
 * @csspart composer - the text input form
 * @csspart input - the text input field
 * @csspart button - every button; each also has its own part
 * @csspart start-button - the button that starts a conversation
 * @csspart send-button - the button that sends the typed text
 * @csspart end-button - the button that ends the conversation
 * @csspart expand-button - the button that expands the panel (`expandable`)
 * @csspart collapse-button - the button that closes the panel
 * @csspart accept-terms-button - the terms dialog's accept button
 * @csspart decline-terms-button - the terms dialog's decline button
 * @csspart banner - the "powered by" line
 * @csspart terms - the terms dialog
 * @csspart error - the error state shown when the configuration cannot be read
 * @csspart feedback - the end-of-call rating sheet (`feedback_mode: end`)
 * @csspart rating - the like and dislike buttons under an agent message (`feedback_mode: during`)
 *
 * @cssprop --voice-agent-base - panel background (`styles.base`, legacy `bg_color`)
 * @cssprop --voice-agent-base-hover - `styles.base_hover`
 * @cssprop --voice-agent-base-active - `styles.base_active`
 * @cssprop --voice-agent-base-border - borders (`styles.base_border`, legacy `border_color`)
 * @cssprop --voice-agent-base-subtle - `styles.base_subtle`
 * @cssprop --voice-agent-base-primary - text colour (`styles.base_primary`, legacy `text_color`)
 * @cssprop --voice-agent-base-error - `styles.base_error`
 * @cssprop --voice-agent-accent - buttons (`styles.accent`, legacy `btn_color`)
 * @cssprop --voice-agent-accent-hover - `styles.accent_hover`
 * @cssprop --voice-agent-accent-active - `styles.accent_active`
 * @cssprop --voice-agent-accent-border - `styles.accent_border`
 * @cssprop --voice-agent-accent-subtle - `styles.accent_subtle`
 * @cssprop --voice-agent-accent-primary - button text colour (`styles.accent_primary`, legacy `btn_text_color`)
 * @cssprop --voice-agent-focus - focus ring colour (legacy `focus_color`; default: the accent)
 * @cssprop --voice-agent-orb-color-1 - first orb colour (`avatar.color_1`)
 * @cssprop --voice-agent-orb-color-2 - second orb colour (`avatar.color_2`)
 * @cssprop --voice-agent-overlay-padding - distance from the viewport edge (`styles.overlay_padding`, px)
 * @cssprop --voice-agent-button-radius - `styles.button_radius` (legacy `btn_radius`, px)
 * @cssprop --voice-agent-input-radius - `styles.input_radius` (px)
 * @cssprop --voice-agent-bubble-radius - `styles.bubble_radius` (px)
 * @cssprop --voice-agent-sheet-radius - `styles.sheet_radius` (legacy `border_radius`; default button radius + 6, px)
 * @cssprop --voice-agent-compact-sheet-radius - `styles.compact_sheet_radius` (default button radius + 12, px)
 * @cssprop --voice-agent-dropdown-sheet-radius - `styles.dropdown_sheet_radius` (default input radius + 6, px)
 */
export class VoiceAgentWidget extends LitElement {
  static override styles = widgetStyles;

  /**
   * Reactive properties, declared statically rather than with decorators: Lit's decorator runtime costs ~0.9 KB
   * gzipped of the 45 KB script-tag budget (measured with bench/size.mjs). State first, then attributes; every
   * override attribute is a string property of its camel-cased name (`default-expanded` → `defaultExpanded`).
   */
  static override properties = {
    open: { state: true },
    draft: { state: true },
    expanded: { state: true },
    dismissed: { state: true },
    chosenLanguage: { state: true },
    termsOpen: { state: true },
    copied: { state: true },
    feedbackStep: { state: true },
    agentId: { attribute: 'agent-id' },
    serverUrl: { attribute: 'server-url' },
    dynamicVariables: { attribute: 'dynamic-variables' },
    textContents: { attribute: 'text-contents' },
    ...Object.fromEntries(OVERRIDE_ATTRIBUTES.map((name) => [camel(name), { attribute: name }])),
  };

  readonly #configController = new ConfigController(this);
  readonly #conversation = new ConversationController(this);
  readonly #mobile = new MediaQueryController(this, MOBILE_QUERY);

  private open = false;
  private draft = '';
  private expanded = false;
  private dismissed = false;
  /** The conversation language chosen (PROTOCOL.md section 2, `language`), '' until the configuration is read. */
  private chosenLanguage = '';
  private termsOpen = false;
  private copied = false;
  /** The end-of-call rating (PROTOCOL.md section 4): `rate` → `comment` → `thanks` (or `failed`), '' when none is asked. */
  private feedbackStep: '' | 'rate' | 'comment' | 'thanks' | 'failed' = '';

  /** The agent's id (SERVICE-INTERFACE.md 2.11 `agent_id`). Attribute `agent-id`. */
  agentId = '';
  /** Base URL of the service (PROTOCOL.md section 1); empty: the defining script's origin. Attribute `server-url`. */
  serverUrl = '';
  /** JSON object of dynamic variables (PROTOCOL.md section 3, initiation `dynamic_variables`). Attribute `dynamic-variables`. */
  dynamicVariables = '';
  /** JSON object of labels (PROTOCOL.md section 2, text precedence). Attribute `text-contents`. */
  textContents = '';

  /**
   * Answers the agent's `client_tool_call`s (PROTOCOL.md section 3): resolves to the result text; a rejection is sent
   * with `is_error: true`. Without one, every tool call is answered as an unknown tool.
   */
  get clientToolHandler(): ClientToolHandler | null {
    return this.#conversation.clientToolHandler;
  }
  set clientToolHandler(handler: ClientToolHandler | null) {
    this.#conversation.clientToolHandler = typeof handler === 'function' ? handler : null;
  }

  /** The validated configuration with the attributes laid over it; null until read. */
  #config: WidgetConfig | null = null;
  #texts: TextContents = DEFAULT_TEXTS;
  #policy: LinkPolicy | null = null;
  #terms: Terms | null = null;
  #configSheet: CSSStyleSheet | null = null;
  #themeRule = '';
  #pinnedToEnd = true;
  #parsedVariables: Record<string, string | number | boolean> = {};
  #parsedTexts: Partial<TextContents> = {};
  #attributeProblem = '';
  #signed: { url: string; agentId: string; signature: string } | null = null;
  #pendingStart: (() => void) | null = null;
  #termsAccepted = false;
  #copiedTimer: ReturnType<typeof setTimeout> | undefined;
  #configured = false;
  #rating = 0;
  #ratedConversation: string | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    // A re-added element reads its configuration again (its controllers were released on removal).
    if (this.hasUpdated && this.#configController.status !== 'ready') this.#loadConfig();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#copiedTimer);
    this.open = this.termsOpen = this.copied = false;
    this.#pendingStart = null;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const has = (name: string): boolean => changed.has(name as keyof VoiceAgentWidget);
    if (has('dynamicVariables')) this.#parsedVariables = parseDynamicVariables(this.dynamicVariables);
    if (!this.hasUpdated || has('agentId') || has('serverUrl') || has('signedUrl')) this.#loadConfig();
    if (this.#configController.status === 'ready' && (this.#config === null || OVERRIDE_ATTRIBUTES.some((name) => has(camel(name))) || this.#rawChanged())) {
      this.#resolveConfig(has('language'));
    }
    if (has('textContents')) this.#parsedTexts = parseTextContents(this.textContents);
    const { phase, conversationId } = this.#conversation;
    if (phase !== 'ended') this.feedbackStep = '';
    else if (conversationId && conversationId !== this.#ratedConversation && this.#config?.feedback_mode === 'end' && this.#config.end_feedback) {
      this.#ratedConversation = conversationId;
      this.feedbackStep = 'rate';
    }
    const config = this.#config;
    if (config) {
      this.#texts = resolveTexts(config, this.chosenLanguage, this.#parsedTexts);
      const preset = presetFor(config, this.chosenLanguage);
      const html = preset?.terms_html ?? config.terms_html;
      const text = preset?.terms_text ?? config.terms_text;
      const key = preset?.terms_key ?? config.terms_key;
      if (this.#terms?.html !== html || this.#terms.text !== text || this.#terms.key !== key) this.#terms = html || text ? { html, text, key } : null;
    } else this.#texts = { ...DEFAULT_TEXTS, ...this.#parsedTexts };
  }

  protected override updated(): void {
    this.#applyTheme();
    this.#followTranscript();
    const dialog = this.renderRoot.querySelector('dialog');
    if (dialog && !dialog.open) dialog.showModal();
  }

  #lastRaw: unknown = null;
  #rawChanged(): boolean {
    return this.#lastRaw !== this.#configController.raw;
  }

  /** Validates the service's configuration with the attribute overrides laid over it (attributes win). */
  #resolveConfig(languageAttributeChanged: boolean): void {
    const raw = (this.#lastRaw = this.#configController.raw);
    const values: AttributeValues = {};
    for (const name of OVERRIDE_ATTRIBUTES) values[name as keyof AttributeValues] = this.getAttribute(name);
    const config = resolveWidgetConfig(
      applyAttributeLayer(raw, attributeLayer(values, log.warn)),
      (field, problem) => {
        const attribute = attributeFor(field, values);
        log.warn(`${attribute ? `attribute ${attribute} (widget_config.${field})` : `widget_config.${field}`}: ${problem}; using the default.`);
      },
      location.href,
    );
    this.#config = config;
    this.#policy = { allowedHosts: config.markdown_link_allowed_hosts, includeWww: config.markdown_link_include_www, allowHttp: config.markdown_link_allow_http, pageUrl: location.href };
    // The `language` attribute decides when it is set or changes; else keep the visitor's choice while it is offered;
    // else the browser's language when the agent offers it (issue 3), else the agent's.
    if (values.language && (languageAttributeChanged || !this.chosenLanguage)) this.chosenLanguage = config.language;
    else if (!offeredLanguages(config).includes(this.chosenLanguage)) this.chosenLanguage = values.language ? config.language : preferredLanguage(config, navigator.languages ?? []);
    if (!this.#configured) {
      this.#configured = true;
      this.open = config.default_expanded;
      if (config.use_rtc) log.info('use_rtc: talking over the WebSocket (no WebRTC transport yet).');
    }
  }

  #loadConfig(): void {
    this.#attributeProblem = '';
    this.#signed = null;
    const signedUrl = this.getAttribute('signed-url');
    try {
      if (signedUrl) this.#signed = parseSignedUrl(signedUrl);
      const agentId = this.agentId.trim() || this.#signed?.agentId || '';
      if (!agentId || agentId.length > MAX_AGENT_ID_LENGTH) {
        throw new Error(agentId ? `agent-id is longer than ${MAX_AGENT_ID_LENGTH} characters` : 'the agent-id attribute is missing');
      }
      void this.#configController.load(this.#resolvedServerUrl, agentId, this.#signed?.signature);
    } catch (error) {
      this.#attributeProblem = (error as Error).message;
      log.error(`${this.#attributeProblem}; the widget cannot start.`);
    }
  }

  get #resolvedServerUrl(): string {
    return normalizeServerUrl(this.serverUrl.trim() || (this.#signed ? this.#signed.url.replace(/^ws/, 'http').replace(/^(\w+:\/\/[^/]+).*$/, '$1') : defaultServerUrl()));
  }

  /**
   * Puts the validated colours and sizes in this element's own adopted stylesheet (CSP-safe): the configuration's
   * once read, the defaults before that (loading and error states).
   */
  #applyTheme(): void {
    const root = this.shadowRoot;
    if (!root) return;
    if (!this.#configSheet) {
      this.#configSheet = new CSSStyleSheet();
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, this.#configSheet];
    }
    const rule = themeRule(resolveTheme(this.#config ?? resolveWidgetConfig({}, () => {}, location.href)));
    if (rule !== this.#themeRule) this.#configSheet.replaceSync((this.#themeRule = rule));
  }

  /** Keeps the newest transcript line in view, unless the visitor scrolled up to read. */
  #followTranscript(): void {
    const transcript = this.renderRoot.querySelector('.transcript');
    if (transcript && this.#pinnedToEnd) transcript.scrollTop = transcript.scrollHeight;
  }

  #onTranscriptScroll(event: Event): void {
    const transcript = event.currentTarget as HTMLElement;
    this.#pinnedToEnd = transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 24;
  }

  /** The initiation (PROTOCOL.md section 3; overrides of SERVICE-INTERFACE.md 2.8) from the attributes and the chosen language. */
  #sessionOptions(config: WidgetConfig): SessionOptions {
    /** A conversation attribute, or null when absent or refused (reported): too long, or failing `check`. */
    const attr = (name: string, max = MAX_TEXT_LENGTH, check = (_: string): unknown => true): string | null => {
      const value = this.getAttribute(name);
      if (value === null || (value.length <= max && check(value))) return value;
      log.warn(`attribute ${name}=${preview(value)} is not valid (at most ${max} characters${name.endsWith('language') ? ', a language tag' : ''}); not sent.`);
      return null;
    };
    const agent: NonNullable<ConversationConfigOverride['agent']> = {};
    // The agent's own language and first message, as the service knows them, need no override.
    const differs = this.chosenLanguage !== (normalizeLanguage(isRecord(this.#lastRaw) ? this.#lastRaw['language'] : '') ?? 'en');
    const overrideLanguage = attr('override-language', 20, normalizeLanguage);
    const language = overrideLanguage ? normalizeLanguage(overrideLanguage) : differs ? this.chosenLanguage : null;
    if (language) agent.language = language;
    const firstMessage = attr('override-first-message', MAX_LONG_TEXT_LENGTH) ?? (differs ? presetFor(config, this.chosenLanguage)?.first_message : undefined);
    if (firstMessage) agent.first_message = firstMessage;
    const prompt = attr('override-prompt', MAX_PROMPT_LENGTH);
    if (prompt) agent.prompt = { prompt };
    const override: ConversationConfigOverride = {
      conversation: { text_only: parseBooleanAttribute('override-text-only', attr('override-text-only'), log.warn) ?? true },
    };
    if (Object.keys(agent).length) override.agent = agent;
    const voiceId = attr('override-voice-id', 200);
    if (voiceId) override.tts = { voice_id: voiceId };
    const initiation: ConversationInitiation = { conversation_config_override: override, dynamic_variables: this.#parsedVariables };
    const userId = attr('user-id', 256);
    if (userId) initiation.user_id = userId;
    return { url: this.#signed?.url ?? conversationSocketUrl(this.#resolvedServerUrl, this.agentId.trim()), initiation };
  }

  /** The terms must be accepted first: not accepted in this page view, nor remembered under `terms_key`. */
  get #termsPending(): boolean {
    if (!this.#terms || this.#termsAccepted) return false;
    try {
      return !this.#terms.key || localStorage.getItem(this.#terms.key) !== 'accepted';
    } catch {
      return true;
    }
  }

  /** Runs `start` now, or after the visitor accepted the terms (PROTOCOL.md section 2); declining starts nothing. */
  #withTerms(start: () => void): void {
    if (!this.#termsPending) return start();
    this.#pendingStart = start;
    this.termsOpen = true;
  }

  #acceptTerms(): void {
    const start = this.#pendingStart;
    this.#termsAccepted = true;
    try {
      if (this.#terms?.key) localStorage.setItem(this.#terms.key, 'accepted');
    } catch {
      log.warn('no localStorage: terms acceptance kept for this page view only.');
    }
    this.#closeTerms();
    start?.();
  }

  /** Closes the terms sheet; what waited for it starts only through `#acceptTerms`. */
  #closeTerms(): void {
    this.renderRoot.querySelector('dialog')?.close();
    this.termsOpen = false;
    this.#pendingStart = null;
    void this.updateComplete.then(() => this.#focusComposer());
  }

  #toggle(): void {
    this.open = !this.open;
    void this.updateComplete.then(() => (this.open ? this.#focusComposer() : this.renderRoot.querySelector<HTMLElement>('.launcher')?.focus()));
  }

  #focusComposer(): void {
    (this.renderRoot.querySelector<HTMLElement>('.composer input') ?? this.renderRoot.querySelector<HTMLElement>('.start'))?.focus();
  }

  #onPanelKeydown(event: KeyboardEvent): void {
    if (event.key === 'Escape' && !this.#config?.always_expanded && !this.termsOpen) {
      event.stopPropagation();
      this.#toggle();
    }
  }

  #startChat(): void {
    const config = this.#config;
    if (config) this.#withTerms(() => this.#conversation.start(this.#sessionOptions(config)));
  }

  #onInput(event: Event): void {
    this.draft = (event.target as HTMLInputElement).value;
    this.#conversation.typing();
  }

  #onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    const config = this.#config;
    const text = this.draft.trim();
    if (!config || !text) return;
    const send = (): void => {
      this.draft = '';
      this.#conversation.sendText(text, () => this.#sessionOptions(config));
    };
    if (this.#conversation.active) send();
    else this.#withTerms(send);
  }

  #onLanguage(event: Event): void {
    this.chosenLanguage = (event.target as HTMLSelectElement).value;
  }

  async #copyConversationId(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.#conversation.conversationId ?? '');
      this.copied = true;
      clearTimeout(this.#copiedTimer);
      this.#copiedTimer = setTimeout(() => (this.copied = false), COPIED_MS);
    } catch (error) {
      log.warn(`could not copy the conversation id: ${(error as Error).message}`);
    }
  }

  #statusText(): string {
    const { phase } = this.#conversation;
    return phase === 'connecting' ? this.#texts.connecting_status : phase === 'connected' ? this.#texts.chatting_status : '';
  }

  #renderLauncher(config: WidgetConfig | null, busy: boolean): TemplateResult {
    const texts = this.#texts;
    const label = busy ? texts.connecting_status : this.open ? texts.collapse : texts.main_label;
    const avatar = !config || config.variant === 'tiny' || config.show_avatar_when_collapsed;
    return html`<div class="bar"><button
        part="launcher button"
        class="launcher"
        type="button"
        aria-expanded=${this.open ? 'true' : 'false'}
        aria-controls="panel"
        aria-busy=${busy ? 'true' : 'false'}
        aria-label=${config?.variant === 'tiny' ? label : nothing}
        dir=${directionOf(this.chosenLanguage || 'en')}
        ?disabled=${busy}
        @click=${this.#toggle}
      >
        ${avatar ? renderAvatar(config) : nothing}<span class="label">${label}</span></button
      >${config?.dismissible && !this.open
        ? html`<button part="button dismiss-button" class="icon dismiss" type="button" aria-label=${texts.dismiss_terms} @click=${() => (this.dismissed = true)}>
            <span aria-hidden="true">&times;</span>
          </button>`
        : nothing}</div>`;
  }

  /** Posts the rating and the optional comment (PROTOCOL.md section 4) for the conversation that just ended. */
  async #submitFeedback(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const comment = (new FormData(event.target as HTMLFormElement).get('comment') as string).trim().slice(0, MAX_TEXT_LENGTH);
    try {
      await postConversationFeedback(this.#resolvedServerUrl, this.#ratedConversation!, comment ? { rating: this.#rating, comment } : { rating: this.#rating });
      this.feedbackStep = 'thanks';
    } catch (error) {
      log.error(`could not send the feedback: ${(error as Error).message}`);
      this.feedbackStep = 'failed';
    }
  }

  /** The end-of-call feedback sheet (`part="feedback"`, `feedback_mode: end` with `end_feedback.type: rating`). */
  #renderFeedback(config: WidgetConfig): TemplateResult | typeof nothing {
    const texts = this.#texts;
    const step = this.feedbackStep;
    if (!step || !config.end_feedback) return nothing;
    return html`<div part="feedback" class="feedback actions" role="group" aria-label=${texts.initiate_feedback}>
      ${step === 'rate'
        ? html`<p>${texts.initiate_feedback}</p>
            <div>
              ${[1, 2, 3, 4, 5].map(
                (n) => html`<button class="icon" type="button" aria-label="${n}/5" @click=${() => ((this.#rating = n), (this.feedbackStep = 'comment'))}>★</button>`,
              )}
            </div>`
        : step === 'comment'
          ? html`<form @submit=${this.#submitFeedback}>
              <label>${texts.request_follow_up_feedback}<textarea name="comment" rows="3" maxlength=${MAX_TEXT_LENGTH} placeholder=${texts.follow_up_feedback_placeholder}></textarea></label>
              <div class="terms-actions">
                <button class="secondary" type="button" @click=${() => (this.feedbackStep = 'rate')}>${texts.go_back}</button>
                <button class="primary" type="submit">${texts.submit}</button>
              </div>
            </form>`
          : html`<p role="status">${step === 'thanks' ? texts.thanks_for_feedback : texts.error_occurred}</p>
              ${step === 'thanks' ? html`<p>${texts.thanks_for_feedback_details}</p>` : nothing}`}
    </div>`;
  }

  #renderPanel(config: WidgetConfig): TemplateResult {
    const texts = this.#texts;
    const { phase, transcript, conversationId } = this.#conversation;
    const active = this.#conversation.active;
    const textAllowed = config.text_only || config.supports_text_only;
    const greeting = transcript.length === 0 && phase === 'idle' ? fillDynamicVariables(firstMessageFor(config, this.chosenLanguage), this.#parsedVariables) : '';
    const placeholder = phase === 'ended' ? texts.input_placeholder_new_conversation : config.text_only ? texts.input_placeholder_text_only : texts.input_placeholder;
    const expandable = config.expandable === 'always' || config.expandable === (this.#mobile.matches ? 'mobile' : 'desktop');
    const languages = offeredLanguages(config);
    const shown = config.transcript_enabled ? transcript : transcript.filter((t) => t.role === 'agent').slice(-1);
    return html`<div id="panel" part="panel" dir=${directionOf(this.chosenLanguage)} class="panel ${expandable && this.expanded ? 'expanded' : ''}" role="group" aria-label=${texts.main_label} @keydown=${this.#onPanelKeydown}>
      <div part="header" class="header">
        ${renderAvatar(config, 'large')}
        <p part="status" class="status" role="status" aria-live="polite" dir="auto"><span class=${config.show_agent_status ? '' : 'visually-hidden'}>${this.#statusText()}</span></p>
        ${config.language_selector && languages.length > 1
          ? html`<select part="language-select" aria-label=${texts.change_language} ?disabled=${active} @change=${this.#onLanguage}>
              ${languages.map((l) => html`<option value=${l} lang=${l} ?selected=${l === this.chosenLanguage}>${languageName(l)}</option>`)}
            </select>`
          : nothing}
        ${expandable
          ? html`<button part="button expand-button" class="icon" type="button" aria-label=${texts.expand} aria-pressed=${this.expanded ? 'true' : 'false'} @click=${() => (this.expanded = !this.expanded)}>
              <span aria-hidden="true">${this.expanded ? '⤡' : '⤢'}</span>
            </button>`
          : nothing}
        ${config.always_expanded
          ? nothing
          : html`<button part="button collapse-button" class="icon" type="button" aria-label=${texts.collapse} @click=${this.#toggle}>
              <span aria-hidden="true">&times;</span>
            </button>`}
      </div>
      ${config.show_conversation_id && conversationId
        ? html`<p part="conversation-id" class="conversation-id">
            <span>${texts.conversation_id}: <code>${conversationId}</code></span>
            <button part="button copy-button" class="link" type="button" aria-live="polite" @click=${this.#copyConversationId}>${this.copied ? texts.copied : texts.copy_id}</button>
          </p>`
        : nothing}
      ${renderTranscript(
        shown,
        texts,
        this.#policy!,
        greeting ? { owner: config, text: greeting } : null,
        this.#onTranscriptScroll,
        config.strip_audio_tags,
        config.feedback_mode === 'during' && active ? (entry, score) => this.#conversation.rate(entry, score) : null,
      )}
      ${this.#renderFeedback(config)}
      <div class="actions">
        ${active
          ? html`<button part="button end-button" class="primary end" type="button" @click=${() => this.#conversation.end()}>${texts.end_call}</button>`
          : textAllowed
            ? html`<button part="button start-button" class="primary start" type="button" @click=${this.#startChat}>${texts.start_chat}</button>`
            : nothing}
      </div>
      ${config.text_input_enabled && textAllowed
        ? html`<form part="composer" class="composer" @submit=${this.#onSubmit}>
            <input part="input" type="text" dir="auto" autocomplete="off" maxlength=${MAX_TEXT_LENGTH} aria-label=${texts.input_label} placeholder=${placeholder} .value=${this.draft} @input=${this.#onInput} />
            <button part="button send-button" class="primary send" type="submit" ?disabled=${!this.draft.trim()}>${texts.send_message}</button>
          </form>`
        : nothing}
      ${config.disable_banner ? nothing : html`<a part="banner" class="banner" href=${config.override_link || BANNER_LINK} target="_blank" rel="noopener noreferrer">voice-agent-widget</a>`}
      ${this.termsOpen && this.#terms ? renderTerms(this.#terms, texts, this.#policy!, () => this.#acceptTerms(), () => this.#closeTerms()) : nothing}
    </div>`;
  }

  override render(): TemplateResult | typeof nothing {
    const { status } = this.#configController;
    const config = this.#config;
    if (this.#attributeProblem || status === 'error') {
      return html`<div part="root" class="root bottom-right">
        <div part="error" class="error-state" role="alert">${renderAvatar(null)}<span>${this.#texts.error_occurred}</span></div>
      </div>`;
    }
    if (!config || status !== 'ready') return html`<div part="root" class="root bottom-right">${this.#renderLauncher(null, true)}</div>`;
    if (this.dismissed) return nothing;
    const open = this.open || config.always_expanded;
    // dir goes on the panel and the launcher, not the root: the root's own alignment follows `placement` alone.
    return html`<div part="root" class="root ${config.placement} ${config.variant} ${config.always_expanded ? 'always' : ''}" lang=${this.chosenLanguage}>
      ${open ? this.#renderPanel(config) : nothing} ${config.always_expanded ? nothing : this.#renderLauncher(config, false)}
    </div>`;
  }
}

/**
 * Reads `signed-url` (PROTOCOL.md section 3): a ws(s) URL whose query holds `agent_id` and `conversation_signature`.
 * @throws Error naming the problem when it is not one
 */
export function parseSignedUrl(value: string): { url: string; agentId: string; signature: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`signed-url ${preview(value)} is not a URL`);
  }
  const agentId = url.searchParams.get('agent_id') ?? '';
  const signature = url.searchParams.get('conversation_signature') ?? '';
  if (!/^wss?:$/.test(url.protocol) || !signature || url.username || url.password) {
    throw new Error('signed-url must be a ws(s) URL with a conversation_signature');
  }
  return { url: url.href, agentId, signature };
}

/** Reads the `dynamic-variables` attribute: a JSON object of string, number and boolean values; anything else is reported and left out. */
export function parseDynamicVariables(value: string): Record<string, string | number | boolean> {
  const parsed = parseJsonObject('dynamic-variables', value);
  const variables: Record<string, string | number | boolean> = {};
  for (const [name, variable] of Object.entries(parsed)) {
    if ((typeof variable === 'string' && variable.length <= MAX_LONG_TEXT_LENGTH) || typeof variable === 'boolean' || (typeof variable === 'number' && Number.isFinite(variable))) {
      variables[name] = variable;
    } else log.warn(`dynamic-variables.${name} must be a string of at most ${MAX_LONG_TEXT_LENGTH} characters, a number or a boolean (got ${preview(variable)}); left out.`);
  }
  return variables;
}

/** Reads the `text-contents` attribute: a JSON object of known labels with string values; anything else is reported and left out. */
export function parseTextContents(value: string): Partial<TextContents> {
  const texts: Partial<TextContents> = {};
  for (const [key, label] of Object.entries(parseJsonObject('text-contents', value))) {
    if (!(TEXT_KEYS as readonly string[]).includes(key)) log.warn(`text-contents.${key} is not a known label; ignored.`);
    else if (typeof label !== 'string' || label.length > MAX_TEXT_LENGTH) log.warn(`text-contents.${key} must be a string of at most ${MAX_TEXT_LENGTH} characters; ignored.`);
    else texts[key as keyof TextContents] = label;
  }
  return texts;
}

function parseJsonObject(attribute: string, value: string): Record<string, unknown> {
  if (!value.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(value);
    if (isRecord(parsed)) return parsed;
    log.error(`${attribute} must be a JSON object (got ${preview(parsed)}); it is ignored.`);
  } catch {
    log.error(`${attribute} is not JSON (${preview(value)}); it is ignored.`);
  }
  return {};
}

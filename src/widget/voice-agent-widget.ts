import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { conversationSocketUrl, normalizeServerUrl } from '../client/paths.js';
import type { ConversationInitiation } from '../client/protocol.js';
import type { SessionOptions } from '../client/session.js';
import { DEFAULT_TEXTS, MAX_TEXT_LENGTH } from '../config/defaults.js';
import { firstMessageFor, fillDynamicVariables, resolveTexts } from '../config/texts.js';
import { resolveTheme, themeRule } from '../config/theme.js';
import { TEXT_KEYS, type TextContents, type WidgetConfig } from '../config/types.js';
import { isRecord, preview, resolveWidgetConfig } from '../config/validate.js';
import type { LinkPolicy } from '../markdown/link-policy.js';
import { renderAvatar } from './avatar.js';
import { ConfigController } from './config-controller.js';
import { ConversationController, type ClientToolHandler } from './conversation-controller.js';
import * as log from './console.js';
import { defaultServerUrl } from './server-url.js';
import { renderTranscript } from './transcript.js';
import { tokenStyles } from './tokens.js';
import { widgetStyles } from './voice-agent-widget.styles.js';

/** Agent ids are opaque, but never empty and never longer than this. */
const MAX_AGENT_ID_LENGTH = 256;

/**
 * `<voice-agent-widget agent-id="...">`: reads the agent's public widget configuration from the Voice Agent
 * Service (PROTOCOL.md section 2), applies its styles and labels, and lets a visitor hold a conversation with the
 * agent (PROTOCOL.md section 3).
 *
 * @attr agent-id - the agent to talk to (required)
 * @attr server-url - base URL of the Voice Agent Service; default: the origin of the script that defined the element (PROTOCOL.md section 1)
 * @attr dynamic-variables - JSON object of dynamic variables sent with the conversation (values: string, number or boolean)
 * @attr text-contents - JSON object of labels that win over the configuration's `text_contents` (PROTOCOL.md section 2)
 *
 * @csspart root - the positioned wrapper of the launcher and the panel
 * @csspart launcher - the button that opens and closes the panel
 * @csspart avatar - the orb avatar
 * @csspart panel - the conversation panel
 * @csspart header - the panel's header (avatar, status, buttons)
 * @csspart status - the conversation status line (aria-live)
 * @csspart transcript - the transcript (role="log")
 * @csspart message - every transcript message; also `agent-message` / `user-message`
 * @csspart notice - a line that tells how a conversation ended
 * @csspart composer - the text input form
 * @csspart input - the text input
 * @csspart button - every button
 * @csspart error - the error state shown when the configuration cannot be read
 *
 * @cssprop --voice-agent-base - panel background (`styles.base`, legacy `bg_color`); every `styles` colour has one: --voice-agent-base-hover, -base-active, -base-border, -base-subtle, -base-primary, -base-error, -accent, -accent-hover, -accent-active, -accent-border, -accent-subtle, -accent-primary
 * @cssprop --voice-agent-focus - focus ring colour (legacy `focus_color`)
 * @cssprop --voice-agent-orb-color-1 - first orb colour (`avatar.color_1`)
 * @cssprop --voice-agent-orb-color-2 - second orb colour (`avatar.color_2`)
 * @cssprop --voice-agent-overlay-padding - distance from the viewport edge (`styles.overlay_padding`, px)
 * @cssprop --voice-agent-button-radius - also -input-radius, -bubble-radius, -sheet-radius, -compact-sheet-radius, -dropdown-sheet-radius (px)
 */
export class VoiceAgentWidget extends LitElement {
  static override styles = [tokenStyles, widgetStyles];

  private readonly configController = new ConfigController(this);
  private readonly conversation = new ConversationController(this);

  /**
   * Reactive properties, declared statically rather than with decorators: Lit's decorator runtime costs ~0.9 KB
   * gzipped of the 45 KB script-tag budget (measured with bench/size.mjs). Order as DESIGN.md rule 3: state, then attributes.
   */
  static override properties = {
    open: { state: true },
    draft: { state: true },
    agentId: { attribute: 'agent-id' },
    serverUrl: { attribute: 'server-url' },
    dynamicVariables: { attribute: 'dynamic-variables' },
    textContents: { attribute: 'text-contents' },
  };

  private get input(): HTMLInputElement | null {
    return this.renderRoot.querySelector('.composer input');
  }
  private get launcher(): HTMLButtonElement | null {
    return this.renderRoot.querySelector('.launcher');
  }

  private open = false;
  private draft = '';

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
    return this.conversation.clientToolHandler;
  }
  set clientToolHandler(handler: ClientToolHandler | null) {
    this.conversation.clientToolHandler = typeof handler === 'function' ? handler : null;
  }

  private configSheet: CSSStyleSheet | null = null;
  private themeRule = '';
  private pinnedToEnd = true;
  private parsedVariables: Record<string, string | number | boolean> = {};
  private parsedTexts: Partial<TextContents> = {};
  private attributeProblem = '';
  private policy: LinkPolicy | null = null;
  private policyFor: WidgetConfig | null = null;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.open = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // A re-added element reads its configuration again (its controllers were released on removal).
    if (this.hasUpdated && this.configController.status !== 'ready') this.loadConfig();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('dynamicVariables')) this.parsedVariables = parseDynamicVariables(this.dynamicVariables);
    if (changed.has('textContents')) this.parsedTexts = parseTextContents(this.textContents);
    if (changed.has('agentId') || changed.has('serverUrl')) this.loadConfig();
  }

  protected override updated(): void {
    this.applyTheme();
    this.followTranscript();
  }

  private loadConfig(): void {
    this.attributeProblem = '';
    const agentId = this.agentId.trim();
    if (!agentId || agentId.length > MAX_AGENT_ID_LENGTH) {
      this.attributeProblem = agentId ? `agent-id is longer than ${MAX_AGENT_ID_LENGTH} characters` : 'the agent-id attribute is missing';
      log.error(`${this.attributeProblem}; the widget cannot start.`);
      return;
    }
    let serverUrl: string;
    try {
      serverUrl = normalizeServerUrl(this.serverUrl.trim() || defaultServerUrl());
    } catch (error) {
      this.attributeProblem = (error as Error).message;
      log.error(`${this.attributeProblem}; the widget cannot start.`);
      return;
    }
    void this.configController.load(serverUrl, agentId);
  }

  private get resolvedServerUrl(): string {
    return normalizeServerUrl(this.serverUrl.trim() || defaultServerUrl());
  }

  private get texts(): TextContents {
    const config = this.configController.config;
    return config ? resolveTexts(config, config.language, this.parsedTexts) : { ...DEFAULT_TEXTS, ...this.parsedTexts };
  }

  private linkPolicy(config: WidgetConfig): LinkPolicy {
    if (this.policyFor !== config || !this.policy) {
      this.policyFor = config;
      this.policy = {
        allowedHosts: config.markdown_link_allowed_hosts,
        includeWww: config.markdown_link_include_www,
        allowHttp: config.markdown_link_allow_http,
        pageUrl: location.href,
      };
    }
    return this.policy;
  }

  /**
   * Puts the validated colours and sizes in this element's own adopted stylesheet (CSP-safe): the configuration's
   * once read, the defaults before that (loading and error states).
   */
  private applyTheme(): void {
    const root = this.shadowRoot;
    if (!root) return;
    if (!this.configSheet) {
      this.configSheet = new CSSStyleSheet();
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, this.configSheet];
    }
    const rule = themeRule(resolveTheme(this.configController.config ?? resolveWidgetConfig({}, () => {}, location.href)));
    if (rule !== this.themeRule) this.configSheet.replaceSync((this.themeRule = rule));
  }

  /** Keeps the newest transcript line in view, unless the visitor scrolled up to read. */
  private followTranscript(): void {
    const log = this.renderRoot.querySelector('.transcript');
    if (!log) return;
    if (this.pinnedToEnd) log.scrollTop = log.scrollHeight;
  }

  private onTranscriptScroll(event: Event): void {
    const log = event.currentTarget as HTMLElement;
    this.pinnedToEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
  }

  private sessionOptions(config: WidgetConfig): SessionOptions {
    const initiation: ConversationInitiation = {
      conversation_config_override: { conversation: { text_only: true } },
      dynamic_variables: this.parsedVariables,
    };
    if (config.language !== 'en') initiation.conversation_config_override!.agent = { language: config.language };
    return { url: conversationSocketUrl(this.resolvedServerUrl, this.agentId.trim()), initiation };
  }

  private toggle(): void {
    this.open = !this.open;
    void this.updateComplete.then(() => (this.open ? this.focusComposer() : this.launcher?.focus()));
  }

  private focusComposer(): void {
    (this.input ?? this.renderRoot.querySelector<HTMLElement>('.start'))?.focus();
  }

  private onPanelKeydown(event: KeyboardEvent): void {
    if (event.key === 'Escape') {
      event.stopPropagation();
      this.toggle();
    }
  }

  private startChat(): void {
    const config = this.configController.config;
    if (!config) return;
    this.conversation.start(this.sessionOptions(config));
    void this.updateComplete.then(() => this.focusComposer());
  }

  private endConversation(): void {
    this.conversation.end();
    void this.updateComplete.then(() => this.focusComposer());
  }

  private onInput(event: Event): void {
    this.draft = (event.target as HTMLInputElement).value;
    this.conversation.typing();
  }

  private onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    const config = this.configController.config;
    const text = this.draft.trim();
    if (!config || !text) return;
    this.draft = '';
    this.conversation.sendText(text, () => this.sessionOptions(config));
  }

  private statusText(texts: TextContents): string {
    switch (this.conversation.phase) {
      case 'connecting':
        return texts.connecting_status;
      case 'connected':
        return texts.chatting_status;
      default:
        // idle, and ended: how it ended is the transcript's last line (announced there once, not twice)
        return '';
    }
  }

  private renderLauncher(texts: TextContents, busy: boolean): TemplateResult {
    return html`<button
      part="launcher button"
      class="launcher"
      type="button"
      aria-expanded=${this.open ? 'true' : 'false'}
      aria-controls="panel"
      aria-busy=${busy ? 'true' : 'false'}
      ?disabled=${busy}
      @click=${this.toggle}
    >
      ${renderAvatar()}<span class="label">${busy ? texts.connecting_status : this.open ? texts.collapse : texts.main_label}</span>
    </button>`;
  }

  private renderPanel(config: WidgetConfig, texts: TextContents): TemplateResult {
    const { phase, transcript } = this.conversation;
    const active = this.conversation.active;
    const greetingText = transcript.length === 0 && phase === 'idle' ? fillDynamicVariables(firstMessageFor(config, config.language), this.parsedVariables) : '';
    const placeholder = phase === 'ended' ? texts.input_placeholder_new_conversation : config.text_only ? texts.input_placeholder_text_only : texts.input_placeholder;
    return html`<div id="panel" part="panel" class="panel" role="group" aria-label=${texts.main_label} @keydown=${this.onPanelKeydown}>
      <div part="header" class="header">
        ${renderAvatar('large')}
        <p part="status" class="status" role="status" aria-live="polite">${this.statusText(texts)}</p>
        ${active ? html`<button part="button end-button" class="end" type="button" @click=${this.endConversation}>${texts.end_call}</button>` : nothing}
        <button part="button collapse-button" class="icon collapse" type="button" aria-label=${texts.collapse} title=${texts.collapse} @click=${this.toggle}>
          <span aria-hidden="true">&times;</span>
        </button>
      </div>
      ${config.transcript_enabled || config.text_input_enabled
        ? renderTranscript(transcript, texts, this.linkPolicy(config), greetingText ? { owner: config, text: greetingText } : null, this.onTranscriptScroll)
        : nothing}
      <div class="actions">
        ${!active && config.text_input_enabled
          ? html`<button part="button start-button" class="start" type="button" @click=${this.startChat}>${texts.start_chat}</button>`
          : nothing}
      </div>
      ${config.text_input_enabled
        ? html`<form part="composer" class="composer" @submit=${this.onSubmit}>
            <input
              part="input"
              type="text"
              autocomplete="off"
              maxlength=${MAX_TEXT_LENGTH}
              aria-label=${texts.input_label}
              placeholder=${placeholder}
              .value=${this.draft}
              @input=${this.onInput}
            />
            <button part="button send-button" class="send" type="submit" ?disabled=${!this.draft.trim()}>${texts.send_message}</button>
          </form>`
        : nothing}
    </div>`;
  }

  override render(): TemplateResult {
    const texts = this.texts;
    const { status, config } = this.configController;
    if (this.attributeProblem || status === 'error') {
      return html`<div part="root" class="root bottom-right">
        <div part="error" class="error-state" role="alert">${renderAvatar()}<span>${texts.error_occurred}</span></div>
      </div>`;
    }
    if (!config || status !== 'ready') {
      return html`<div part="root" class="root bottom-right">${this.renderLauncher(texts, true)}</div>`;
    }
    return html`<div part="root" class="root ${config.placement}">
      ${this.open ? this.renderPanel(config, texts) : nothing} ${this.renderLauncher(texts, false)}
    </div>`;
  }
}

/** Reads the `dynamic-variables` attribute: a JSON object of string, number and boolean values; anything else is reported and left out. */
export function parseDynamicVariables(value: string): Record<string, string | number | boolean> {
  if (!value.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    log.error(`dynamic-variables is not JSON (${preview(value)}); no dynamic variables are sent.`);
    return {};
  }
  if (!isRecord(parsed)) {
    log.error(`dynamic-variables must be a JSON object (got ${preview(parsed)}); no dynamic variables are sent.`);
    return {};
  }
  const variables: Record<string, string | number | boolean> = {};
  for (const [name, variable] of Object.entries(parsed)) {
    if (typeof variable === 'string' || typeof variable === 'boolean' || (typeof variable === 'number' && Number.isFinite(variable))) variables[name] = variable;
    else log.warn(`dynamic-variables.${name} must be a string, number or boolean (got ${preview(variable)}); left out.`);
  }
  return variables;
}

/** Reads the `text-contents` attribute: a JSON object of known labels with string values; anything else is reported and left out. */
export function parseTextContents(value: string): Partial<TextContents> {
  if (!value.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    log.error(`text-contents is not JSON (${preview(value)}); it is ignored.`);
    return {};
  }
  if (!isRecord(parsed)) {
    log.error(`text-contents must be a JSON object (got ${preview(parsed)}); it is ignored.`);
    return {};
  }
  const texts: Partial<TextContents> = {};
  for (const [key, label] of Object.entries(parsed)) {
    if (!(TEXT_KEYS as readonly string[]).includes(key)) log.warn(`text-contents.${key} is not a known label; ignored.`);
    else if (typeof label !== 'string' || label.length > MAX_TEXT_LENGTH) log.warn(`text-contents.${key} must be a string of at most ${MAX_TEXT_LENGTH} characters; ignored.`);
    else texts[key as keyof TextContents] = label;
  }
  return texts;
}

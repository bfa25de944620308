import { LitElement, html, nothing, type TemplateResult } from 'lit';
import type { ClientTool } from '../events/before-start.js';
import { ClientToolStore, type ClientToolHandler } from './client-tools.js';
import { MAX_TEXT_LENGTH } from '../config/defaults.js';
import {
  OVERRIDE_ATTRIBUTES, attributeText, booleanAttribute, parseDynamicVariables, parseTextContents, propertyOf, textAttribute,
  type AttributeValues, type DynamicVariables,
} from '../config/attributes.js';
import type { Labels } from '../config/types.js';
import * as log from '../internal/console.js';
import { preview } from '../internal/console.js';
import type { ConversationPanel, PanelShell } from './conversation-panel.js';

/** A voice call's device: its microphone or its speaker. */
type DeviceKind = 'microphone' | 'speaker';
import { ConversationLoaderController } from './controllers/conversation-loader.js';
import { ThemeController } from './controllers/theme.js';
import { WidgetConfigController } from './controllers/widget-config.js';
import { errorState, launcher, launcherPartStyles, panelPlaceholder } from './parts/index.js';
import { sharedStyles } from './styles.js';

/**
 * `<voice-agent-widget agent-id="...">`: reads the agent's public widget configuration from the Voice Agent
 * Service (PROTOCOL.md section 2), applies its styles, labels and layout flags, and lets a visitor hold a
 * conversation with the agent (PROTOCOL.md section 3). Every attribute is a property of the camel-cased name.
 *
 * @fires voice-agent-before-start - cancelable, before a conversation opens: `detail: {mode, dynamicVariables, overrides, clientTools}` (changeable)
 * @fires voice-agent-conversation - a conversation started: `detail.conversationId`
 * @fires voice-agent-status - the status changed: `detail: {status, turn}` (turn in a voice call: listening / speaking)
 * @fires voice-agent-message - a whole message: `detail: {source: 'agent' | 'user', text, eventId, correction}`
 * @fires voice-agent-error - something failed: `detail: {code, message, serviceCode}`
 * @fires voice-agent-device - the visitor chose the call's microphone or speaker: `detail: {kind, deviceId, label}`
 * @fires voice-agent-conversation-end - it ended: `detail: {conversationId, reason, code, message}`
 *
 * @csspart root - the positioned wrapper of the launcher and the panel
 * @csspart launcher - the button that opens and closes the panel
 * @csspart dismiss-button - the button that hides the widget until the page reloads (`dismissible`)
 * @csspart avatar - the orb or picture avatar
 * @csspart panel - the conversation panel
 * @csspart header - the panel's header (avatar, language, expand and collapse buttons)
 * @csspart status - the conversation status line (role=status), above the conversation's buttons
 * @csspart language-select - the language selector
 * @csspart conversation-id - the conversation id line
 * @csspart copy-button - the button that copies the conversation id
 * @csspart transcript - the transcript (role="log")
 * @csspart message - every transcript message
 * @csspart agent-message - an agent message
 * @csspart user-message - a visitor's message
 * @csspart notice - a line that tells how a conversation ended, or a tool call's status
 * @csspart tool-status - the line shown while a client tool runs (also `notice`)
 * @csspart code-actions - the copy, download and wrap buttons under a code block of an agent message
 * @csspart copy-code-button - a code block's copy button (`copy`)
 * @csspart download-code-button - a code block's download button (`download`, a .txt file)
 * @csspart wrap-code-button - a code block's wrap button (`wrap`, long lines)
 * @csspart composer - the text input form
 * @csspart input - the text input field
 * @csspart button - every button; each also has its own part
 * @csspart start-call-button - the button that starts a voice call (`start_call`, `new_call`; `retry` after a refused, missing or busy microphone)
 * @csspart start-button - the button that starts a text conversation (`start_chat`)
 * @csspart mute-button - the microphone's mute toggle during a call (`mic_muting_enabled`, aria-pressed)
 * @csspart mode-button - the voice / text toggle during a call (`conversation_mode_toggle_enabled`)
 * @csspart orb - the voice call's orb, shown instead of the transcript when `transcript_enabled` is false
 * @csspart voice-problem - a voice failure in plain words with its way forward (role="alert")
 * @csspart voice-help - the way forward of a failure the transcript tells
 * @csspart devices-button - the device sheet's toggle during a call (aria-expanded)
 * @csspart device-sheet - the call's microphone and speaker lists
 * @csspart microphone-select - the microphones ("Default" first)
 * @csspart speaker-select - the speakers, where the engine can route sound (setSinkId)
 * @csspart send-button - the button that sends the typed text
 * @csspart end-button - the button that ends the conversation
 * @csspart expand-button - the button that expands the panel (`expandable`)
 * @csspart collapse-button - the button that closes the panel
 * @csspart accept-terms-button - the terms dialog's accept button
 * @csspart decline-terms-button - the terms dialog's decline button
 * @csspart banner - the "powered by" line
 * @csspart terms - the terms dialog
 * @csspart error - the error state shown when the configuration cannot be read
 * @csspart resend-button - the button under a visitor's message that did not reach the agent (`send_again`)
 * @csspart retry-button - the error state's button that reads the configuration again (after a failure time may mend)
 * @csspart feedback - the end-of-call rating, a modal dialog (`feedback_mode: end`)
 * @csspart star-button - each of the five star buttons of the end-of-call rating (named by the `rating_stars` label: "1 out of 5 stars" …)
 * @csspart close-feedback-button - closes the end-of-call rating's dialog (named `dismiss`)
 * @csspart back-button - the rating sheet's comment step: back to the stars (`go_back`)
 * @csspart submit-button - the rating sheet's comment step: send the rating and comment (`submit`)
 * @csspart rating - the like and dislike buttons right after an agent message, under its bubble (`feedback_mode: during`)
 * @csspart like-button - the like button under an agent message (named by the `like` label)
 * @csspart dislike-button - the dislike button under an agent message (named by the `dislike` label)
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
  static override styles = [sharedStyles, ...launcherPartStyles];

  /**
   * The reactive properties (Lit's `static properties`, no decorator runtime in the first script): each attribute's
   * property (declared with its type and JSDoc below) and the internal state. The property is the one source of truth:
   * an attribute converts into it (the JSON attributes into objects, the boolean ones into booleans), and the
   * properties a page may style or select on (`variant`, `placement`, `language`, the layout booleans) reflect back.
   */
  static override properties = {
    panelOpen: { state: true },
    expanded: { state: true },
    dismissed: { state: true },
    agentId: { attribute: 'agent-id' },
    serverUrl: { attribute: 'server-url' },
    signedUrl: { attribute: 'signed-url' },
    dynamicVariables: { attribute: 'dynamic-variables', converter: { fromAttribute: parseDynamicVariables } },
    textContents: { attribute: 'text-contents', converter: { fromAttribute: parseTextContents } },
    variant: { reflect: true, converter: textAttribute },
    placement: { reflect: true, converter: textAttribute },
    defaultExpanded: { attribute: 'default-expanded', reflect: true, converter: booleanAttribute },
    alwaysExpanded: { attribute: 'always-expanded', reflect: true, converter: booleanAttribute },
    dismissible: { reflect: true, converter: booleanAttribute },
    transcript: { reflect: true, converter: booleanAttribute },
    textInput: { attribute: 'text-input', reflect: true, converter: booleanAttribute },
    micMuting: { attribute: 'mic-muting', reflect: true, converter: booleanAttribute },
    language: { reflect: true, converter: textAttribute },
    markdownLinkAllowedHosts: { attribute: 'markdown-link-allowed-hosts' },
    avatarImageUrl: { attribute: 'avatar-image-url' },
    avatarOrbColor1: { attribute: 'avatar-orb-color-1' },
    avatarOrbColor2: { attribute: 'avatar-orb-color-2' },
    overrideFirstMessage: { attribute: 'override-first-message' },
    overrideLanguage: { attribute: 'override-language' },
    overridePrompt: { attribute: 'override-prompt' },
    overrideVoiceId: { attribute: 'override-voice-id' },
    overrideTextOnly: { attribute: 'override-text-only', converter: booleanAttribute },
    userId: { attribute: 'user-id' },
  };

  readonly #config = new WidgetConfigController(this, () => ({
    agentId: this.agentId, serverUrl: this.serverUrl, signedUrl: this.signedUrl, dynamicVariables: this.dynamicVariables,
    textContents: this.textContents, attributes: this.#attributes(),
  }));
  /** The page's client tools and handler: the one store, filled here (also before the conversation part loads), read by the conversation. */
  readonly #tools = new ClientToolStore();
  /** What the element lends its conversation panel (conversation-panel.ts). */
  readonly #shell: PanelShell = {
    host: this,
    tools: this.#tools,
    attributes: () => this.#attributes(),
    toggle: () => this.#toggle(),
    onKeydown: (event) => this.#onPanelKeydown(event),
    chooseLanguage: (language) => this.#config.chooseLanguage(language),
    value: () => this.#config.value,
    expanded: () => this.expanded,
    setExpanded: (expanded) => void (this.expanded = expanded),
  };
  /** The conversation side (panel, conversation, voice), loaded on intent: script-tag build's second chunk. */
  readonly #loader = new ConversationLoaderController(this, this.#shell, (panel) => this.#ready(panel));

  /** The visitor opened (true) or closed (false) the panel; null until then: `default_expanded` decides. */
  private panelOpen: boolean | null = null;
  /** Expanded to the viewport (`expandable`); the panel's expand button and `expand()` set it. */
  private expanded = false;
  /** Dismissed (`dismissible`) until the page reloads. */
  private dismissed = false;

  /** The devices the page set (`microphoneId`, `speakerId`), handed to the conversation part once it has loaded. */
  readonly #devices: Partial<Record<DeviceKind, string>> = {};
  /** The panel was opened from the launcher before the conversation part had loaded: its first control takes focus once it has. */
  #focusOnReady = false;
  /** The property values already reported as unusable, by attribute: each is told once, not on every update. */
  readonly #reported = new Map<string, unknown>();
  /** The property values `#attributes()` last read, and what it made of them. */
  #attributeText: [values: unknown[], text: AttributeValues] | null = null;

  /** The agent's id (SERVICE-INTERFACE.md 2.11 `agent_id`); required unless `signed-url` holds it. */
  agentId = '';
  /** Base URL of the service, `http(s)://host[:port][/prefix]` (PROTOCOL.md section 1); empty: the defining script's origin. */
  serverUrl = '';
  /** A ws(s) URL with `agent_id` and `conversation_signature` for a private agent (PROTOCOL.md section 3). */
  signedUrl: string | null = null;
  /**
   * Dynamic variables (PROTOCOL.md section 3, initiation `dynamic_variables`): name → string (at most 20000 characters),
   * number or boolean. Set it as an object; the `dynamic-variables` attribute holds its JSON. Bad values are reported in
   * the console and left out.
   */
  dynamicVariables: DynamicVariables = {};
  /**
   * Labels that win over the configuration's `text_contents` (PROTOCOL.md section 2; also the widget's own, `dismiss`,
   * `like`, `dislike`, …): label → string. Set it as an object; the `text-contents` attribute holds its JSON.
   */
  textContents: Partial<Labels> = {};
  /** `tiny`, `compact` or `full`; overrides `variant` (PROTOCOL.md section 2). */
  variant: 'tiny' | 'compact' | 'full' | null = null;
  /** `top-left`, `top`, `top-right`, `bottom-left`, `bottom`, `bottom-right`; overrides `placement`. */
  placement: 'top-left' | 'top' | 'top-right' | 'bottom-left' | 'bottom' | 'bottom-right' | null = null;
  /** True, false, or null for the configuration's value (attribute: present, `true`, `false`); overrides `default_expanded`. */
  defaultExpanded: boolean | null = null;
  /** True, false, or null for the configuration's value (attribute: present, `true`, `false`); overrides `always_expanded`. */
  alwaysExpanded: boolean | null = null;
  /** True, false, or null for the configuration's value (attribute: present, `true`, `false`); overrides `dismissible`. */
  dismissible: boolean | null = null;
  /** True, false, or null for the configuration's value (attribute: present, `true`, `false`); overrides `transcript_enabled`. */
  transcript: boolean | null = null;
  /** True, false, or null for the configuration's value (attribute: present, `true`, `false`); overrides `text_input_enabled`. */
  textInput: boolean | null = null;
  /** True, false, or null for the configuration's value (attribute: present, `true`, `false`); overrides `mic_muting_enabled`. */
  micMuting: boolean | null = null;
  /** A language tag (`de`, `pt-br`); overrides `language` and the visitor's browser language. */
  language: string | null = null;
  /** Comma-separated hosts for links in agent replies; overrides `markdown_link_allowed_hosts`. */
  markdownLinkAllowedHosts: string | null = null;
  /** An https or same-origin picture; sets `avatar.type` to `image` and `custom_avatar_path`. */
  avatarImageUrl: string | null = null;
  /** A CSS colour; overrides `avatar.color_1`. */
  avatarOrbColor1: string | null = null;
  /** A CSS colour; overrides `avatar.color_2`. */
  avatarOrbColor2: string | null = null;
  /** Sent as the conversation's first message (SERVICE-INTERFACE.md 2.8 overrides). */
  overrideFirstMessage: string | null = null;
  /** A language tag sent as the conversation's language (SERVICE-INTERFACE.md 2.8 overrides). */
  overrideLanguage: string | null = null;
  /** Sent as the agent's prompt (SERVICE-INTERFACE.md 2.8 overrides). */
  overridePrompt: string | null = null;
  /** Sent as the TTS voice id (SERVICE-INTERFACE.md 2.8 overrides). */
  overrideVoiceId: string | null = null;
  /** True or false (attribute: present, `true`, `false`), sent as `conversation.text_only`; null: true (SERVICE-INTERFACE.md 2.8 overrides). */
  overrideTextOnly: boolean | null = null;
  /** The visitor's id for the agent owner (initiation `user_id`, at most 256 characters). */
  userId: string | null = null;

  constructor() {
    super();
    // The theme's adopted sheet (kept by the controller; nothing here reads it).
    new ThemeController(this, () => this.#config.value?.config ?? null);
  }

  /** Removed, the panel closes; moved in the page (removed and inserted again in one task), it stays as it was. */
  override disconnectedCallback(): void {
    super.disconnectedCallback();
    queueMicrotask(() => this.isConnected || (this.panelOpen = false));
  }

  /** A panel to show (open, `default_expanded`, `always_expanded`) needs the conversation part: it loads at once. */
  protected override willUpdate(): void {
    this.#loader.createIfLoaded();
    const config = this.#config.value?.config;
    if (config && (this.#open || config.always_expanded) && this.#loader.status === 'idle') this.#intent();
  }

  /** Once the launcher is usable, the conversation part loads when the browser is idle (not before: the configuration goes first). */
  protected override updated(): void {
    if (this.#config.value) this.#loader.preloadWhenIdle();
  }

  /**
   * The override and conversation attributes as their properties hold them, as text (`attributeText`: null when absent;
   * a value of the wrong type is reported once and reads as absent).
   */
  #attributes(): AttributeValues {
    // Made again only when a property changed: each update asks (a call updates the element often).
    const values = OVERRIDE_ATTRIBUTES.map((name): unknown => this[propertyOf(name) as keyof this]);
    if (this.#attributeText?.[0].every((value, i) => value === values[i])) return this.#attributeText[1];
    const text = Object.fromEntries(OVERRIDE_ATTRIBUTES.map((name, i) => [name, attributeText(name, values[i], (message) => {
      if (this.#reported.get(name) !== values[i]) log.warn(message);
      this.#reported.set(name, values[i]);
    })]));
    this.#attributeText = [values, text];
    return text;
  }

  get #open(): boolean {
    return this.panelOpen ?? this.#config.value?.config.default_expanded ?? false;
  }

  /** The visitor (or the page) shows intent to talk: the conversation part loads now, not at idle. */
  readonly #intent = (): void => void this.#loader.load().catch(() => {});

  /** The conversation part has loaded: it takes the devices the page set, and focus when the visitor opened the panel. */
  #ready(panel: ConversationPanel): void {
    for (const kind in this.#devices) void panel.chooseDevice(kind as DeviceKind, this.#devices[kind as DeviceKind]!);
    if (!this.#focusOnReady) return;
    this.#focusOnReady = false;
    // Unless the visitor has gone on elsewhere in the page meanwhile.
    const focus = document.activeElement;
    if (focus !== this && focus !== document.body && focus !== null) return;
    void this.updateComplete.then(() => this.#open && panel.firstControl()?.focus());
  }

  #toggle(): void {
    this.panelOpen = !this.#open;
    if (this.panelOpen && !this.#loader.panel) {
      this.#focusOnReady = true;
      this.#intent();
    }
    void this.updateComplete.then(() => (this.panelOpen ? this.#loader.panel?.firstControl() : this.renderRoot.querySelector<HTMLElement>('.launcher'))?.focus());
  }

  readonly #onToggle = (): void => this.#toggle();

  /** Escape in the panel (or its loading placeholder) closes it, unless it is always shown (`always_expanded`). */
  readonly #onPanelKeydown = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && !this.#config.value?.config.always_expanded) {
      event.stopPropagation();
      this.#toggle();
    }
  };

  /**
   * The page's client tools (PROTOCOL.md section 3, `client_tool_call`): name → function of the call's `parameters`
   * resolving to its result (a string, or JSON of anything else); a throw, a rejection or no answer within 10 s
   * (`CLIENT_TOOL_TIMEOUT_MS`) is answered with `is_error: true`, and so is a tool of no name here. Values that are not
   * functions are left out. A conversation's own tools (`voice-agent-before-start`) come first, `clientToolHandler` last.
   */
  get clientTools(): Record<string, ClientTool> {
    return this.#tools.page;
  }
  set clientTools(tools: Record<string, ClientTool>) {
    this.#tools.page = tools;
  }

  /**
   * Adds one client tool (see `clientTools`); works before the configuration is read.
   * @returns a function that removes it again
   * @throws TypeError when `name` is not a non-empty string or `tool` not a function
   */
  registerClientTool(name: string, tool: ClientTool): () => void {
    return this.#tools.register(name, tool);
  }

  /** Opens the panel (as the launcher does). Before the configuration is read, the panel opens once it is. */
  open(): void {
    this.panelOpen = true;
    this.#intent();
  }

  /** Closes the panel (not with `always_expanded`). */
  close(): void {
    this.panelOpen = false;
  }

  /** Opens the panel expanded to the viewport, where `expandable` allows it (PROTOCOL.md section 2). */
  expand(): void {
    this.panelOpen = this.expanded = true;
    this.#intent();
  }

  /** Leaves the expanded size (the panel stays open). */
  collapse(): void {
    this.expanded = false;
  }

  /**
   * Starts a conversation (PROTOCOL.md section 3): `text`, or `voice` (a call: the microphone is asked first); by
   * default text when the agent takes text, else voice. After the terms when they are still to be accepted, and after
   * `voice-agent-before-start`. Before the configuration is read, it waits for it (and for the conversation part).
   * @returns the conversation id once the handshake is done (the one running, if any)
   * @throws Error when the configuration cannot be read, the conversation part cannot be loaded, the agent does not take
   * that mode, the terms are declined, the page cancels the start, the microphone is refused, or the conversation fails
   * before its handshake
   */
  async startConversation({ mode }: { mode?: 'text' | 'voice' } = {}): Promise<string> {
    const loading = this.#loader.load();
    const value = await this.#config.settled();
    return (await loading).startConversation(value, mode);
  }

  /** Ends the conversation or call that runs (as `end_call` does); nothing when none runs. */
  endConversation(): void {
    this.#loader.panel?.endConversation();
  }

  /**
   * Sends the visitor's text (`user_message`), as typing it would: starts a text conversation first when none runs
   * (see `startConversation`). Before the configuration is read, it waits for it.
   * @throws TypeError for text that is not a non-empty string of at most 2000 characters; Error as `startConversation`
   */
  async sendUserMessage(text: string): Promise<void> {
    if (typeof text !== 'string' || !text.trim() || text.length > MAX_TEXT_LENGTH) throw new TypeError(`sendUserMessage: a non-empty string of at most ${MAX_TEXT_LENGTH} characters`);
    const loading = this.#loader.load();
    const value = await this.#config.settled();
    await (await loading).sendUserMessage(value, text.trim());
  }

  /**
   * Sends a `contextual_update` (PROTOCOL.md section 3): information for the agent that asks for no reply, in the
   * conversation that runs.
   * @throws TypeError for text that is not a non-empty string of at most 2000 characters; Error when no conversation runs
   */
  async sendContextualUpdate(text: string): Promise<void> {
    if (typeof text !== 'string' || !text.trim() || text.length > MAX_TEXT_LENGTH) throw new TypeError(`sendContextualUpdate: a non-empty string of at most ${MAX_TEXT_LENGTH} characters`);
    const panel = this.#loader.panel;
    if (!panel) throw new Error('sendContextualUpdate: no conversation runs');
    panel.sendContextualUpdate(text);
  }

  /**
   * The microphone of a voice call: a `deviceId` of `navigator.mediaDevices.enumerateDevices()` ('' for the browser's
   * default), as the visitor chose it in the call's device sheet or the page set it. Setting it during a call moves
   * capture there without ending the call; otherwise the next call asks for it (and, once a call was started, it is
   * kept for the site). Reads '' (or what the page set) until the conversation part has loaded. A value that is not a
   * string of at most 512 characters is told in the console and ignored; a device that cannot be used is told there
   * too, and nothing changes. Each change is told with `voice-agent-device`.
   */
  get microphoneId(): string {
    return this.#device('microphone');
  }
  set microphoneId(deviceId: string) {
    this.#device('microphone', deviceId);
  }

  /**
   * The speaker of a voice call (`setSinkId` on its output, where the engine has it; elsewhere '' and setting it does
   * nothing): as `microphoneId`, a `deviceId` ('' for the default), moved to at once.
   */
  get speakerId(): string {
    return this.#device('speaker');
  }
  set speakerId(deviceId: string) {
    this.#device('speaker', deviceId);
  }

  /** Reads the device of `kind`, or (with `deviceId`) sets it: see `microphoneId`. */
  #device(kind: DeviceKind, deviceId?: unknown): string {
    const panel = this.#loader.panel;
    if (deviceId === undefined) return panel?.deviceId(kind) ?? this.#devices[kind] ?? '';
    if (typeof deviceId === 'string' && deviceId.length <= 512) void panel?.chooseDevice(kind, (this.#devices[kind] = deviceId));
    else log.warn(`${kind}Id must be a device id of at most 512 characters (got ${preview(deviceId)}); ignored.`);
    return '';
  }

  /**
   * Answers the agent's `client_tool_call`s (PROTOCOL.md section 3): resolves to the result text; a rejection is sent
   * with `is_error: true`. Without one, every tool call is answered as an unknown tool.
   */
  get clientToolHandler(): ClientToolHandler | null {
    return this.#tools.handler;
  }
  set clientToolHandler(handler: ClientToolHandler | null) {
    this.#tools.handler = handler;
  }

  override render(): TemplateResult | typeof nothing {
    const value = this.#config.value;
    const texts = this.#config.texts;
    const onDismiss = (): void => void (this.dismissed = true);
    if (this.#config.status === 'error') return errorState({ texts, onRetry: this.#config.retryable ? () => this.#config.retry() : null });
    if (!value) {
      return html`<div part="root" class="root bottom-right">${launcher({ config: null, texts, language: '', open: false, busy: true, onToggle: this.#onToggle, onIntent: this.#intent, onDismiss })}</div>`;
    }
    if (this.dismissed) return nothing;
    const { config, language } = value;
    const panel = this.#loader.panel;
    const shown = this.#open || config.always_expanded;
    // dir goes on the panel and the launcher, not the root: the root's own alignment follows `placement` alone.
    return html`<div part="root" class="root ${config.placement} ${config.variant} ${config.always_expanded ? 'always' : ''} ${panel?.live ? 'live' : ''}" lang=${language}>
      ${!shown
        ? nothing
        : panel
          ? panel.render(value)
          : panelPlaceholder({ texts, language, failed: this.#loader.status === 'failed', onRetry: this.#intent, onKeydown: this.#onPanelKeydown })}
      ${config.always_expanded ? nothing : launcher({ config, texts, language, open: this.#open, busy: false, onToggle: this.#onToggle, onIntent: this.#intent, onDismiss })}
    </div>`;
  }
}

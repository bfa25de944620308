import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { SessionOptions } from '../client/session.js';
import { VoiceAgentBeforeStartEvent, type ClientTool } from '../events/before-start.js';
import type { VoiceAgentConversationEndEvent } from '../events/conversation-end.js';
import type { VoiceAgentConversationEvent } from '../events/conversation.js';
import { MAX_TEXT_LENGTH } from '../config/defaults.js';
import { OVERRIDE_ATTRIBUTES, propertyOf, type AttributeValues } from '../config/attributes.js';
import { conversationInitiation, readBeforeStart } from '../config/initiation.js';
import { offeredLanguages } from '../config/language.js';
import { fillDynamicVariables, firstMessageFor } from '../config/texts.js';
import * as log from '../internal/console.js';
import { ClipboardController } from './controllers/clipboard.js';
import { ConversationController, type ClientToolHandler } from './controllers/conversation.js';
import { FeedbackController } from './controllers/feedback.js';
import { FollowTranscriptController } from './controllers/follow-transcript.js';
import { MediaQueryController } from './controllers/media-query.js';
import { TermsController } from './controllers/terms.js';
import { ThemeController } from './controllers/theme.js';
import { VoiceController } from './controllers/voice.js';
import { WidgetConfigController, type WidgetConfigValue } from './controllers/widget-config.js';
import {
  audioOrb, banner, composer, conversationActions, conversationId, errorState, feedbackSheet, header, launcher, panel, partStyles, statusLabel,
  termsDialog, transcript, voiceControls, voiceProblem,
} from './parts/index.js';
import { sharedStyles } from './styles.js';

/** A conversation ready to open: its socket and initiation, and the client tools the page gave for it. */
interface Prepared {
  options: SessionOptions;
  tools: Record<string, ClientTool>;
}

/** Below this viewport width (px) the device counts as mobile for `expandable` (PROTOCOL.md section 2). */
const MOBILE_QUERY = '(max-width: 640px)';

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
 * @csspart code-actions - the copy, download and wrap buttons under a code block of an agent message
 * @csspart composer - the text input form
 * @csspart input - the text input field
 * @csspart button - every button; each also has its own part
 * @csspart start-call-button - the button that starts a voice call (`start_call`, `new_call`)
 * @csspart start-button - the button that starts a text conversation (`start_chat`)
 * @csspart mute-button - the microphone's mute toggle during a call (`mic_muting_enabled`, aria-pressed)
 * @csspart mode-button - the voice / text toggle during a call (`conversation_mode_toggle_enabled`)
 * @csspart orb - the voice call's orb, shown instead of the transcript when `transcript_enabled` is false
 * @csspart voice-problem - a voice failure in plain words (role="alert")
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
 * @csspart feedback - the end-of-call rating sheet (`feedback_mode: end`)
 * @csspart star-button - each of the five star buttons of the end-of-call rating (named `1/5` … `5/5`)
 * @csspart rating - the like and dislike buttons under an agent message (`feedback_mode: during`)
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
  static override styles = [sharedStyles, ...partStyles];

  readonly #config = new WidgetConfigController(this, () => ({
    agentId: this.agentId, serverUrl: this.serverUrl, signedUrl: this.signedUrl, dynamicVariables: this.dynamicVariables,
    textContents: this.textContents, attributes: this.#attributes(),
  }));
  readonly #conversation = new ConversationController(this);
  readonly #feedback = new FeedbackController(this);
  readonly #follow = new FollowTranscriptController(this, '.transcript');
  readonly #terms = new TermsController(this, () => this.#firstControl());
  readonly #clipboard = new ClipboardController(this);
  readonly #mobile = new MediaQueryController(this, MOBILE_QUERY);
  readonly #voice = new VoiceController(this, '.root');

  /** The visitor opened (true) or closed (false) the panel; null until then: `default_expanded` decides. */
  @state() private panelOpen: boolean | null = null;
  @state() private expanded = false;
  /** Dismissed (`dismissible`) until the page reloads. */
  @state() private dismissed = false;
  /** What the visitor typed and has not sent. */
  @state() private draft = '';

  /** The agent's id (SERVICE-INTERFACE.md 2.11 `agent_id`); required unless `signed-url` holds it. */
  @property({ attribute: 'agent-id' }) agentId = '';
  /** Base URL of the service, `http(s)://host[:port][/prefix]` (PROTOCOL.md section 1); empty: the defining script's origin. */
  @property({ attribute: 'server-url' }) serverUrl = '';
  /** A ws(s) URL with `agent_id` and `conversation_signature` for a private agent (PROTOCOL.md section 3). */
  @property({ attribute: 'signed-url' }) signedUrl: string | null = null;
  /** JSON object of dynamic variables, string, number or boolean values (PROTOCOL.md section 3, initiation `dynamic_variables`). */
  @property({ attribute: 'dynamic-variables' }) dynamicVariables = '';
  /** JSON object of labels that win over the configuration's `text_contents` (PROTOCOL.md section 2; also `dismiss`, `like`, `dislike`). */
  @property({ attribute: 'text-contents' }) textContents = '';
  /** `tiny`, `compact` or `full`; overrides `variant` (PROTOCOL.md section 2). */
  @property() variant: string | null = null;
  /** `top-left`, `top`, `top-right`, `bottom-left`, `bottom`, `bottom-right`; overrides `placement`. */
  @property() placement: string | null = null;
  /** Boolean (`true` / `false` / present); overrides `default_expanded`. */
  @property({ attribute: 'default-expanded' }) defaultExpanded: string | null = null;
  /** Boolean (`true` / `false` / present); overrides `always_expanded`. */
  @property({ attribute: 'always-expanded' }) alwaysExpanded: string | null = null;
  /** Boolean (`true` / `false` / present); overrides `dismissible`. */
  @property() dismissible: string | null = null;
  /** Boolean (`true` / `false` / present); overrides `transcript_enabled`. */
  @property() transcript: string | null = null;
  /** Boolean (`true` / `false` / present); overrides `text_input_enabled`. */
  @property({ attribute: 'text-input' }) textInput: string | null = null;
  /** Boolean (`true` / `false` / present); overrides `mic_muting_enabled`. */
  @property({ attribute: 'mic-muting' }) micMuting: string | null = null;
  /** A language tag (`de`, `pt-br`); overrides `language` and the visitor's browser language. */
  @property() language: string | null = null;
  /** Comma-separated hosts for links in agent replies; overrides `markdown_link_allowed_hosts`. */
  @property({ attribute: 'markdown-link-allowed-hosts' }) markdownLinkAllowedHosts: string | null = null;
  /** An https or same-origin picture; sets `avatar.type` to `image` and `custom_avatar_path`. */
  @property({ attribute: 'avatar-image-url' }) avatarImageUrl: string | null = null;
  /** A CSS colour; overrides `avatar.color_1`. */
  @property({ attribute: 'avatar-orb-color-1' }) avatarOrbColor1: string | null = null;
  /** A CSS colour; overrides `avatar.color_2`. */
  @property({ attribute: 'avatar-orb-color-2' }) avatarOrbColor2: string | null = null;
  /** Sent as the conversation's first message (SERVICE-INTERFACE.md 2.8 overrides). */
  @property({ attribute: 'override-first-message' }) overrideFirstMessage: string | null = null;
  /** A language tag sent as the conversation's language (SERVICE-INTERFACE.md 2.8 overrides). */
  @property({ attribute: 'override-language' }) overrideLanguage: string | null = null;
  /** Sent as the agent's prompt (SERVICE-INTERFACE.md 2.8 overrides). */
  @property({ attribute: 'override-prompt' }) overridePrompt: string | null = null;
  /** Sent as the TTS voice id (SERVICE-INTERFACE.md 2.8 overrides). */
  @property({ attribute: 'override-voice-id' }) overrideVoiceId: string | null = null;
  /** Boolean (`true` / `false` / present), sent as `conversation.text_only`; default true (SERVICE-INTERFACE.md 2.8 overrides). */
  @property({ attribute: 'override-text-only' }) overrideTextOnly: string | null = null;
  /** The visitor's id for the agent owner (initiation `user_id`, at most 256 characters). */
  @property({ attribute: 'user-id' }) userId: string | null = null;

  constructor() {
    super();
    new ThemeController(this, () => this.#config.value?.config ?? null);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.panelOpen = false;
  }

  /** The override and conversation attributes, as their properties hold them (null when absent). */
  #attributes(): AttributeValues {
    return Object.fromEntries(OVERRIDE_ATTRIBUTES.map((name) => [name, this[propertyOf(name) as keyof this] as string | null]));
  }

  get #open(): boolean {
    return this.panelOpen ?? this.#config.value?.config.default_expanded ?? false;
  }

  /**
   * The conversation's initiation and socket (PROTOCOL.md section 3) from the configuration and the attributes, as the
   * page's `voice-agent-before-start` leaves them (its tools too); null when the page cancelled the start.
   */
  #prepare({ config, agentLanguage, language, dynamicVariables, endpoint }: WidgetConfigValue, mode: 'text' | 'voice'): Prepared | null {
    const initiation = conversationInitiation({ config, agentLanguage, language, dynamicVariables, voice: mode === 'voice', attributes: this.#attributes() }, log.warn);
    const event = new VoiceAgentBeforeStartEvent({
      mode, dynamicVariables: { ...initiation.dynamic_variables }, overrides: structuredClone(initiation.conversation_config_override ?? {}), clientTools: {},
    });
    if (!this.dispatchEvent(event)) return null;
    const { dynamicVariables: variables, overrides, clientTools } = readBeforeStart(event.detail);
    return { options: { url: endpoint.socketUrl, initiation: { ...initiation, dynamic_variables: variables, conversation_config_override: overrides } }, tools: clientTools };
  }

  readonly #toggle = (): void => {
    this.panelOpen = !this.#open;
    void this.updateComplete.then(() => (this.panelOpen ? this.#firstControl() : this.renderRoot.querySelector<HTMLElement>('.launcher'))?.focus());
  };

  /** What takes focus when the panel opens: the text input, else the first start button. */
  #firstControl(): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>('.composer input') ?? this.renderRoot.querySelector<HTMLElement>('.actions button');
  }

  readonly #onPanelKeydown = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && !this.#config.value?.config.always_expanded && !this.#terms.open) {
      event.stopPropagation();
      this.#toggle();
    }
  };

  /**
   * Starts a text conversation or a voice call (PROTOCOL.md section 3, "Voice"), after the terms when they are still to
   * be accepted; `done(started)` tells whether it started (false: declined terms or a cancelled start).
   */
  #start(value: WidgetConfigValue, mode: 'text' | 'voice', done?: (started: boolean) => void): void {
    const start = (): void => {
      const prepared = this.#prepare(value, mode);
      if (prepared && mode === 'voice') void this.#voice.start(this.#conversation, prepared.options, prepared.tools).then((started) => done?.(started));
      else if (prepared) this.#conversation.start(prepared.options, prepared.tools);
      if (!prepared || mode === 'text') done?.(!!prepared);
    };
    this.#terms.run(value.terms, start, () => done?.(false));
  }

  /**
   * Sends the draft (or runs `deliver`: a message sent again); starts a text conversation first (after the terms) when
   * none runs.
   */
  #send(value: WidgetConfigValue, deliver?: () => void): void {
    const text = this.draft.trim();
    // While a call asks for the microphone, the draft waits for the call's conversation.
    if ((!text && !deliver) || (this.#voice.state === 'starting' && !this.#conversation.active)) return;
    const send = (): void => {
      if (!this.#conversation.active) {
        const prepared = this.#prepare(value, 'text');
        if (!prepared) return; // cancelled by the page: nothing is sent, the draft stays
        this.#conversation.start(prepared.options, prepared.tools);
      }
      if (!deliver) this.draft = '';
      (deliver ?? (() => this.#conversation.sendText(text)))();
    };
    if (this.#conversation.active) send();
    else this.#terms.run(value.terms, send);
  }

  #panel(value: WidgetConfigValue): TemplateResult {
    const { config, texts, language, linkPolicy, terms } = value;
    const conversation = this.#conversation;
    const voice = this.#voice;
    const { status, transcript: entries, conversationId: id } = conversation;
    const call = voice.state !== 'off';
    const active = conversation.active || call;
    const textAllowed = config.text_only || config.supports_text_only;
    const greeting = entries.length === 0 && status === 'idle' ? fillDynamicVariables(firstMessageFor(config, language), value.dynamicVariables) : '';
    const placeholder = status === 'ended' ? texts.input_placeholder_new_conversation : config.text_only ? texts.input_placeholder_text_only : texts.input_placeholder;
    const expandable = config.expandable === 'always' || config.expandable === (this.#mobile.matches ? 'mobile' : 'desktop');
    const rated = status === 'ended' && id && config.feedback_mode === 'end' && config.end_feedback ? id : null;
    return panel({ texts, language, expanded: expandable && this.expanded, onKeydown: this.#onPanelKeydown, content: [
      header({
        config, texts, language, languages: offeredLanguages(config), active, expandable, expanded: this.expanded,
        status: statusLabel(status, call && !voice.textMode ? voice.turn : null, call),
        onLanguage: (l) => this.#config.chooseLanguage(l), onExpand: () => (this.expanded = !this.expanded), onCollapse: this.#toggle,
      }),
      config.show_conversation_id && id
        ? conversationId({ texts, conversationId: id, copied: this.#clipboard.copied, onCopy: () => void this.#clipboard.copy(id, 'conversation id') })
        : nothing,
      call && !config.transcript_enabled
        ? audioOrb({ turn: voice.turn })
        : transcript({
            entries: config.transcript_enabled ? entries : entries.filter((t) => t.role === 'agent').slice(-1), texts, linkPolicy,
            greeting: greeting ? { owner: config, text: greeting } : null, stripTags: config.strip_audio_tags, onScroll: this.#follow.onScroll,
            onRate: config.feedback_mode === 'during' && conversation.active ? (entry, score) => conversation.rate(entry, score) : null,
            onResend: (entry) => this.#send(value, () => conversation.resend(entry)),
          }),
      // A failure is told once: as the transcript's notice when the transcript shows it, else as an alert.
      voice.problem && !(config.transcript_enabled && entries.some((entry) => entry.notice === voice.problem))
        ? voiceProblem({ texts, problem: voice.problem })
        : nothing,
      rated
        ? feedbackSheet({
            step: this.#feedback.step(rated), texts, onRate: (n) => this.#feedback.rate(rated, n), onBack: () => this.#feedback.back(),
            onSubmit: (comment) => void this.#feedback.submit(value.endpoint.serverUrl, comment),
          })
        : nothing,
      conversationActions({
        texts, active, voice: !config.text_only, text: textAllowed, ended: status === 'ended',
        controls: call ? voiceControls({ config, texts, muted: voice.muted, textMode: voice.textMode, onMute: () => voice.toggleMute(), onTextMode: () => voice.toggleTextMode() }) : nothing,
        onStartCall: () => this.#start(value, 'voice'), onStart: () => this.#start(value, 'text'), onEnd: () => (call ? voice.end() : conversation.end()),
      }),
      config.text_input_enabled && (textAllowed || call)
        ? composer({
            texts, placeholder, draft: this.draft, onSubmit: () => this.#send(value),
            onInput: (text) => ((this.draft = text), conversation.typing()),
          })
        : nothing,
      banner({ config }),
      this.#terms.open && terms
        ? termsDialog({ terms, texts, linkPolicy, onAccept: () => this.#terms.accept(terms), onDecline: () => this.#terms.close() })
        : nothing,
    ] });
  }

  /**
   * The page's client tools (PROTOCOL.md section 3, `client_tool_call`): name → function of the call's `parameters`
   * resolving to its result (a string, or JSON of anything else); a throw, a rejection or no answer within 10 s
   * (`CLIENT_TOOL_TIMEOUT_MS`) is answered with `is_error: true`, and so is a tool of no name here. Values that are not
   * functions are left out. A conversation's own tools (`voice-agent-before-start`) come first, `clientToolHandler` last.
   */
  get clientTools(): Record<string, ClientTool> {
    return this.#conversation.clientTools;
  }
  set clientTools(tools: Record<string, ClientTool>) {
    this.#conversation.clientTools = Object.fromEntries(Object.entries(tools && typeof tools === 'object' ? tools : {}).filter(([, tool]) => typeof tool === 'function'));
  }

  /**
   * Adds one client tool (see `clientTools`); works before the configuration is read.
   * @returns a function that removes it again
   * @throws TypeError when `name` is not a non-empty string or `tool` not a function
   */
  registerClientTool(name: string, tool: ClientTool): () => void {
    if (typeof name !== 'string' || !name || typeof tool !== 'function') throw new TypeError('registerClientTool(name, tool): a name and a function');
    this.clientTools = { ...this.clientTools, [name]: tool };
    return () => {
      if (this.clientTools[name] !== tool) return;
      const { [name]: _removed, ...rest } = this.clientTools;
      this.clientTools = rest;
    };
  }

  /** Opens the panel (as the launcher does). Before the configuration is read, the panel opens once it is. */
  open(): void {
    this.panelOpen = true;
  }

  /** Closes the panel (not with `always_expanded`). */
  close(): void {
    this.panelOpen = false;
  }

  /** Opens the panel expanded to the viewport, where `expandable` allows it (PROTOCOL.md section 2). */
  expand(): void {
    this.panelOpen = this.expanded = true;
  }

  /** Leaves the expanded size (the panel stays open). */
  collapse(): void {
    this.expanded = false;
  }

  /**
   * Starts a conversation (PROTOCOL.md section 3): `text`, or `voice` (a call: the microphone is asked first); by
   * default text when the agent takes text, else voice. After the terms when they are still to be accepted, and after
   * `voice-agent-before-start`. Before the configuration is read, it waits for it.
   * @returns the conversation id once the handshake is done (the one running, if any)
   * @throws Error when the configuration cannot be read, the agent does not take that mode, the terms are declined,
   * the page cancels the start, the microphone is refused, or the conversation fails before its handshake
   */
  async startConversation({ mode }: { mode?: 'text' | 'voice' } = {}): Promise<string> {
    const value = await this.#config.settled();
    const { config } = value;
    const textAllowed = config.text_only || config.supports_text_only;
    const chosen = mode ?? (textAllowed ? 'text' : 'voice');
    if (chosen === 'voice' ? config.text_only : !textAllowed) throw new Error(`the agent does not take ${chosen} conversations`);
    if (this.#conversation.active && this.#conversation.conversationId) return this.#conversation.conversationId;
    return new Promise<string>((resolve, reject) => {
      const settle = (result: () => void): void => {
        this.removeEventListener('voice-agent-conversation', started);
        this.removeEventListener('voice-agent-conversation-end', ended);
        result();
      };
      const started = (e: VoiceAgentConversationEvent): void => settle(() => resolve(e.detail.conversationId));
      const ended = (e: VoiceAgentConversationEndEvent): void => settle(() => reject(new Error(`the conversation ended before its handshake: ${e.detail.message ?? e.detail.reason}`)));
      this.addEventListener('voice-agent-conversation', started);
      this.addEventListener('voice-agent-conversation-end', ended);
      if (!this.#conversation.active) {
        this.#start(value, chosen, (ok) => ok || settle(() => reject(new Error('the conversation did not start: the terms were declined, the page cancelled it, or the microphone was refused'))));
      }
    });
  }

  /** Ends the conversation or call that runs (as `end_call` does); nothing when none runs. */
  endConversation(): void {
    if (this.#voice.state !== 'off') this.#voice.end();
    else this.#conversation.end();
  }

  /**
   * Sends the visitor's text (`user_message`), as typing it would: starts a text conversation first when none runs
   * (see `startConversation`). Before the configuration is read, it waits for it.
   * @throws TypeError for text that is not a non-empty string of at most 2000 characters; Error as `startConversation`
   */
  async sendUserMessage(text: string): Promise<void> {
    if (typeof text !== 'string' || !text.trim() || text.length > MAX_TEXT_LENGTH) throw new TypeError(`sendUserMessage: a non-empty string of at most ${MAX_TEXT_LENGTH} characters`);
    if (!this.#conversation.active) await this.startConversation({ mode: 'text' });
    this.#conversation.sendText(text.trim());
  }

  /**
   * Sends a `contextual_update` (PROTOCOL.md section 3): information for the agent that asks for no reply, in the
   * conversation that runs.
   * @throws TypeError for text that is not a non-empty string of at most 2000 characters; Error when no conversation runs
   */
  async sendContextualUpdate(text: string): Promise<void> {
    if (typeof text !== 'string' || !text.trim() || text.length > MAX_TEXT_LENGTH) throw new TypeError(`sendContextualUpdate: a non-empty string of at most ${MAX_TEXT_LENGTH} characters`);
    if (!this.#conversation.sendContextualUpdate(text)) throw new Error('sendContextualUpdate: no conversation runs');
  }

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

  override render(): TemplateResult | typeof nothing {
    const value = this.#config.value;
    const texts = this.#config.texts;
    const onDismiss = (): void => void (this.dismissed = true);
    if (this.#config.status === 'error') return errorState({ texts, onRetry: this.#config.retryable ? () => this.#config.retry() : null });
    if (!value) {
      return html`<div part="root" class="root bottom-right">${launcher({ config: null, texts, language: '', open: false, busy: true, onToggle: this.#toggle, onDismiss })}</div>`;
    }
    if (this.dismissed) return nothing;
    const { config, language } = value;
    // dir goes on the panel and the launcher, not the root: the root's own alignment follows `placement` alone.
    return html`<div part="root" class="root ${config.placement} ${config.variant} ${config.always_expanded ? 'always' : ''} ${this.#voice.state === 'on' ? 'live' : ''}" lang=${language}>
      ${this.#open || config.always_expanded ? this.#panel(value) : nothing}
      ${config.always_expanded ? nothing : launcher({ config, texts, language, open: this.#open, busy: false, onToggle: this.#toggle, onDismiss })}
    </div>`;
  }
}

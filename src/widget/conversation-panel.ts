import { nothing, type CSSResult, type ReactiveController, type TemplateResult } from 'lit';
import type { LitElement } from 'lit';
import type { AttributeValues } from '../config/attributes.js';
import { browserFamily } from '../audio/microphone.js';
import { panelLabels } from '../config/panel-labels.js';
import { offeredLanguages } from '../config/language.js';
import { fillDynamicVariables, firstMessageFor, stripAudioTags } from '../config/conversation-texts.js';
import type { ClientToolStore } from './client-tools.js';
import { ClipboardController } from './controllers/clipboard.js';
import { ContinuationController } from './controllers/continuation.js';
import { ConversationController } from './controllers/conversation.js';
import { FeedbackController } from './controllers/feedback.js';
import { FollowTranscriptController } from './controllers/follow-transcript.js';
import { MediaQueryController } from './controllers/media-query.js';
import { StartController } from './controllers/start.js';
import { TermsController } from './controllers/terms.js';
import { VoiceController } from './controllers/voice.js';
import type { WidgetConfigValue } from './controllers/widget-config.js';
import { panelFlags, type PanelFlags } from './panel-flags.js';
import {
  audioOrb, banner, composer, conversationActions, conversationId, conversationStyles, deviceSheet, feedbackSheet, header, panel, prepareTranscript, termsDialog, transcript,
  devicesToggle, voiceControls, voiceProblem,
} from './parts/conversation.js';
import type { ElementCallback } from './parts/element-ref.js';

/** Below this viewport width (px) the device counts as mobile for `expandable` (PROTOCOL.md section 2). */
const MOBILE_QUERY = '(max-width: 640px)';

/** What the element (the launcher's shell) lends the conversation panel: itself, and the state it keeps. */
export interface PanelShell {
  /** The element: the controllers' host, the events' target, the shadow root the panel renders in. */
  readonly host: LitElement;
  /** The element's client tools (the page's, its handler), which the conversation answers tool calls from. */
  readonly tools: ClientToolStore;
  /** The override and conversation attributes, as the element's properties hold them (null when absent). */
  attributes(): AttributeValues;
  /** The element's resolved configuration and endpoint, or null before the first read (or after a failed one). */
  value(): WidgetConfigValue | null;
  /** True when the panel is expanded to the viewport (the element's `expand()` sets it too). */
  expanded(): boolean;
  /** Expands the panel to the viewport, or back. */
  setExpanded(expanded: boolean): void;
  /** Opens or closes the panel, as the launcher does (focus follows). */
  toggle(): void;
  /** Keys in the panel: Escape closes it unless it is always shown (the element decides, as for its loading panel). */
  onKeydown(event: KeyboardEvent): void;
  /** The visitor picked a language in the selector: labels, terms and greeting follow (the configuration's controller). */
  chooseLanguage(language: string): void;
}

/**
 * The conversation side of `<voice-agent-widget>` (PROTOCOL.md section 3): the panel's composition. Its controllers
 * (conversation, voice, start, terms, feedback, clipboard, following the transcript) join the element's (released when it
 * leaves the page), and its styles join the element's adopted sheets; what it offers comes from `panelFlags`. The
 * script-tag build loads this module on intent (controllers/conversation-loader.ts); the element holds one instance
 * once it has loaded.
 */
export class ConversationPanel implements ReactiveController {
  readonly #conversation: ConversationController;
  readonly #voice: VoiceController;
  readonly #terms: TermsController;
  readonly #starter: StartController;
  readonly #feedback: FeedbackController;
  readonly #follow: FollowTranscriptController;
  readonly #clipboard: ClipboardController;
  readonly #mobile: MediaQueryController;
  readonly #continuation: ContinuationController;
  /** The panel was rendered in the update under way (the element renders it only while it is shown). */
  #shown = false;
  /** What the visitor typed and has not sent. */
  #draft = '';
  /** The text input and the row of conversation buttons, as their parts rendered them (`firstControl`). */
  #input: Element | null = null;
  #actions: Element | null = null;
  readonly #inputRef: ElementCallback = (input) => void (this.#input = input);
  readonly #actionsRef: ElementCallback = (actions) => void (this.#actions = actions);
  /** What shows a call's turn (the status line's text, the orb) as last rendered, and the value rendered with. */
  #status: Element | null = null;
  #orb: HTMLElement | null = null;
  #rendered: WidgetConfigValue | null = null;
  readonly #statusRef: ElementCallback = (status) => void (this.#status = status);
  readonly #orbRef: ElementCallback = (orb) => void (this.#orb = orb as HTMLElement);

  constructor(private readonly shell: PanelShell) {
    const { host, tools } = shell;
    host.addController(this);
    this.#conversation = new ConversationController(host, { tools, turn: () => this.#voice.callTurn });
    this.#voice = new VoiceController(host, () => this.#showStatus());
    this.#terms = new TermsController(host, () => this.firstControl());
    this.#starter = new StartController(host, { terms: this.#terms, conversation: this.#conversation, voice: this.#voice, tools, attributes: () => shell.attributes() });
    this.#feedback = new FeedbackController(host, () => this.firstControl());
    this.#follow = new FollowTranscriptController(host);
    this.#clipboard = new ClipboardController(host);
    this.#mobile = new MediaQueryController(host, MOBILE_QUERY);
    const element = host as unknown as { open(): void; expand(): void };
    this.#continuation = new ContinuationController(host, {
      conversation: this.#conversation,
      panel: () => ({ open: this.#shown, expanded: shell.expanded(), call: this.#voice.state !== 'off' }),
      show: (expanded) => (expanded ? element.expand() : element.open()),
    });
  }

  /** The panel's styles join the element's adopted sheets (after its own, so the cascade is as one list). */
  hostConnected(): void {
    adoptAfter(this.shell.host.renderRoot, conversationStyles);
  }

  /** True while a voice call is on (the root's `live` class). */
  get live(): boolean {
    return this.#voice.state === 'on';
  }

  /**
   * What takes focus when the panel opens: in a voice call the call's first control (the mute toggle, else the end
   * button: a text input would open a phone's keyboard and blink its caret through the call), else the text input,
   * else the first conversation button.
   */
  firstControl(): HTMLElement | null {
    const actions = this.#actions?.isConnected ? this.#actions : null;
    if (this.#voice.state !== 'off') {
      const control = actions?.querySelector<HTMLElement>('[part~="mute-button"]:not([disabled]), [part~="end-button"]');
      if (control) return control;
    }
    if (this.#input?.isConnected) return this.#input as HTMLElement;
    return actions?.querySelector('button') ?? null;
  }

  /** The control that had focus in the shadow root as an update began (`hostUpdated` puts focus back when it went). */
  #focused: Element | null = null;

  hostUpdate(): void {
    this.#focused = (this.shell.host.renderRoot as ShadowRoot).activeElement;
    this.#shown = false;
    const value = this.shell.value();
    if (value) this.#continuation.use(value.endpoint);
  }

  /**
   * A focused control the update took away (the call button once the call starts, the end button once it ends) hands
   * focus to `firstControl()`, so the keyboard never falls back to the page's start; focus the page moved elsewhere
   * meanwhile stays where it is.
   */
  hostUpdated(): void {
    this.#showStatus();
    const focused = this.#focused;
    this.#focused = null;
    if (!focused || focused.isConnected || (this.shell.host.renderRoot as ShadowRoot).activeElement) return;
    const active = document.activeElement;
    if (active && active !== document.body && active !== this.shell.host) return;
    this.firstControl()?.focus();
  }

  /** The panel's keys, unless a modal dialog is open (its Escape closes the dialog, not the panel). */
  readonly #onPanelKeydown = (event: KeyboardEvent): void => {
    if (!this.#terms.modal.open && !this.#feedback.modal.open) this.shell.onKeydown(event);
  };

  readonly #copyCode = (code: string): void => void this.#clipboard.copy(code, 'code block');

  #flags(value: WidgetConfigValue): PanelFlags {
    return panelFlags(value.config, this.#conversation, this.#voice);
  }

  /**
   * Sends the draft (or runs `deliver`: a message sent again); starts a text conversation first (after the terms and the
   * page's before-start) when none runs. A draft waits while a call asks for the microphone; a cancelled start keeps it.
   */
  #send(value: WidgetConfigValue, deliver?: () => void): void {
    const text = this.#draft.trim();
    if ((!text && !deliver) || (this.#voice.state === 'starting' && !this.#conversation.active)) return;
    const send = (): void => {
      if (!deliver) this.#setDraft('');
      (deliver ?? (() => this.#conversation.sendText(text)))();
    };
    if (this.#conversation.active) send();
    else void this.#starter.start(value, 'text', send);
  }

  #setDraft(text: string): void {
    this.#draft = text;
    this.shell.host.requestUpdate();
  }

  /**
   * Writes the status line's label (`PanelFlags.status`) and the orb's `data-turn` (the call's turn), where the parts
   * rendered them, each only when it differs (no restyle or announcement for nothing). The one writer of both: after
   * each render, and by itself at a turn change of a call, which changes nothing else (twice an exchange; a render of
   * the panel for it cost a call more than everything else it does: bench:call).
   */
  #showStatus(): void {
    const value = this.#rendered;
    if (!value) return;
    const label = this.#flags(value).status;
    const text = label ? panelLabels(value.texts)[label] : '';
    // Those of an earlier render may have left the document: writing them is harmless.
    if (this.#status && this.#status.textContent !== text) this.#status.textContent = text;
    const turn = this.#voice.turn;
    if (this.#orb && this.#orb.dataset['turn'] !== turn) this.#orb.dataset['turn'] = turn;
  }

  /** The panel (`part="panel"`) and everything in it, from the resolved configuration. */
  render(value: WidgetConfigValue): TemplateResult {
    this.#rendered = value;
    this.#shown = true;
    const { config, language, linkPolicy, terms } = value;
    const texts = panelLabels(value.texts);
    this.#starter.expect(() => prepareTranscript(texts, linkPolicy));
    const conversation = this.#conversation;
    const voice = this.#voice;
    const flags = this.#flags(value);
    const { transcript: entries, conversationId: id } = conversation;
    // The first message until the transcript has a line: while a conversation connects too, until the service's own
    // first message takes its place (it vanished for the handshake, and came back).
    const greeting = entries.length === 0 ? fillDynamicVariables(firstMessageFor(config, language), value.dynamicVariables) : '';
    const unavailable = flags.voiceAllowed ? voice.unavailable : null;
    const problem = voice.problem ?? (flags.active ? null : unavailable);
    // The devices may be chosen before a call once the microphone is granted (their names are known only then), not
    // while the visitor's refusal is what is shown.
    const devicesBeforeCall = !flags.active && flags.voiceAllowed && !unavailable && voice.devices.granted && problem !== 'microphone_denied';
    const expandable = config.expandable === 'always' || config.expandable === (this.#mobile.matches ? 'mobile' : 'desktop');
    const rated = flags.ended && id && config.feedback_mode === 'end' && config.end_feedback && this.#feedback.step(id) !== 'closed' ? id : null;
    const expanded = this.shell.expanded();
    return panel({ texts, language, expanded: expandable && expanded, onKeydown: this.#onPanelKeydown, content: [
      header({
        config, texts, language, languages: offeredLanguages(config), active: flags.active, expandable, expanded,
        onLanguage: (l) => this.shell.chooseLanguage(l),
        onExpand: () => this.shell.setExpanded(!expanded), onCollapse: () => this.shell.toggle(), levelTarget: voice.levelTarget,
      }),
      config.show_conversation_id && id
        ? conversationId({ texts, conversationId: id, copied: this.#clipboard.isCopied('conversation id'), onCopy: () => void this.#clipboard.copy(id, 'conversation id') })
        : nothing,
      flags.orb
        ? audioOrb({
            // The last 20 complete agent lines: what a screen reader announces as each is added.
            spoken: entries.filter((t) => t.role === 'agent' && !t.streaming).slice(-20).map((t) => (config.strip_audio_tags ? stripAudioTags(t.text) : t.text)),
            label: texts.transcript, levelTarget: voice.levelTarget, orbRef: this.#orbRef,
          })
        : transcript({
            entries: config.transcript_enabled ? entries : entries.filter((t) => t.role === 'agent').slice(-1), texts, linkPolicy,
            greeting: greeting ? { owner: config, text: greeting } : null, stripTags: config.strip_audio_tags, onScroll: this.#follow.onScroll,
            onRate: config.feedback_mode === 'during' && conversation.active ? (entry, score) => conversation.rate(entry, score) : null,
            onResend: (entry) => this.#send(value, () => conversation.resend(entry)), onCopyCode: this.#copyCode, transcriptRef: this.#follow.transcriptRef,
          }),
      // A failure is told once: as the transcript's notice when the transcript shows it, else as an alert; its way
      // forward beside it. What rules a call out on this page is told before any press, instead of the call button.
      problem
        ? voiceProblem({
            texts, problem, told: config.transcript_enabled && entries.some((entry) => entry.notice === problem),
            browser: browserFamily(navigator.userAgent), typeInstead: flags.textAllowed,
          })
        : nothing,
      (flags.call || devicesBeforeCall) && voice.devices.open
        ? deviceSheet({
            texts, microphones: voice.devices.microphones, speakers: voice.devices.speakers, chosen: voice.devices.inUse,
            onChoose: (kind, deviceId) => void voice.devices.choose(kind, deviceId), levelTarget: voice.levelTarget,
          })
        : nothing,
      rated
        ? feedbackSheet({
            step: this.#feedback.step(rated), texts, rating: this.#feedback.rating(rated), onRate: (n) => this.#feedback.rate(rated, n),
            onBack: () => this.#feedback.back(), onSubmit: (comment) => void this.#feedback.submit(value.endpoint.serverUrl, comment),
            onClose: () => this.#feedback.close(rated), dialogRef: this.#feedback.modal.dialogRef,
          })
        : nothing,
      conversationActions({
        texts, active: flags.active, voice: flags.voiceAllowed && !unavailable, text: flags.textAllowed, ended: flags.ended, actionsRef: this.#actionsRef,
        retry: voice.mayRetry, showStatus: config.show_agent_status, statusRef: this.#statusRef,
        beforeCall: devicesBeforeCall ? devicesToggle({ texts, open: voice.devices.open, onToggle: () => voice.devices.toggle() }) : nothing,
        controls: flags.call
          ? voiceControls({
              config, texts, muted: voice.muted, textMode: voice.textMode, onMute: () => voice.toggleMute(), onTextMode: () => voice.toggleTextMode(),
              devicesOpen: voice.devices.open, onDevices: () => voice.devices.toggle(),
            })
          : nothing,
        onStartCall: () => void this.#starter.start(value, 'voice'), onStart: () => void this.#starter.start(value, 'text'),
        onEnd: () => this.endConversation(),
      }),
      flags.composer
        ? composer({
            texts, placeholder: texts[flags.placeholder], draft: this.#draft, onSubmit: () => this.#send(value), inputRef: this.#inputRef,
            onInput: (text) => (this.#setDraft(text), conversation.typing()),
          })
        : nothing,
      banner({ config }),
      this.#terms.open && terms
        ? termsDialog({ terms, texts, linkPolicy, onAccept: () => this.#terms.accept(terms), onDecline: () => this.#terms.close(), dialogRef: this.#terms.modal.dialogRef })
        : nothing,
    ] });
  }

  /**
   * Starts a conversation (see the element's `startConversation` and controllers/start.ts): `mode` by default text where
   * the agent takes text, else voice.
   * @returns the conversation id once the handshake is done (the one starting or running, if any)
   * @throws Error when the agent does not take that mode, the terms are declined, the page cancels the start, the
   * microphone is refused, the conversation fails before its handshake, or the element leaves the page first
   */
  startConversation(value: WidgetConfigValue, mode?: 'text' | 'voice'): Promise<string> {
    const flags = this.#flags(value);
    const chosen = mode ?? flags.defaultMode;
    if (!(chosen === 'voice' ? flags.voiceAllowed : flags.textAllowed)) return Promise.reject(new Error(`the agent does not take ${chosen} conversations`));
    return this.#starter.start(value, chosen);
  }

  /** Ends the conversation or call that runs; nothing when none runs. */
  endConversation(): void {
    if (this.#voice.state !== 'off') this.#voice.end();
    else this.#conversation.end();
  }

  /** Sends the visitor's text (`user_message`), starting a text conversation first when none runs. */
  async sendUserMessage(value: WidgetConfigValue, text: string): Promise<void> {
    if (!this.#conversation.active) await this.startConversation(value, 'text');
    this.#conversation.sendText(text);
  }

  /**
   * The microphone or speaker of a voice call (`deviceId`, '' for the browser's default): the running call's, else the
   * one the next call asks for (the site's kept choice, or a choice made since). The element's `microphoneId` / `speakerId`.
   */
  deviceId(kind: 'microphone' | 'speaker'): string {
    return this.#voice.devices.inUse[kind];
  }

  /**
   * Uses `deviceId` for `kind` (controllers/device-choice.ts `choose`): a running call moves there, else the next call
   * asks for it. A device that cannot be used is told in the console, and nothing changes.
   */
  chooseDevice(kind: 'microphone' | 'speaker', deviceId: string): Promise<void> {
    return this.#voice.devices.choose(kind, deviceId);
  }

  /**
   * Sends a `contextual_update` (PROTOCOL.md section 3) in the conversation that runs.
   * @throws Error when no conversation runs
   */
  sendContextualUpdate(text: string): void {
    if (!this.#conversation.sendContextualUpdate(text)) throw new Error('sendContextualUpdate: no conversation runs');
  }
}

/**
 * Adds `styles` to a shadow root's adopted sheets, after those it has (once per root); a `<style>` element where the
 * browser cannot adopt sheets (as Lit's own `adoptStyles` falls back).
 */
function adoptAfter(root: HTMLElement | DocumentFragment, styles: CSSResult[]): void {
  if (!(root instanceof ShadowRoot)) return;
  const sheets = styles.map((style) => style.styleSheet);
  if (sheets.every((sheet): sheet is CSSStyleSheet => !!sheet)) {
    if (!root.adoptedStyleSheets.includes(sheets[0]!)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, ...sheets];
    return;
  }
  if (root.querySelector('style[data-conversation]')) return;
  const style = document.createElement('style');
  style.dataset['conversation'] = '';
  style.textContent = styles.map((s) => s.cssText).join('\n');
  root.append(style);
}

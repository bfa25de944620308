import { nothing, type CSSResult, type ReactiveController, type TemplateResult } from 'lit';
import type { LitElement } from 'lit';
import type { SessionOptions } from '../client/session.js';
import type { AttributeValues } from '../config/attributes.js';
import { conversationInitiation, readBeforeStart } from '../config/initiation.js';
import { offeredLanguages } from '../config/language.js';
import { fillDynamicVariables, firstMessageFor } from '../config/texts.js';
import { VoiceAgentBeforeStartEvent, type ClientTool } from '../events/before-start.js';
import type { VoiceAgentConversationEndEvent } from '../events/conversation-end.js';
import type { VoiceAgentConversationEvent } from '../events/conversation.js';
import * as log from '../internal/console.js';
import { ClipboardController } from './controllers/clipboard.js';
import { ConversationController, type ClientToolHandler } from './controllers/conversation.js';
import { FeedbackController } from './controllers/feedback.js';
import { FollowTranscriptController } from './controllers/follow-transcript.js';
import { MediaQueryController } from './controllers/media-query.js';
import { TermsController } from './controllers/terms.js';
import { VoiceController } from './controllers/voice.js';
import type { WidgetConfigValue } from './controllers/widget-config.js';
import {
  audioOrb, banner, composer, conversationActions, conversationId, conversationStyles, feedbackSheet, header, panel, statusLabel,
  termsDialog, transcript, voiceControls, voiceProblem,
} from './parts/conversation.js';

/** Below this viewport width (px) the device counts as mobile for `expandable` (PROTOCOL.md section 2). */
const MOBILE_QUERY = '(max-width: 640px)';

/** A conversation ready to open: its socket and initiation, and the client tools the page gave for it. */
interface Prepared {
  options: SessionOptions;
  tools: Record<string, ClientTool>;
}

/** What the element (the launcher's shell) lends the conversation panel: itself, and the state it keeps. */
export interface PanelShell {
  /** The element: the controllers' host, the events' target, the shadow root the panel renders in. */
  readonly host: LitElement;
  /** The override and conversation attributes, as the element's properties hold them (null when absent). */
  attributes(): AttributeValues;
  /** True when the panel is expanded to the viewport (the element's `expand()` sets it too). */
  expanded(): boolean;
  /** Expands the panel to the viewport, or back. */
  setExpanded(expanded: boolean): void;
  /** Opens or closes the panel, as the launcher does (focus follows). */
  toggle(): void;
  /** The visitor picked a language in the selector: labels, terms and greeting follow (the configuration's controller). */
  chooseLanguage(language: string): void;
}

/**
 * The conversation side of `<voice-agent-widget>` (PROTOCOL.md section 3): the panel and everything under it, the
 * conversation and voice controllers, the terms and the feedback. The script-tag build loads this module on intent
 * (controllers/conversation-loader.ts); the element holds one instance once it has loaded. Its controllers join the
 * element's (released when it leaves the page), and its styles join the element's adopted sheets.
 */
export class ConversationPanel implements ReactiveController {
  readonly #conversation: ConversationController;
  readonly #voice: VoiceController;
  readonly #feedback: FeedbackController;
  readonly #follow: FollowTranscriptController;
  readonly #terms: TermsController;
  readonly #clipboard: ClipboardController;
  readonly #mobile: MediaQueryController;
  /** What the visitor typed and has not sent. */
  #draft = '';
  /** `always_expanded` as last rendered: Escape does not close such a panel. */
  #alwaysExpanded = false;

  constructor(private readonly shell: PanelShell) {
    const { host } = shell;
    host.addController(this);
    this.#conversation = new ConversationController(host);
    this.#feedback = new FeedbackController(host);
    this.#follow = new FollowTranscriptController(host, '.transcript');
    this.#terms = new TermsController(host, () => this.firstControl());
    this.#clipboard = new ClipboardController(host);
    this.#mobile = new MediaQueryController(host, MOBILE_QUERY);
    this.#voice = new VoiceController(host, '.root');
  }

  /** The panel's styles join the element's adopted sheets (after its own, so the cascade is as one list). */
  hostConnected(): void {
    adoptAfter(this.shell.host.renderRoot, conversationStyles);
  }

  /** True while a voice call is on (the root's `live` class). */
  get live(): boolean {
    return this.#voice.state === 'on';
  }

  /** The page's client tools; see the element's `clientTools`. */
  set clientTools(tools: Record<string, ClientTool>) {
    this.#conversation.clientTools = tools;
  }

  /** The page's handler of client tool calls; see the element's `clientToolHandler`. */
  set clientToolHandler(handler: ClientToolHandler | null) {
    this.#conversation.clientToolHandler = handler;
  }

  /** True while the terms dialog is open (Escape closes it, not the panel). */
  get termsOpen(): boolean {
    return this.#terms.open;
  }

  /** What takes focus when the panel opens: the text input, else the first start button. */
  firstControl(): HTMLElement | null {
    const root = this.shell.host.renderRoot;
    return root.querySelector<HTMLElement>('.composer input') ?? root.querySelector<HTMLElement>('.actions button');
  }

  readonly #onPanelKeydown = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && !this.#alwaysExpanded && !this.#terms.open) {
      event.stopPropagation();
      this.shell.toggle();
    }
  };

  /**
   * The conversation's initiation and socket (PROTOCOL.md section 3) from the configuration and the attributes, as the
   * page's `voice-agent-before-start` leaves them (its tools too); null when the page cancelled the start.
   */
  #prepare({ config, agentLanguage, language, dynamicVariables, endpoint }: WidgetConfigValue, mode: 'text' | 'voice'): Prepared | null {
    const initiation = conversationInitiation({ config, agentLanguage, language, dynamicVariables, voice: mode === 'voice', attributes: this.shell.attributes() }, log.warn);
    const event = new VoiceAgentBeforeStartEvent({
      mode, dynamicVariables: { ...initiation.dynamic_variables }, overrides: structuredClone(initiation.conversation_config_override ?? {}), clientTools: {},
    });
    if (!this.shell.host.dispatchEvent(event)) return null;
    const { dynamicVariables: variables, overrides, clientTools } = readBeforeStart(event.detail);
    return { options: { url: endpoint.socketUrl, initiation: { ...initiation, dynamic_variables: variables, conversation_config_override: overrides } }, tools: clientTools };
  }

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
    const text = this.#draft.trim();
    // While a call asks for the microphone, the draft waits for the call's conversation.
    if ((!text && !deliver) || (this.#voice.state === 'starting' && !this.#conversation.active)) return;
    const send = (): void => {
      if (!this.#conversation.active) {
        const prepared = this.#prepare(value, 'text');
        if (!prepared) return; // cancelled by the page: nothing is sent, the draft stays
        this.#conversation.start(prepared.options, prepared.tools);
      }
      if (!deliver) this.#setDraft('');
      (deliver ?? (() => this.#conversation.sendText(text)))();
    };
    if (this.#conversation.active) send();
    else this.#terms.run(value.terms, send);
  }

  #setDraft(text: string): void {
    this.#draft = text;
    this.shell.host.requestUpdate();
  }

  /** The panel (`part="panel"`) and everything in it, from the resolved configuration. */
  render(value: WidgetConfigValue): TemplateResult {
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
    const expanded = this.shell.expanded();
    this.#alwaysExpanded = config.always_expanded;
    return panel({ texts, language, expanded: expandable && expanded, onKeydown: this.#onPanelKeydown, content: [
      header({
        config, texts, language, languages: offeredLanguages(config), active, expandable, expanded,
        status: statusLabel(status, call && !voice.textMode ? voice.turn : null, call),
        onLanguage: (l) => this.shell.chooseLanguage(l),
        onExpand: () => this.shell.setExpanded(!expanded), onCollapse: () => this.shell.toggle(),
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
            texts, placeholder, draft: this.#draft, onSubmit: () => this.#send(value),
            onInput: (text) => (this.#setDraft(text), conversation.typing()),
          })
        : nothing,
      banner({ config }),
      this.#terms.open && terms
        ? termsDialog({ terms, texts, linkPolicy, onAccept: () => this.#terms.accept(terms), onDecline: () => this.#terms.close() })
        : nothing,
    ] });
  }

  /**
   * Starts a conversation (see the element's `startConversation`).
   * @returns the conversation id once the handshake is done (the one running, if any)
   * @throws Error when the agent does not take that mode, the terms are declined, the page cancels the start, the
   * microphone is refused, or the conversation fails before its handshake
   */
  startConversation(value: WidgetConfigValue, mode?: 'text' | 'voice'): Promise<string> {
    const { config } = value;
    const textAllowed = config.text_only || config.supports_text_only;
    const chosen = mode ?? (textAllowed ? 'text' : 'voice');
    if (chosen === 'voice' ? config.text_only : !textAllowed) return Promise.reject(new Error(`the agent does not take ${chosen} conversations`));
    if (this.#conversation.active && this.#conversation.conversationId) return Promise.resolve(this.#conversation.conversationId);
    const host = this.shell.host;
    return new Promise<string>((resolve, reject) => {
      const settle = (result: () => void): void => {
        host.removeEventListener('voice-agent-conversation', started);
        host.removeEventListener('voice-agent-conversation-end', ended);
        result();
      };
      const started = (e: VoiceAgentConversationEvent): void => settle(() => resolve(e.detail.conversationId));
      const ended = (e: VoiceAgentConversationEndEvent): void => settle(() => reject(new Error(`the conversation ended before its handshake: ${e.detail.message ?? e.detail.reason}`)));
      host.addEventListener('voice-agent-conversation', started);
      host.addEventListener('voice-agent-conversation-end', ended);
      if (!this.#conversation.active) {
        this.#start(value, chosen, (ok) => ok || settle(() => reject(new Error('the conversation did not start: the terms were declined, the page cancelled it, or the microphone was refused'))));
      }
    });
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

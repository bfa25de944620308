/**
 * The start of a conversation (PROTOCOL.md sections 2 and 3): decides its order (terms → the page's before-start →
 * initiation → open, a call's microphone first) and that every start settles, the element's removal included.
 */
import type { ReactiveController, ReactiveElement } from 'lit';
import type { SessionOptions } from '../../client/session.js';
import type { AttributeValues } from '../../config/attributes.js';
import { conversationInitiation, readBeforeStart } from '../../config/initiation.js';
import { VoiceAgentBeforeStartEvent, type ClientTool } from '../../events/before-start.js';
import * as log from '../../internal/console.js';
import { whenIdle } from '../../internal/idle.js';
import { prepareMarkdown } from '../../markdown/render.js';
import type { ClientToolStore } from '../client-tools.js';
import type { ConversationController } from './conversation.js';
import { whenGone } from './presence.js';
import type { TermsController } from './terms.js';
import type { VoiceController } from './voice.js';
import type { WidgetConfigValue } from './widget-config.js';

/** What a start uses: the controllers it drives, the element's client tool store and its attributes. */
export interface StartParts {
  terms: TermsController;
  conversation: ConversationController;
  voice: VoiceController;
  tools: ClientToolStore;
  /** The override and conversation attributes, as the element's properties hold them (null when absent). */
  attributes: () => AttributeValues;
}

/** How long the markdown pipeline's preparation (`prepareMarkdown`) waits at most for the page to go idle, in ms. */
const PREPARE_TIMEOUT_MS = 1000;

/** The error of a start that the element's removal cut short. */
const LEFT_PAGE = 'the conversation did not start: the element left the page';

/**
 * The start of a conversation, in its order (PROTOCOL.md sections 2 and 3): the terms when they are still to be
 * accepted, then the page's `voice-agent-before-start` (cancelable; its detail changes the initiation and adds this
 * conversation's client tools), then the initiation, then the conversation opens (a voice call asks for the microphone
 * first). One start at a time: while one waits (the terms dialog, the microphone, the handshake) another start gets the
 * same promise.
 *
 * Every start settles: with the conversation id once the handshake is done, or with an Error when the terms are
 * declined, the page cancels it, the microphone is refused, the conversation fails before its handshake, or the element
 * leaves the page (then at once, within the removal's task, whatever the start was waiting for). It adds no listener to
 * the element. Nothing is opened after a rejection.
 */
export class StartController implements ReactiveController {
  /** The rejections of the starts under way (at most one), for `hostDisconnected`. */
  readonly #rejects = new Set<(error: Error) => void>();
  #current: Promise<string> | null = null;
  /** Cancels the markdown pipeline's preparation while it waits for the page to go idle (see `expect`). */
  #cancelPrepare = (): void => {};
  /** `expect` has asked for the preparation (it runs once per page; asked again after the element left and came back). */
  #preparing = false;

  constructor(private readonly host: ReactiveElement, private readonly parts: StartParts) {
    host.addController(this);
  }

  /** The element left the page (not moved in it, see `whenGone`): the starts under way reject, saying so. */
  hostDisconnected(): void {
    whenGone(this.host, () => {
      this.#cancelPrepare();
      this.#preparing = false;
      for (const reject of [...this.#rejects]) reject(new Error(LEFT_PAGE));
    });
  }

  /**
   * A conversation may start soon (the panel shows, or one starts): the transcript's markdown pipeline gets ready for
   * the first reply at the page's next idle moment (`prepareMarkdown`, once per page), not as that reply streams in
   * with the agent's voice; so does what `prepareLines` readies (the panel's transcript lines), when the first ask
   * gives it. The wait is cancelled when the element leaves the page. Never throws.
   */
  expect(prepareLines: () => void = () => {}): void {
    if (this.#preparing) return;
    this.#preparing = true;
    this.#cancelPrepare = whenIdle(() => {
      this.#cancelPrepare = () => {};
      prepareMarkdown();
      prepareLines();
    }, PREPARE_TIMEOUT_MS);
  }

  /**
   * Starts a text conversation or a voice call (see the class), or answers with the one starting or running.
   * @param onOpen called once the conversation has been opened (its socket connecting), before its handshake: a draft
   * sent then waits for the handshake and is never lost; not called when the start fails first, nor when this call is
   * answered with another start
   * @returns the conversation id once the handshake is done
   * @throws Error (as a rejection) as the class says; a handshake failure is the session's ConversationError
   */
  start(value: WidgetConfigValue, mode: 'text' | 'voice', onOpen?: () => void): Promise<string> {
    const { terms, conversation, voice, tools } = this.parts;
    const running = this.#current ?? conversation.handshake;
    if (running) return running;
    // Inside the press, before any await: the call's sound is unlocked now or never (Safari).
    if (mode === 'voice') voice.prepare();
    this.expect();
    let settled = false;
    let resolve!: (conversationId: string) => void;
    let reject!: (error: Error) => void;
    const run = new Promise<string>((yes, no) => ([resolve, reject] = [yes, no]));
    const settle = (done: () => void): void => {
      if (settled) return;
      settled = true;
      this.#rejects.delete(fail);
      if (this.#current === run) this.#current = null;
      done();
    };
    const fail = (error: Error): void => settle(() => (mode === 'voice' && voice.cancel(), reject(error)));
    this.#rejects.add(fail);
    // Callers from the panel's buttons do not await: their failures are told in the panel and the console already.
    run.catch(() => {});
    const open = (): void => {
      if (settled) return;
      const prepared = this.#prepare(value, mode);
      // The page's before-start listener may have removed the element: that start is rejected; nothing opens.
      if (!this.host.isConnected) fail(new Error(LEFT_PAGE));
      if (settled) return;
      if (!prepared) return fail(new Error('the conversation did not start: the page cancelled it (voice-agent-before-start)'));
      tools.conversation = prepared.tools;
      const handshake = mode === 'voice' ? voice.start(conversation, prepared.options) : conversation.start(prepared.options);
      if (mode === 'text') onOpen?.();
      handshake.then((id) => settle(() => resolve(id)), fail);
    };
    terms.run(value.terms, open, () => fail(new Error(this.host.isConnected ? 'the conversation did not start: the terms were declined' : LEFT_PAGE)));
    if (!settled) this.#current = run;
    return run;
  }

  /**
   * The conversation's initiation and socket (PROTOCOL.md section 3) from the configuration and the attributes, as the
   * page's `voice-agent-before-start` leaves them, and its client tools; null when the page cancelled the start.
   */
  #prepare({ config, agentLanguage, language, dynamicVariables, endpoint }: WidgetConfigValue, mode: 'text' | 'voice'): { options: SessionOptions; tools: Record<string, ClientTool> } | null {
    const initiation = conversationInitiation({ config, agentLanguage, language, dynamicVariables, voice: mode === 'voice', attributes: this.parts.attributes() }, log.warn);
    const event = new VoiceAgentBeforeStartEvent({
      mode, dynamicVariables: { ...initiation.dynamic_variables }, overrides: structuredClone(initiation.conversation_config_override ?? {}), clientTools: {},
    });
    if (!this.host.dispatchEvent(event)) return null;
    const { dynamicVariables: variables, overrides, clientTools } = readBeforeStart(event.detail);
    return { options: { url: endpoint.socketUrl, initiation: { ...initiation, dynamic_variables: variables, conversation_config_override: overrides } }, tools: clientTools };
  }
}

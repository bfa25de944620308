import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { AudioTurnState } from '../../audio/audio-controller.js';
import { continuationContext, type Continuation } from '../../client/continuation.js';
import { ConversationSession, type EndReason, type SessionEventMap, type SessionOptions, type SessionStatus } from '../../client/session.js';
import { VoiceAgentConversationEndEvent } from '../../events/conversation-end.js';
import { VoiceAgentConversationEvent } from '../../events/conversation.js';
import { VoiceAgentErrorEvent, type VoiceAgentErrorCode } from '../../events/error.js';
import { VoiceAgentMessageEvent } from '../../events/message.js';
import { VoiceAgentStatusEvent } from '../../events/status.js';
import * as log from '../../internal/console.js';
import { ClientToolStore } from '../client-tools.js';
import { findClientTool } from '../find-client-tool.js';
import { whenGone } from './presence.js';

export type { ClientToolHandler } from '../client-tools.js';

/** One line of the transcript. Agent text is markdown (rendered by src/markdown); user text is plain text. */
export interface TranscriptEntry {
  /** Stable key for rendering; keys grow along the transcript (entries are only ever added at its end). */
  readonly key: number;
  readonly role: 'agent' | 'user' | 'notice' | 'tool';
  text: string;
  /** The agent turn's `event_id` (PROTOCOL.md section 3), or null. */
  eventId: number | null;
  /** True while a reply streams (`agent_chat_response_part` start … stop). */
  streaming: boolean;
  /** A visitor's text: `pending` until the handshake, `sent`, or `unsent` when the conversation failed first. */
  delivery?: 'pending' | 'sent' | 'unsent';
  /** A notice's kind: how the conversation ended, a switch of mode, or a voice failure (its label in `message.ts`). */
  notice?: NoticeKind;
  /** A client tool call's state (`agent_working`, `agent_done`, `agent_error` labels). */
  tool?: 'working' | 'done' | 'error';
  /** The visitor's like / dislike of an agent message, once sent (PROTOCOL.md section 4, `feedback_mode: during`). */
  score?: 'like' | 'dislike';
}

/** What a notice line tells: how the conversation ended (`EndReason`), a switch between voice and text, a voice failure. */
export type NoticeKind =
  | EndReason | 'text_mode' | 'voice_mode' | 'microphone_denied' | 'no_microphone' | 'microphone_lost' | 'audio_blocked' | 'output_lost'
  | 'microphone_in_use' | 'microphone_blocked_page' | 'microphone_blocked_frame' | 'insecure_page' | 'microphone_default'
  | 'earlier_in_visit' | 'call_ended_page_changed';

/** How long a client tool may take before its call is answered as an error (`is_error: true`), in ms. */
export const CLIENT_TOOL_TIMEOUT_MS = 10000;

/** What a conversation controller reads from others: the element's client tools, and the voice call's turn. */
export interface ConversationSources {
  /** The client tools a `client_tool_call` is answered from (the element's store); an empty store by default. */
  tools?: ClientToolStore;
  /** The voice call's turn (the voice controller owns it), or null when no call runs or it is switched to text. */
  turn?: () => AudioTurnState | null;
}

/**
 * How long the transcript may lag a streamed reply's text and what the visitor said (ms): the parts of
 * `agent_chat_response_part` (`start`, `delta`s, `stop`) that come within it are drawn together, at most about 8 times a
 * second, rather than once each (each draw re-renders the message's growing markdown), and a `user_transcript` with the
 * reply that follows it; every other message is drawn at once, with what waited (but a reply in a voice call that
 * listens, which waits for its voice: `VOICE_DRAW_MS`).
 */
export const STREAM_DRAW_MS = 120;

/**
 * How long a reply in a voice call may wait for its voice before it is drawn anyway (ms): it is drawn as the agent
 * starts speaking it, in the frame that shows the turn, when that comes first (as it does, within tens of ms).
 */
export const VOICE_DRAW_MS = 250;

/** Why the handshake promise of a conversation rejects when the element leaves the page first. */
const LEFT_PAGE = 'the element left the page before the conversation\'s handshake';

/**
 * Owns the conversation session of one element (DESIGN.md rule 4): opens it on demand, keeps the transcript, and
 * closes the socket when the element leaves the page. The conversation's status and id are the session's own
 * (PROTOCOL.md section 3), read from the latest session: `idle` before the first one.
 */
export class ConversationController implements ReactiveController {
  transcript: TranscriptEntry[] = [];
  /** The client tools a `client_tool_call` is answered from (read at each call, never copied). */
  readonly tools: ClientToolStore;
  readonly #turn: () => AudioTurnState | null;

  #session: ConversationSession | null = null;
  /** The latest session's handshake: resolves to its conversation id (see `start`). */
  #handshake: Promise<string> | null = null;
  /** The `voice-agent-status` detail last dispatched, as `status/turn`: each change is told once. */
  #announced = '';
  /** Why the element ended the latest session itself (a voice failure), told instead of `user`. */
  #cause: NoticeKind | null = null;
  #nextKey = 1;
  #lastActivity = 0;
  /** The pending draw of streamed text (`STREAM_DRAW_MS`), 0 when none. */
  #drawTimer: ReturnType<typeof setTimeout> | 0 = 0;
  /** Why the latest session ended (`endReason`), or null while it runs or before the first. */
  #endReason: EndReason | null = null;
  /** The earlier conversation restored (`restore`) that the next one continues, until that one's handshake is done. */
  #continued: Continuation | null = null;

  constructor(private readonly host: ReactiveControllerHost & EventTarget & { readonly isConnected: boolean }, { tools = new ClientToolStore(), turn = () => null }: ConversationSources = {}) {
    host.addController(this);
    this.tools = tools;
    this.#turn = turn;
  }

  /** The latest session's status: `idle` → `connecting` → `connected` → `ended`. */
  get status(): SessionStatus {
    return this.#session?.status ?? 'idle';
  }

  /** Why the latest session ended (`user`, `agent`, or `error`, a voice failure the element ended it for included), or null. */
  get endReason(): EndReason | null {
    return this.#endReason;
  }

  /** The latest session's conversation id, set by the handshake; null before it. */
  get conversationId(): string | null {
    return this.#session?.conversationId ?? null;
  }

  /** True while a conversation is starting or running. */
  get active(): boolean {
    return this.status === 'connecting' || this.status === 'connected';
  }

  /** The handshake of the conversation starting or running (see `start`), or null when none is. */
  get handshake(): Promise<string> | null {
    return this.active ? this.#handshake : null;
  }

  /** The latest session (the voice controller listens to its audio and interruptions), or null before the first. */
  get session(): ConversationSession | null {
    return this.#session;
  }

  /**
   * The conversation restored from an earlier page, which the next one continues (`restore`), or null: its id and
   * whether a voice call was on when the page changed.
   */
  get continued(): Pick<Continuation, 'conversationId' | 'call'> | null {
    return this.#continued;
  }

  /**
   * Shows the messages of an earlier page of this visit (issue 21) when nothing has happened here yet: each as an
   * entry (agent text through the markdown pipeline again, visitor text as text, without event ids), then, when a call
   * was on, the notice that it ended when the page changed, then the `earlier_in_visit` divider. The next conversation
   * continues it (`start`: a `contextual_update` of its turns first). Nothing when a conversation ran or is shown here,
   * or when there is nothing to show (no message, no call).
   * @returns whether it was restored
   */
  restore(continuation: Continuation): boolean {
    if (this.#session || this.transcript.length || !(continuation.messages.length || continuation.call)) return false;
    for (const { role, text } of continuation.messages) {
      this.#add({ role, text, eventId: null, streaming: false, ...(role === 'user' ? { delivery: 'sent' as const } : {}) }, false);
    }
    if (continuation.call) this.notice('call_ended_page_changed');
    this.notice('earlier_in_visit');
    this.#continued = continuation;
    return true;
  }

  /**
   * The element left the page (not moved in it, see `whenGone`): close the socket, forget the conversation and its
   * transcript (a re-added element shows what its continuation kept). A handshake under way rejects, saying so.
   */
  hostDisconnected(): void {
    whenGone(this.host, () => this.#leave());
  }

  #leave(): void {
    const session = this.#session;
    this.#session = null;
    session?.end();
    this.transcript = [];
    this.#continued = null;
    this.#announced = '';
    clearTimeout(this.#drawTimer);
    this.#drawTimer = 0;
  }

  /**
   * Starts a conversation (while one runs, returns that one's handshake). Failures end in status `ended`, told in the
   * transcript and the console; the returned promise tells the caller too.
   * @returns the session's own handshake: resolves to the conversation id once `conversation_initiation_metadata` came
   * @throws ConversationError (as a rejection) when the socket fails or closes before the handshake; Error when the
   * element leaves the page first
   */
  start(options: SessionOptions): Promise<string> {
    if (this.active) return this.#handshake!;
    const session = new ConversationSession(options);
    this.#session = session;
    this.#cause = this.#endReason = null;
    // Only the latest session speaks: an older one (ended, or closed by the element leaving) is not heard.
    // Each message is drawn at once, but a listener that answers `later` (a streamed delta) is drawn within
    // STREAM_DRAW_MS, together with the deltas that follow it; one that answers `voice` (a reply whose voice follows)
    // within VOICE_DRAW_MS from then, unless the voice starts first (`drawPending`).
    const on = <K extends keyof SessionEventMap>(type: K, listener: (detail: SessionEventMap[K]) => 'later' | 'voice' | void): void =>
      session.addEventListener(type, (event) => {
        if (this.#session !== session) return;
        const when = listener(event.detail);
        if (!when) return this.#draw();
        // A reply waits VOICE_DRAW_MS from its own coming; streamed text keeps the wait it joined.
        if (when === 'later' && this.#drawTimer) return;
        clearTimeout(this.#drawTimer);
        this.#drawTimer = setTimeout(() => this.#draw(), when === 'voice' ? VOICE_DRAW_MS : STREAM_DRAW_MS);
      });
    // A conversation that continues an earlier page's tells the agent its turns and the page now, before anything the
    // visitor sends (the session sends what was queued in order, right after the handshake).
    // It stays the one to continue until a handshake is done: a start that fails first tells the next one again.
    const continued = this.#continued;
    on('conversation_initiation_metadata', (m) => {
      const conversationId = m.conversation_initiation_metadata_event.conversation_id;
      if (this.#continued === continued) this.#continued = null;
      for (const entry of this.transcript) if (entry.delivery === 'pending') entry.delivery = 'sent';
      this.host.dispatchEvent(new VoiceAgentConversationEvent({ conversationId, previousConversationId: continued?.conversationId ?? null }));
      this.announceStatus();
    });
    // A streamed reply's parts are all drawn later: its `start` (an empty bubble) with its first deltas, its `stop`
    // with the `agent_response` that follows it at once (or within STREAM_DRAW_MS when none does).
    on('agent_chat_response_part', ({ text_response_part: part }) => {
      const entry = this.#agentEntry(part.event_id, false);
      if (part.type === 'start') entry.text = '';
      else entry.text += part.text ?? '';
      entry.streaming = part.type !== 'stop';
      return 'later';
    });
    // In a voice call that listens, the agent's voice follows its reply at once: the reply (with what the visitor said,
    // waiting for it) is drawn when the voice starts (`drawPending`, at the turn change), in the frame that shows the
    // agent speaking (one frame, not two), or VOICE_DRAW_MS after it came when no voice does. The page hears of it at
    // once.
    on('agent_response', ({ agent_response_event: response }) => {
      const entry = this.#agentEntry(response.event_id, false);
      entry.text = response.agent_response;
      entry.streaming = false;
      this.#message('agent', entry.text, response.event_id, false);
      return this.active && this.#turn() === 'listening' ? 'voice' : undefined;
    });
    on('agent_response_correction', ({ agent_response_correction_event: correction }) => {
      const entry = this.#findAgent(correction.event_id);
      if (entry) entry.text = correction.corrected_agent_response;
      this.#message('agent', correction.corrected_agent_response, correction.event_id, true);
    });
    // What the visitor said is drawn later too: the agent's reply to it, which comes close behind, is drawn with it (one
    // render and one frame an exchange, not two); the page hears of it at once (`voice-agent-message`).
    on('user_transcript', ({ user_transcription_event: transcript }) => {
      this.#add({ role: 'user', text: transcript.user_transcript, eventId: transcript.event_id, streaming: false, delivery: 'sent' }, false);
      this.#message('user', transcript.user_transcript, transcript.event_id, false);
      return 'later';
    });
    // The service's `error` message: the conversation goes on; the visitor is told in words, the developer with its
    // code (PROTOCOL.md section 3). Before the handshake the close that follows it tells the visitor (once, in `ended`).
    on('error', ({ error_event: e }) => {
      const message = `the service sent error ${e.code ?? ''}: ${e.message ?? ''}`;
      log.warn(message);
      if (this.status === 'connected') this.notice('error');
      this.error('service', message, typeof e.code === 'number' ? e.code : null);
    });
    on('client_tool_call', ({ client_tool_call: call }) => {
      void this.#answerToolCall(session, call.tool_call_id, call.tool_name, call.parameters ?? {});
    });
    on('ended', (end) => {
      if (end.error) {
        log.error(end.error.message);
        this.error('conversation', end.error.message);
      }
      for (const entry of this.transcript) {
        if (entry.delivery === 'pending') entry.delivery = 'unsent';
        entry.streaming = false;
      }
      const cause = this.#cause;
      this.#endReason = cause ? 'error' : end.reason;
      this.notice(cause ?? end.reason);
      this.host.dispatchEvent(
        new VoiceAgentConversationEndEvent({
          conversationId: this.conversationId, reason: cause ? 'error' : end.reason, code: end.code, message: cause ?? end.error?.message ?? null,
        }),
      );
      this.announceStatus();
    });
    // The session's own handshake. A session the element left (hostDisconnected cleared it) says so instead of "ended".
    const handshake = (this.#handshake = session.start().then(
      () => session.conversationId!,
      (error: Error) => Promise.reject(this.#session === session ? error : new Error(LEFT_PAGE)),
    ));
    // Failures are told through `ended`: a caller that does not await the handshake leaves no unhandled rejection.
    handshake.catch(() => {});
    if (continued) {
      session.sendContextualUpdate(continuationContext(continued.messages, continued.conversationId, { title: document.title, path: location.pathname }));
    }
    this.host.requestUpdate();
    this.announceStatus();
    return handshake;
  }

  /** Tells the page (`voice-agent-error`) what failed, in the console's words. */
  error(code: VoiceAgentErrorCode, message: string, serviceCode: number | null = null): void {
    this.host.dispatchEvent(new VoiceAgentErrorEvent({ code, message, serviceCode }));
  }

  /**
   * Draws now what waits to be drawn (within STREAM_DRAW_MS: streamed text, what the visitor said, a reply waiting for
   * its voice). The voice controller calls it as the agent starts speaking, so that the reply shows in the frame that
   * shows the turn.
   */
  drawPending(): void {
    if (this.#drawTimer) this.#draw();
  }

  /** Draws now, with whatever waited: the pending draw, if any, is done. */
  #draw(): void {
    clearTimeout(this.#drawTimer);
    this.#drawTimer = 0;
    this.host.requestUpdate();
  }

  /**
   * Tells the page (`voice-agent-status`) the status and, while a conversation runs, the voice call's turn (read from
   * its owner), when either changed since last told. The voice controller calls it when the turn changes.
   */
  announceStatus(): void {
    if (!this.#session) return;
    const turn = this.active ? this.#turn() : null;
    const announced = `${this.status}/${turn}`;
    if (announced === this.#announced) return;
    this.#announced = announced;
    this.host.dispatchEvent(new VoiceAgentStatusEvent({ status: this.status, turn }));
  }

  #message(source: 'agent' | 'user', text: string, eventId: number | null, correction: boolean): void {
    this.host.dispatchEvent(new VoiceAgentMessageEvent({ source, text, eventId, correction }));
  }

  /** Adds a notice line to the transcript (`part="notice"`). */
  notice(kind: NoticeKind): void {
    this.#add({ role: 'notice', text: '', eventId: null, streaming: false, notice: kind });
  }

  /**
   * Adds the visitor's text to the transcript and sends it (`user_message`): at once when connected, after the handshake
   * while connecting (`pending`), or marked `unsent` when no conversation runs.
   */
  sendText(text: string): void {
    const entry = this.#add({ role: 'user', text, eventId: null, streaming: false, delivery: this.status === 'connected' ? 'sent' : 'pending' });
    if (!this.#session?.sendUserMessage(text)) entry.delivery = 'unsent';
    else this.#message('user', text, null, false);
  }

  /**
   * Sends a visitor's message that did not reach the agent (`unsent`) again, in the conversation that runs (the caller
   * starts one first): it moves to the end of the transcript, `pending` until the handshake, then `sent`.
   */
  resend(entry: TranscriptEntry): void {
    const index = this.transcript.indexOf(entry);
    if (index < 0 || entry.delivery !== 'unsent') return;
    this.transcript.splice(index, 1);
    this.sendText(entry.text);
  }

  /** Sends a `contextual_update` (information for the agent that asks for no reply); false when no conversation runs. */
  sendContextualUpdate(text: string): boolean {
    return this.active && (this.#session?.sendContextualUpdate(text) ?? false);
  }

  /** Sends one chunk of microphone audio (`user_audio_chunk`, base64); dropped before the handshake and after the end. */
  sendAudio(base64: string): boolean {
    return this.#session?.sendUserAudioChunk(base64) ?? false;
  }

  /** Tells the service the visitor is typing, at most once a second (PROTOCOL.md section 3). */
  typing(): void {
    const now = Date.now();
    if (this.status !== 'connected' || now - this.#lastActivity < 1000) return;
    this.#lastActivity = now;
    this.#session?.sendUserActivity();
  }

  /** Sends `feedback` once for an agent message with an `event_id` while the conversation runs (PROTOCOL.md section 4). */
  rate(entry: TranscriptEntry, score: 'like' | 'dislike'): void {
    if (entry.score || entry.eventId === null || !this.#session?.sendFeedback(score, entry.eventId)) return;
    entry.score = score;
    this.host.requestUpdate();
  }

  /**
   * Ends the conversation from the visitor's side (`end_call`), or for `cause` (a voice failure): then the notice and
   * the `voice-agent-conversation-end` event tell the cause (`reason: 'error'`, `message`: the cause).
   */
  end(cause?: NoticeKind): void {
    if (!this.active) return;
    this.#cause = cause ?? null;
    this.#session?.end();
  }

  /**
   * Runs the page's tool for a `client_tool_call` and answers it (`client_tool_result`): what the client tool store
   * finds (the conversation's own tools, the page's, its handler). A rejection, a throw, no answer within `CLIENT_TOOL_TIMEOUT_MS` and
   * an unknown tool are answered with `is_error: true` and told (`voice-agent-error`, `client-tool`). The transcript
   * shows working → done / error.
   */
  async #answerToolCall(session: ConversationSession, id: string, name: string, parameters: Record<string, unknown>): Promise<void> {
    const entry = this.#add({ role: 'tool', text: name, eventId: null, streaming: false, tool: 'working' });
    const tool = findClientTool(this.tools, name);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let result: string;
    try {
      if (!tool) throw new Error(`Client tool "${name}" is not registered on this page`);
      const run = Promise.resolve().then(() => tool(parameters));
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Client tool "${name}" gave no answer within ${CLIENT_TOOL_TIMEOUT_MS} ms`)), CLIENT_TOOL_TIMEOUT_MS);
      });
      const value = await Promise.race([run, late]);
      result = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
      entry.tool = 'done';
    } catch (error) {
      result = error instanceof Error ? error.message : String(error);
      entry.tool = 'error';
      this.error('client-tool', result);
    } finally {
      clearTimeout(timer);
    }
    session.sendClientToolResult(id, result, entry.tool === 'error');
    this.host.requestUpdate();
  }

  /** The agent entry of turn `eventId`, added when there is none (and drawn at once unless `draw` is false). */
  #agentEntry(eventId: number, draw = true): TranscriptEntry {
    return this.#findAgent(eventId) ?? this.#add({ role: 'agent', text: '', eventId, streaming: true }, draw);
  }

  /** The agent entry of turn `eventId`, or undefined: from the end, so a delta costs the same in a long transcript. */
  #findAgent(eventId: number): TranscriptEntry | undefined {
    for (let i = this.transcript.length - 1; i >= 0; i--) {
      const entry = this.transcript[i]!;
      if (entry.role === 'agent' && entry.eventId === eventId) return entry;
    }
    return undefined;
  }

  #add(entry: Omit<TranscriptEntry, 'key'>, draw = true): TranscriptEntry {
    const full = { ...entry, key: this.#nextKey++ };
    this.transcript.push(full);
    if (draw) this.host.requestUpdate();
    return full;
  }
}

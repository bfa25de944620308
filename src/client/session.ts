/**
 * A conversation over the socket of PROTOCOL.md section 3, usable without the element.
 *
 * ```ts
 * const session = new ConversationSession({ url: conversationSocketUrl(serverUrl, agentId) });
 * session.addEventListener('agent_response', (e) => console.log(e.detail.agent_response_event.agent_response));
 * await session.start();
 * session.sendUserMessage('Hello');
 * ```
 */
import { ConversationError } from './errors.js';
import { parseServerMessage, type AudioFormat, type ConversationInitiation, type ServerMessageMap } from './protocol.js';

/**
 * The least silence (ms) that counts as a lost connection once the service pings regularly: a service that pings
 * every second and then goes silent is noticed within 5 s, not after `silenceTimeoutMs`.
 */
export const MIN_SILENCE_MS = 5000;

/** The version sent as `source_info.version`. */
export const WIDGET_VERSION = '0.1.0';

/** Lifecycle of a session: `idle` → `connecting` (socket opening, waiting for the metadata) → `connected` → `ended`. */
export type SessionStatus = 'idle' | 'connecting' | 'connected' | 'ended';
/** Why a session ended: the visitor (`end()`), the agent (close code 1000), or a failure (any other close; PROTOCOL.md section 3). */
export type EndReason = 'user' | 'agent' | 'error';

/** What `ended` carries. `unsent` holds the visitor's texts that never reached the service. */
export interface SessionEnd {
  reason: EndReason;
  /** The close code, when the socket closed. */
  code: number | null;
  error: ConversationError | null;
  unsent: string[];
}

/**
 * Events of a session: one per server message type, named and shaped as on the wire (`detail` is the message),
 * and `ended` once at the end.
 */
export type SessionEventMap = { [K in keyof ServerMessageMap]: { type: K } & ServerMessageMap[K] } & { ended: SessionEnd };

/** Options of a session. `url` is the full socket URL (`conversationSocketUrl`, or a signed URL). */
export interface SessionOptions {
  url: string;
  initiation?: ConversationInitiation;
  /**
   * The WebSocket class (default: the page's). Injectable for unit tests (DESIGN.md rule 11); a voice call of the
   * element passes `CallWorker.WebSocket` (src/audio/call-thread.ts), whose socket lives in the call worker.
   */
  WebSocket?: typeof WebSocket;
  /** How long to wait for `conversation_initiation_metadata` after starting, in ms (default 10000). */
  handshakeTimeoutMs?: number;
  /**
   * After the handshake and before the service's pings show their pace, how long it may send nothing at all (no
   * message, no ping) before the connection counts as lost, in ms (default 30000). Once two pings have come, the bound
   * is three ping intervals (the longest gap seen), at least `MIN_SILENCE_MS` (or this bound, when smaller).
   */
  silenceTimeoutMs?: number;
}

/** A typed event of a session: `event.detail` as in `SessionEventMap`. */
export class SessionEvent<K extends keyof SessionEventMap = keyof SessionEventMap> extends Event {
  constructor(type: K, readonly detail: SessionEventMap[K]) {
    super(type);
  }
}

export interface ConversationSession {
  addEventListener<K extends keyof SessionEventMap>(type: K, listener: (event: SessionEvent<K>) => void, options?: AddEventListenerOptions | boolean): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: AddEventListenerOptions | boolean): void;
  removeEventListener<K extends keyof SessionEventMap>(type: K, listener: (event: SessionEvent<K>) => void, options?: EventListenerOptions | boolean): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: EventListenerOptions | boolean): void;
}

const OPEN = 1;
const CLOSED = 3;

/**
 * One conversation on the socket. Sends nothing but the initiation until the service's metadata arrives;
 * text sent meanwhile waits and goes after it (never lost); audio sent meanwhile is dropped (PROTOCOL.md section 3).
 * Answers every `ping` with a `pong` at once. Ignores frames that are not JSON and unknown types (counted in `ignoredFrames`).
 * A connected service that sends nothing at all for the silence bound has lost the connection: the session ends with
 * reason `error` (a silent server, PROTOCOL.md section 3). The bound is `silenceTimeoutMs` (30 s) until two pings have
 * come, then three ping intervals, at least `MIN_SILENCE_MS` (5 s).
 */
export class ConversationSession extends EventTarget {
  status: SessionStatus = 'idle';
  conversationId: string | null = null;
  agentOutputAudioFormat: AudioFormat = 'pcm_16000';
  userInputAudioFormat: AudioFormat = 'pcm_16000';
  ignoredFrames = 0;

  #socket: WebSocket | null = null;
  #pending: [frame: string, text?: string][] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the last ping came (performance.now(), ms) and the longest gap between two pings seen (ms). */
  #lastPing = 0;
  #pingInterval = 0;
  #settle: [resolve: () => void, reject: (error: ConversationError) => void] | null = null;

  constructor(private readonly options: SessionOptions) {
    super();
  }

  /**
   * Opens the socket and sends the initiation.
   * @returns resolves when the handshake is done
   * @throws ConversationError when the socket cannot open or closes first, or the metadata does not come in time
   */
  start(): Promise<void> {
    if (this.status !== 'idle') return Promise.reject(new ConversationError('a session starts only once'));
    this.status = 'connecting';
    const { url, initiation = {}, handshakeTimeoutMs = 10000 } = this.options;
    const done = new Promise<void>((resolve, reject) => (this.#settle = [resolve, reject]));
    this.#timer = setTimeout(() => this.#fail(`no conversation_initiation_metadata within ${handshakeTimeoutMs} ms`, null), handshakeTimeoutMs);
    try {
      const socket = (this.#socket = new (this.options.WebSocket ?? WebSocket)(url));
      socket.onopen = () =>
        socket.send(JSON.stringify({ type: 'conversation_initiation_client_data', ...initiation, source_info: { source: 'widget', version: WIDGET_VERSION } }));
      socket.onmessage = (event) => this.#receive(event.data);
      socket.onclose = (event) => {
        if (event.code === 1000 && this.conversationId) this.#finish({ reason: 'agent', code: 1000, error: null });
        else this.#fail(`the conversation socket ${this.conversationId ? 'closed' : 'could not open'} (code ${event.code}${event.reason ? `, ${event.reason}` : ''})`, event.code, event.reason);
      };
      // A socket the page's CSP (connect-src) blocks is made closed and fires `error` alone, never `close` (Chromium),
      // or is refused at once with an exception named NS_ERROR_CONTENT_BLOCKED (Firefox 153).
      if (socket.readyState === CLOSED) throw new DOMException('', 'SecurityError');
    } catch (error) {
      const refused = /Security|BLOCKED/.test((error as Error).name);
      this.#fail(refused ? `the browser refused to open ${url} (is its origin in the page's Content-Security-Policy connect-src?)` : `cannot open ${url}: ${(error as Error).message}`, null);
    }
    return done;
  }

  /** Sends `user_message` (queued until the handshake). Returns false when the session has ended. */
  sendUserMessage(text: string): boolean {
    return this.#send({ type: 'user_message', text }, text);
  }

  /** Sends `user_activity` (the visitor is typing). The caller limits it to one a second. */
  sendUserActivity(): boolean {
    return this.#send({ type: 'user_activity' });
  }

  /** Sends `contextual_update`: information for the agent that asks for no reply. */
  sendContextualUpdate(text: string): boolean {
    return this.#send({ type: 'contextual_update', text });
  }

  /** Sends `feedback` on one agent message (PROTOCOL.md section 4, `feedback_mode: during`). */
  sendFeedback(score: 'like' | 'dislike', eventId: number): boolean {
    return this.#send({ type: 'feedback', score, event_id: eventId });
  }

  /** Answers a `client_tool_call`. */
  sendClientToolResult(toolCallId: string, result: string, isError: boolean): boolean {
    return this.#send({ type: 'client_tool_result', tool_call_id: toolCallId, result, is_error: isError });
  }

  /**
   * Sends one chunk of microphone audio: base64 of `userInputAudioFormat`. Dropped (false) before the handshake
   * and after the end (PROTOCOL.md section 3).
   */
  sendUserAudioChunk(base64: string): boolean {
    return this.status === 'connected' && this.#send({ user_audio_chunk: base64 });
  }

  /** Ends the conversation from the visitor's side: closes the socket with 1000 and dispatches `ended` (`user`). */
  end(): void {
    this.#finish({ reason: 'user', code: 1000, error: null });
  }

  #send(message: object, text?: string): boolean {
    if (this.status === 'ended' || this.status === 'idle') return false;
    const frame = JSON.stringify(message);
    if (this.status === 'connected' && this.#socket?.readyState === OPEN) this.#socket.send(frame);
    else this.#pending.push([frame, text]);
    return true;
  }

  #receive(data: unknown): void {
    const message = parseServerMessage(data);
    if (this.status === 'connected') this.#watch();
    if (!message || 'unknown' in message || this.status === 'ended') {
      this.ignoredFrames += 1;
      return;
    }
    if (message.type === 'conversation_initiation_metadata') {
      if (this.status !== 'connecting') return;
      const event = message.conversation_initiation_metadata_event;
      this.status = 'connected';
      this.#watch();
      this.conversationId = event.conversation_id;
      this.agentOutputAudioFormat = event.agent_output_audio_format ?? 'pcm_16000';
      this.userInputAudioFormat = event.user_input_audio_format ?? 'pcm_16000';
      for (const [frame] of this.#pending.splice(0)) this.#socket?.send(frame);
      this.#settle?.[0]();
      this.#settle = null;
    } else if (message.type === 'ping') {
      const now = performance.now();
      if (this.#lastPing) this.#pingInterval = Math.max(this.#pingInterval, now - this.#lastPing);
      this.#lastPing = now;
      this.#send({ type: 'pong', event_id: message.ping_event.event_id });
    }
    this.dispatchEvent(new SessionEvent(message.type, message as never));
  }

  /**
   * (Re)arms the silence watchdog: a connected service that sends nothing for the bound has lost the connection. The
   * bound: `silenceTimeoutMs` before the pings' pace is known, then three ping intervals, at least `MIN_SILENCE_MS`.
   */
  #watch(): void {
    clearTimeout(this.#timer);
    const silence = this.options.silenceTimeoutMs ?? 30000;
    const bound = this.#pingInterval ? Math.max(Math.min(MIN_SILENCE_MS, silence), 3 * this.#pingInterval) : silence;
    this.#timer = setTimeout(() => this.#fail(`the service sent nothing for ${Math.round(bound / 1000)} s: the connection is lost`, null), bound);
  }

  #fail(message: string, code: number | null, reason = ''): void {
    this.#finish({ reason: 'error', code, error: new ConversationError(message, code, reason) });
  }

  #finish(end: Omit<SessionEnd, 'unsent'>): void {
    if (this.status === 'ended') return;
    this.status = 'ended';
    clearTimeout(this.#timer);
    const socket = this.#socket;
    this.#socket = null;
    if (socket) {
      socket.onclose = socket.onmessage = socket.onopen = null;
      if (socket.readyState <= OPEN) socket.close(1000);
    }
    this.#settle?.[1](end.error ?? new ConversationError(`the conversation ended (${end.reason}) before the handshake`, end.code));
    this.#settle = null;
    const unsent = this.#pending.flatMap(([, text]) => (text === undefined ? [] : [text]));
    this.#pending = [];
    this.dispatchEvent(new SessionEvent('ended', { ...end, unsent }));
  }
}

/**
 * The call worker: a dedicated Worker that owns a voice call's conversation socket (PROTOCOL.md section 3) and its
 * audio traffic, so that the page's main thread does none of the 50 sends a second of microphone chunks, nor the
 * decoding of the agent's audio (bench:call-floor: 54 ms of main thread a second when the page sends them, 0.6 in a
 * worker). Loaded from a Blob URL of `callWorkerSource` (call-thread.ts), so the page's Content-Security-Policy
 * (`connect-src`) governs its socket as it would the page's own.
 *
 * Messages from the page (`CallWorkerCommand`):
 * - `{open: url}` opens the socket; `{send: text}` sends a text frame once it is open (else drops it: the session
 *   queues until the handshake); `{close: code}` closes it;
 * - `{audio: {capture, playback, from, to, ulaw}}` once the call's audio runs: `capture` is a port on which the capture
 *   worklet posts its chunks (`{pcm, level}`), each sent as `{"user_audio_chunk": base64}`; `playback` a port to the
 *   playback worklet, which gets the samples of every `audio` event decoded from `from` Hz (μ-law when `ulaw`, else
 *   16-bit PCM) to the context's `to` Hz, and `'clear'` at an `interruption`;
 * - `{interrupt: eventId}`: drops audio at or below it from now on and clears the playback worklet (also learnt from
 *   the `interruption` frames; an interruption already seen does nothing);
 * - `{levels: {canvases, color}}`: square canvases (transferred from the page) around the elements that show
 *   the levels; each gets a ring in `color` (half opaque) between the element's circle (the inner 1/1.35 of the
 *   canvas) and 1 + 0.35 × the larger of the microphone's and the agent's level of it, each on a level meter's scale
 *   (0..1, -50 to -10 dBFS) rising at once and falling back (level-meter.ts), the growth the page's own `transform`
 *   gives where no worker runs (levels.ts): drawn at the worker's animation frames, 10 times a second at most, only
 *   when the level moved the largest ring's edge by a device pixel or more (each draw costs the page's main thread a
 *   task);
 * - `{view: {visible, still}}`: the page is shown (`!document.hidden`) and may move (no `prefers-reduced-motion`):
 *   otherwise nothing is drawn and the rings are cleared;
 * - `{watch: true}`: from then on, copies of what goes through (`{watched: [kind, value, ms]}`, `ms` since the epoch),
 *   for tests and debugging.
 *
 * Messages to the page (`CallWorkerReport`): `{ready: 1}` once running; `{open: 1}`; `{frames: [text, …]}` with the
 * frames received, in order (a frame after `FRAMES_MS` of none goes within `BURST_MS`, with the frames the service sent
 * with it, such as the conversation's metadata and its first message; an `interruption` at once, with what waited; the
 * frames that follow within `FRAMES_MS`, a reply's streamed parts, go together at its end: one task and one render on
 * the page, not one each),
 * but for two kinds the page does not use: an `audio` event (its samples go to the playback worklet here, kept until
 * the audio is attached when they come before it; the page gets it with `audio_base_64` emptied) and a `vad_score`
 * are forwarded only when no frame was for `QUIET_MS` (2 s: so that the session's silence watchdog still hears the
 * service);
 * `{closed: [code, reason]}` when the socket closed (the worker then ends itself); `{refused: [name, message]}` when the
 * socket could not be made (the page's CSP).
 */
import { meterFall, meterLevel } from './level-meter.js';
import { base64ToBytes, bytesToBase64, createResampler, decodeUlaw, pcm16ToFloat, resampleLinear, ulawToFloat } from './pcm.js';

/** What the page sends the call worker. */
export type CallWorkerCommand =
  | { open: string }
  | { send: string }
  | { close: number }
  | { audio: { capture: MessagePort; playback: MessagePort; from: number; to: number; ulaw: boolean } }
  | { interrupt: number }
  | { levels: { canvases: OffscreenCanvas[]; color: string } }
  | { view: { visible: boolean; still: boolean } }
  | { watch: true };

/**
 * What the call worker sends the page. `watched` kinds: `sent`, `received` (frame texts), `played` (event_id),
 * `closed` (code), `drawn` (the microphone's and the agent's meter level, 0..1, of which the ring shows the larger).
 */
export type CallWorkerReport =
  | { ready: 1 }
  | { open: 1 }
  | { frames: (string | ArrayBuffer | Blob)[] }
  | { closed: [code: number, reason: string] }
  | { refused: [name: string, message: string] }
  | { watched: [kind: WatchedKind, value: unknown, ms: number] };

type WatchedKind = 'sent' | 'received' | 'played' | 'closed' | 'drawn';

/**
 * Runs in the worker, from its source text in `callWorkerSource`: it may use only the worker's globals and the pcm.ts
 * functions sent along with it.
 */
function runCallWorker(): void {
  const scope = self as unknown as { postMessage(message: CallWorkerReport): void; onmessage: ((event: MessageEvent) => void) | null; close(): void };
  let socket: WebSocket | null = null;
  let playback: MessagePort | null = null;
  /** The agent's audio to samples at the context's rate, set with the audio ports (nothing plays before them). */
  let decode: (bytes: Uint8Array) => Float32Array;
  let interrupted = -Infinity;
  let watched = false;
  /**
   * How long (ms) frames that follow one another are gathered before they go to the page together: a delay a reader
   * cannot see (the page draws a streamed reply every 120 ms anyway); the audio never waits, it plays from here.
   */
  const FRAMES_MS = 100;
  /**
   * How long (ms) a frame after a quiet spell waits for the frames sent with it (the service writes the conversation's
   * metadata, its first message and a ping at once): they reach the page in one message, one render, rather than the
   * first alone and the others `FRAMES_MS` later, just as the call goes live.
   */
  const BURST_MS = 8;
  /**
   * How long (ms) the page may go without a frame while only `audio` and `vad_score` come, which it does not use: one
   * then keeps its session's silence watchdog fed (its bound is at least 5 s: session.ts `MIN_SILENCE_MS`).
   */
  const QUIET_MS = 2000;
  const post = (report: CallWorkerReport): void => scope.postMessage(report);
  const watch = (kind: WatchedKind, value: unknown): void => {
    if (watched) post({ watched: [kind, value, performance.timeOrigin + performance.now()] });
  };
  // The levels: the microphone's (per chunk) and the agent's (from the playback worklet), on a level meter's scale and
  // with its fall (level-meter.ts: each rises at once to `meterLevel` of its RMS, then falls back), drawn as a ring
  // around each level element at an animation frame at most every DRAW_MS, when the larger one moved the largest
  // ring's edge by a device pixel or more (`step`), never while the page is hidden or the visitor prefers reduced
  // motion. Each draw costs the page a task all the same (Chromium hands the canvas's new image to its placeholder
  // element on the main thread: 0.1 to 0.2 ms each), hence a level meter's usual rate rather than the display's.
  const DRAW_MS = 100;
  const rings: { context: OffscreenCanvasRenderingContext2D; size: number }[] = [];
  let step = 1;
  /** When the rings were last drawn (performance.now(), ms). */
  let drawnAt = -Infinity;
  let color = '';
  /** Each level's meter: the position it last rose to (0..1) and when (performance.now(), ms). */
  const meters = { mic: [0, 0], agent: [0, 0] };
  const shown = (now: number): number[] => [meters.mic, meters.agent].map(([peak, at]) => meterFall(peak!, at!, now));
  /** A new RMS level (0..1) of `source`: its meter rises to it, or goes on falling when it shows more. */
  const level = (source: keyof typeof meters, rms: number): void => {
    const now = performance.now();
    const position = meterLevel(rms);
    if (position >= meterFall(meters[source][0]!, meters[source][1]!, now)) meters[source] = [position, now];
    levelsChanged();
  };
  let drawn = 0;
  let frame = false;
  let visible = true;
  let still = false;
  const nextFrame: (draw: () => void) => void = (self as { requestAnimationFrame?: (f: () => void) => number }).requestAnimationFrame?.bind(self) ?? ((draw) => setTimeout(draw, 16));
  const draw = (): void => {
    frame = false;
    if (!visible || still) return;
    drawnAt = performance.now();
    const levels = shown(drawnAt);
    drawn = Math.max(...levels);
    for (const { context, size } of rings) {
      context.clearRect(0, 0, size, size);
      // The element's circle is the canvas's inner 1/1.35; the ring reaches out to 1 + 0.35 × level of it.
      const inner = size / 2 / 1.35;
      context.beginPath();
      context.arc(size / 2, size / 2, inner * (1 + 0.35 * drawn), 0, 2 * Math.PI);
      context.arc(size / 2, size / 2, inner, 0, 2 * Math.PI, true);
      context.fill();
    }
    watch('drawn', levels);
  };
  const levelsChanged = (): void => {
    if (!frame && rings.length && visible && !still && Math.abs(Math.max(...shown(performance.now())) - drawn) >= step) {
      frame = true;
      const wait = drawnAt + DRAW_MS - performance.now();
      if (wait > 0) setTimeout(() => nextFrame(draw), wait);
      else nextFrame(draw);
    }
  };
  const send = (text: string): void => {
    if (socket?.readyState !== 1) return;
    socket.send(text);
    watch('sent', text);
  };
  /** Drops audio at or below `eventId`, and what plays now, once per interruption (the frame, or the page's word for it). */
  const interrupt = (eventId: number): void => {
    if (eventId <= interrupted) return;
    interrupted = eventId;
    playback?.postMessage('clear');
  };
  /** When a frame was last forwarded (performance.now(), ms). */
  let forwarded = 0;
  /** Frames received and not yet handed to the page, when the page last got frames (ms), and the timer that will. */
  let pending: (string | ArrayBuffer | Blob)[] = [];
  let handed = -Infinity;
  let handTimer: ReturnType<typeof setTimeout> | 0 = 0;
  const hand = (): void => {
    clearTimeout(handTimer);
    handTimer = 0;
    if (!pending.length) return;
    post({ frames: pending });
    pending = [];
    handed = performance.now();
  };
  /**
   * Hands `frame` to the page: within BURST_MS after FRAMES_MS of none, else with the others at the end of that time;
   * at once when `urgent` (an interruption), with what waited.
   */
  const forward = (frame: string | ArrayBuffer | Blob, urgent = false): void => {
    pending.push(frame);
    if (urgent) return hand();
    handTimer ||= setTimeout(hand, Math.max(BURST_MS, handed + FRAMES_MS - performance.now()));
  };
  /**
   * `audio` events to play, `[audio_base_64, event_id]`: at once when the audio ports are here, else kept until they
   * come (the agent's first words, while the page loads its worklets), rather than handed to the page to decode.
   */
  const queued: [string, number][] = [];
  /** Decodes one `audio` event for the playback worklet; drops it at or below an interruption, or when not base64. */
  const play = (base64: string, eventId: number): void => {
    if (eventId <= interrupted) return;
    try {
      const samples = decode(base64ToBytes(base64));
      playback!.postMessage({ samples }, [samples.buffer]);
      watch('played', eventId);
    } catch {
      // Not base64: dropped, as the page would.
    }
  };
  /** Plays what is queued (once the audio ports are here). */
  const playQueued = (): void => queued.splice(0).forEach(([base64, eventId]) => play(base64, eventId));
  /**
   * Plays an `audio` event here (or keeps it until the audio ports come); forwards it without its audio, like a
   * `vad_score`, only when nothing else was forwarded for `QUIET_MS` (the page uses neither; one then keeps its
   * session's silence watchdog fed). Anything else is forwarded as it came; an `interruption` at once, with what
   * waited (the page's audio state follows it).
   */
  const receive = (data: string | ArrayBuffer | Blob): void => {
    if (typeof data !== 'string') return forward(data);
    watch('received', data);
    let text = data;
    let quiet = false;
    let urgent = false;
    if (/^\s*\{/.test(text) && /"(audio|interruption|vad_score)"/.test(text)) {
      try {
        const frame = JSON.parse(text);
        const event = frame.audio_event;
        if (frame.type === 'audio' && typeof event?.audio_base_64 === 'string' && typeof event.event_id === 'number') {
          queued.push([event.audio_base_64, event.event_id]);
          if (playback) playQueued();
          event.audio_base_64 = '';
          text = JSON.stringify(frame);
          quiet = true;
        } else if (frame.type === 'interruption' && typeof frame.interruption_event?.event_id === 'number') {
          interrupt(frame.interruption_event.event_id);
          urgent = true;
        } else quiet = frame.type === 'vad_score';
      } catch {
        // Not JSON: forwarded as it came; the page's session judges it.
      }
    }
    const now = performance.now();
    if (quiet && now - forwarded < QUIET_MS) return;
    forwarded = now;
    forward(text, urgent);
  };
  const open = (url: string): void => {
    try {
      socket = new WebSocket(url);
      // A socket the CSP blocks is made closed (Chromium) or refused with an exception (Firefox).
      if (socket.readyState === 3) throw new DOMException('', 'SecurityError');
    } catch (error) {
      socket = null;
      post({ refused: [(error as Error).name, (error as Error).message] });
      return;
    }
    socket.onopen = () => post({ open: 1 });
    socket.onmessage = ({ data }) => receive(data);
    socket.onclose = ({ code, reason }) => {
      watch('closed', code);
      hand();
      post({ closed: [code, reason] });
      scope.close();
    };
  };
  scope.onmessage = ({ data }: MessageEvent<CallWorkerCommand>) => {
    if ('open' in data) open(data.open);
    else if ('send' in data) send(data.send);
    else if ('close' in data) {
      if (!socket || socket.readyState === 3) scope.close();
      else if (socket.readyState < 2) socket.close(data.close);
      // The close handshake gets 2 s; then the worker ends itself anyway.
      setTimeout(() => scope.close(), 2000);
    } else if ('audio' in data) {
      const { capture, from, to, ulaw } = data.audio;
      const resample = createResampler(from, to);
      decode = (bytes) => resample(ulaw ? ulawToFloat(bytes) : pcm16ToFloat(bytes));
      playback = data.audio.playback;
      playback.onmessage = ({ data: report }) => level('agent', report.level);
      playQueued();
      capture.onmessage = ({ data: chunk }) => {
        send(JSON.stringify({ user_audio_chunk: bytesToBase64(new Uint8Array(chunk.pcm.buffer)) }));
        level('mic', chunk.level);
      };
    } else if ('interrupt' in data) interrupt(data.interrupt);
    else if ('levels' in data) {
      color = data.levels.color;
      for (const canvas of data.levels.canvases) {
        const context = canvas.getContext('2d');
        if (!context) continue;
        context.fillStyle = color;
        context.globalAlpha = 0.5;
        rings.push({ context, size: canvas.width });
        // The ring's edge is at inner × (1 + 0.35 × level), inner = size / 2 / 1.35: a pixel of it is a level change
        // of 1 / (0.35 × size / 2.7) = 7.714 / size.
        step = Math.min(step, 7.714 / canvas.width);
      }
      drawn = -1;
      levelsChanged();
    } else if ('view' in data) {
      ({ visible, still } = data.view);
      if (!visible || still) for (const { context, size } of rings) context.clearRect(0, 0, size, size);
      drawn = still ? 0 : -1;
      levelsChanged();
    }
    else if ('watch' in data) watched = true;
  };
  post({ ready: 1 });
}

/**
 * The source text of the call worker: `runCallWorker` and the pcm.ts functions it calls, as the build left them
 * (minified in the bundles: the names in the text are the ones the minifier gave, hence `.name`).
 */
export const callWorkerSource = `${[base64ToBytes, bytesToBase64, createResampler, resampleLinear, pcm16ToFloat, decodeUlaw, ulawToFloat, meterLevel, meterFall, runCallWorker].join('\n')}\n${runCallWorker.name}();`;

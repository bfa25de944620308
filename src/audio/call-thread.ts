/**
 * The page's side of the call worker (call-worker.ts): starts one for a call, and gives the conversation session a
 * WebSocket-shaped class whose socket lives in it (`CallWorker.WebSocket`, for `SessionOptions.WebSocket`), so that the
 * session's logic (handshake, queue, pings, silence watchdog) stays on the page while the sending and the audio do not.
 *
 * Where no worker can run, `CallWorker.start()` resolves null and the call runs on the page's main thread as before:
 * an engine without `Worker`, or a page whose Content-Security-Policy refuses `blob:` workers (`worker-src`, else
 * `script-src`): the browser then reports that violation once per page (README "Content Security Policy").
 */
import { callWorkerSource, type CallWorkerCommand, type CallWorkerReport } from './call-worker.js';

/** How long a new call worker may take to say it runs before the call goes on without it (ms). */
export const CALL_WORKER_START_MS = 3000;

/** Set once a worker could not start on this page (a CSP refused it, or it did not start in time): later calls do not try. */
let refused = false;

/** A voice call's worker: its socket (`WebSocket`), the audio ports (`attachAudio`), `interrupt`, `close`. */
export class CallWorker {
  /**
   * A class shaped as the WebSocket a `ConversationSession` uses (`readyState`, `send`, `close`, `onopen`,
   * `onmessage`, `onclose`), whose one socket is opened in this worker. A socket the browser refuses (the page's CSP
   * `connect-src`) closes with code 1006 and the reason; a worker that ends first closes it with 1006.
   */
  readonly WebSocket: typeof WebSocket;

  /**
   * Starts a call worker from a Blob URL of its source. Never rejects.
   * @returns the worker once it runs; null where none can (see the module's note) or it did not start within
   * `CALL_WORKER_START_MS`
   */
  static start(): Promise<CallWorker | null> {
    if (refused || typeof Worker !== 'function') return Promise.resolve(null);
    let url = '';
    let worker: Worker;
    try {
      url = URL.createObjectURL(new Blob([callWorkerSource], { type: 'text/javascript' }));
      worker = new Worker(url, { name: 'voice-agent-call' });
    } catch {
      if (url) URL.revokeObjectURL(url);
      refused = true;
      return Promise.resolve(null);
    }
    return new Promise((resolve) => {
      const settle = (running: boolean): void => {
        clearTimeout(timer);
        worker.onmessage = worker.onerror = null;
        URL.revokeObjectURL(url);
        if (!running) {
          worker.terminate();
          refused = true;
        }
        resolve(running ? new CallWorker(worker) : null);
      };
      const timer = setTimeout(() => settle(false), CALL_WORKER_START_MS);
      worker.onmessage = ({ data }: MessageEvent<CallWorkerReport>) => 'ready' in data && settle(true);
      worker.onerror = (event) => {
        event.preventDefault();
        settle(false);
      };
    });
  }

  private constructor(private readonly worker: Worker) {
    this.WebSocket = socketClass(worker, (command) => this.#post(command));
  }

  /**
   * Hands the worker the call's audio ports once the call's audio runs: `capture` receives the capture worklet's
   * chunks (sent from the worker as `user_audio_chunk`s), `playback` reaches the playback worklet (the worker plays
   * each `audio` event, decoded from `outputFormat` at `from` Hz, μ-law when `ulaw`, to the context's `to` Hz).
   */
  attachAudio(capture: MessagePort, playback: MessagePort, from: number, to: number, ulaw: boolean): void {
    this.#post({ audio: { capture, playback, from, to, ulaw } }, [capture, playback]);
  }

  /**
   * `interruption` (PROTOCOL.md section 3): empties the playback worklet and drops audio with an `event_id` at or
   * below `eventId`; nothing when the worker already saw that interruption on its socket.
   */
  interrupt(eventId: number): void {
    this.#post({ interrupt: eventId });
  }

  /**
   * Shows the call's levels around `element` (a circle: the header's avatar, the orb) without the page's main thread:
   * a canvas 1.35 times its size, centred on it, drawn by the worker (see call-worker.ts) in `color` (a CSS colour).
   * The element should be `position: relative` and `isolation: isolate` (the canvas goes behind its content).
   * @param size the element's larger side in CSS px, as its layout gave it (read by the caller where reading it forces
   * no layout: a `ResizeObserver` entry)
   * @returns the canvas, to remove at the end of the call; null where the engine has no `OffscreenCanvas`
   */
  showLevels(element: HTMLElement, color: string, size: number): HTMLCanvasElement | null {
    const canvas = element.ownerDocument.createElement('canvas');
    if (typeof canvas.transferControlToOffscreen !== 'function') return null;
    const side = size * 1.35;
    canvas.className = 'level-ring';
    canvas.setAttribute('aria-hidden', 'true');
    canvas.width = canvas.height = Math.ceil(side * (devicePixelRatio || 1));
    canvas.style.width = canvas.style.height = `${side}px`;
    element.append(canvas);
    const offscreen = canvas.transferControlToOffscreen();
    this.#post({ levels: { canvases: [offscreen], color } }, [offscreen]);
    return canvas;
  }

  /** Whether levels may be drawn: the page is shown and the visitor does not prefer reduced motion. */
  view(visible: boolean, still: boolean): void {
    this.#post({ view: { visible, still } });
  }

  /** Ends the worker: it closes its socket (1000) if open and then ends itself (at most 2 s later). Safe to repeat. */
  close(): void {
    this.#post({ close: 1000 });
  }

  #post(command: CallWorkerCommand, transfer: Transferable[] = []): void {
    this.worker.postMessage(command, transfer);
  }
}

/** The WebSocket-shaped class of `CallWorker.WebSocket` over `worker`. */
function socketClass(worker: Worker, post: (command: CallWorkerCommand) => void): typeof WebSocket {
  class WorkerSocket {
    readyState = 0;
    onopen: ((event: Event) => void) | null = null;
    onmessage: ((event: MessageEvent) => void) | null = null;
    onclose: ((event: CloseEvent) => void) | null = null;

    constructor(readonly url: string) {
      worker.onmessage = ({ data }: MessageEvent<CallWorkerReport>) => {
        if ('frames' in data) for (const frame of data.frames) this.onmessage?.(new MessageEvent('message', { data: frame }));
        else if ('open' in data) {
          this.readyState = 1;
          this.onopen?.(new Event('open'));
        } else if ('closed' in data) this.#closed(...data.closed);
        else if ('refused' in data) {
          const [name, message] = data.refused;
          this.#closed(1006, `the browser refused to open it: ${name}${message ? ` (${message})` : ''}; is its origin in the page's Content-Security-Policy connect-src?`);
        }
      };
      // A worker that fails (or is ended) before its socket closed.
      worker.onerror = () => this.#closed(1006, 'the call worker failed');
      post({ open: url });
    }

    send(text: string): void {
      if (this.readyState !== 1) throw new DOMException('the socket is not open', 'InvalidStateError');
      post({ send: text });
    }

    close(code = 1000): void {
      if (this.readyState > 1) return;
      this.readyState = 2;
      post({ close: code });
    }

    #closed(code: number, reason: string): void {
      if (this.readyState === 3) return;
      this.readyState = 3;
      this.onclose?.(new CloseEvent('close', { code, reason, wasClean: code === 1000 }));
    }
  }
  return WorkerSocket as unknown as typeof WebSocket;
}

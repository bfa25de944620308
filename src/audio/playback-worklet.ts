/**
 * The `playback` AudioWorkletProcessor (one output, mono), loaded from a Blob URL of `playbackWorkletSource` (or that
 * text served as a file for a strict CSP; see `audio-controller.ts`).
 *
 * - A jitter buffer: a FIFO of `Float32Array` chunks fed by `{samples}` messages, samples at the context's rate
 *   (the main thread resamples, see `createResampler`). The agent's audio arrives faster than real time, so the
 *   FIFO grows without bound rather than overflowing a fixed ring.
 * - Playout delay (`processorOptions.prebufferMs`, default 0): a talk spurt starts once its first samples have waited
 *   about that long (ms of context time, to the render quantum: the quantum they arrive in counts), so audio that
 *   arrives in real time (chunks paced by the service) has that much margin against late chunks before the buffer
 *   runs dry.
 * - Hangover (`processorOptions.hangoverMs`, default 0): a buffer that runs dry stays "playing" that long (ms) before it
 *   counts as drained, so a late chunk within it goes on at once and the turn does not flicker; its `drained` still
 *   carries the time the last sample went out.
 * - `'clear'` (interruption, PROTOCOL.md section 3) fades what plays out over `FADE_MS` and empties the buffer.
 * - Outputs silence when empty.
 * - Posts `{state: 'playing' | 'drained', t}` when it starts giving out samples or has run dry (or is cleared); `t`
 *   is the context time (s): of the first sample out for `playing`, of the end of the last one for `drained`.
 * - Posts `{level}` (RMS, 0..1) about every 20 ms while there is sound, and once 0 after it.
 * - `{port}` (a `MessagePort`, the call worker's): `{samples}` and `'clear'` are taken from it too, and the levels go
 *   there instead of the node's port; the states stay on the node's port.
 */

/** Options of the `playback` processor (`processorOptions`), in ms. */
export interface PlaybackProcessorOptions {
  prebufferMs?: number;
  hangoverMs?: number;
}

// The AudioWorkletGlobalScope, where `registerPlaybackProcessor` runs (not in lib.dom).
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(name: string, processor: new (options?: { processorOptions?: object }) => AudioWorkletProcessor): void;
declare const sampleRate: number;
declare const currentTime: number;

/** Registers the `playback` processor. Runs in the worklet, from its source text: it may use only the worklet's globals. */
function registerPlaybackProcessor(): void {
  /** How long an interruption's fade-out lasts (ms): short enough for silence at once, long enough not to click. */
  const FADE_MS = 8;

  class PlaybackProcessor extends AudioWorkletProcessor {
    private queue: Float32Array[] = [];
    /** How much of `queue[0]` has been played. */
    private offset = 0;
    private playing = false;
    /** Samples a talk spurt waits before it starts, and how long a dry buffer stays "playing" (samples). */
    private readonly prebuffer: number;
    private readonly hangover: number;
    /** Samples the queued audio has waited to start; samples since the buffer ran dry. */
    private waited = 0;
    private dry = 0;
    /** The context time when the last sample went out (s). */
    private lastOut = 0;
    /** Samples of fade-out left after a `clear` (0: none under way). */
    private fading = 0;
    /** Sum of squares and count of the samples since the last level. */
    private squares = 0;
    private counted = 0;
    private level = 0;
    /** Where levels go: the node's port, or the port a `{port}` message gave (the call worker). */
    private levels: MessagePort;

    constructor(options?: { processorOptions?: { prebufferMs?: number; hangoverMs?: number } }) {
      super();
      const { prebufferMs = 0, hangoverMs = 0 } = options?.processorOptions ?? {};
      this.prebuffer = Math.round((prebufferMs / 1000) * sampleRate);
      this.hangover = Math.round((hangoverMs / 1000) * sampleRate);
      const receive = ({ data }: MessageEvent): void => {
        if (data.port) {
          this.levels = data.port;
          data.port.onmessage = receive;
          return;
        }
        if (data === 'clear') this.fading = this.queue.length ? Math.round((FADE_MS / 1000) * sampleRate) : 0;
        else this.queue.push(data.samples);
        if (data === 'clear' && !this.fading) this.empty();
      };
      this.port.onmessage = receive;
      this.levels = this.port;
    }

    /** Drops everything queued; the turn is over now. */
    private empty(): void {
      this.queue = [];
      this.offset = this.waited = this.dry = 0;
      this.setPlaying(false, currentTime);
    }

    /** Posts the state when it changes. */
    private setPlaying(playing: boolean, t: number): void {
      if (playing !== this.playing) {
        this.playing = playing;
        this.port.postMessage({ state: playing ? 'playing' : 'drained', t });
      }
    }

    process(_inputs: Float32Array[][], [[output]]: Float32Array[][]): boolean {
      const queue = this.queue;
      const n = output.length;
      let written = 0;
      // A new talk spurt waits its playout delay; one under way (or in its hangover) goes on at once.
      const ready = this.playing || (queue.length > 0 && (this.waited += n) > this.prebuffer);
      while (ready && written < n && queue.length) {
        const chunk = queue[0];
        const count = Math.min(n - written, chunk.length - this.offset);
        output.set(chunk.subarray(this.offset, (this.offset += count)), written);
        written += count;
        if (this.offset === chunk.length) {
          queue.shift();
          this.offset = 0;
        }
      }
      output.fill(0, written);
      if (this.fading) {
        for (let i = 0; i < written; i++) output[i] *= Math.max(0, this.fading - i) / ((FADE_MS / 1000) * sampleRate);
        this.fading = Math.max(0, this.fading - n);
        if (!this.fading) this.empty();
      } else if (written) {
        this.setPlaying(true, currentTime);
        this.dry = 0;
        this.lastOut = currentTime + written / sampleRate;
      } else if (this.playing && (this.dry += n) >= this.hangover) {
        this.waited = 0;
        this.setPlaying(false, this.lastOut);
      }
      for (const sample of output) this.squares += sample * sample;
      if ((this.counted += n) >= sampleRate / 50) {
        const level = Math.sqrt(this.squares / this.counted);
        if (level || this.level) this.levels.postMessage({ level });
        this.level = level;
        this.squares = this.counted = 0;
      }
      return true;
    }
  }
  registerProcessor('playback', PlaybackProcessor);
}

/** The source text of the `playback` worklet module, as the build left it (minified in the bundles, hence `.name`). */
export const playbackWorkletSource = `${registerPlaybackProcessor}\n${registerPlaybackProcessor.name}();`;

/**
 * The `playback` AudioWorkletProcessor (one output, mono), loaded from a Blob URL of `playbackWorkletSource` (or that
 * text served as a file for a strict CSP; see `audio-controller.ts`).
 *
 * - A jitter buffer: a FIFO of `Float32Array` chunks fed by `{samples}` messages, samples at the context's rate
 *   (the main thread resamples, see `createResampler`). The agent's audio arrives faster than real time, so the
 *   FIFO grows without bound rather than overflowing a fixed ring; it plays as soon as it holds anything.
 * - `'clear'` empties it at once (the next render quantum is silent: interruption, PROTOCOL.md section 3).
 * - Outputs silence when empty.
 * - Posts `{state: 'playing' | 'drained', t}` when it starts giving out samples or runs dry (or is cleared); `t`
 *   is the context time (s) of that render quantum, so `playing`'s `t` is when the first sample went out.
 * - Posts `{level}` (RMS, 0..1) about every 20 ms while there is sound, and once 0 after it.
 */

// The AudioWorkletGlobalScope, where `registerPlaybackProcessor` runs (not in lib.dom).
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(name: string, processor: new () => AudioWorkletProcessor): void;
declare const sampleRate: number;
declare const currentTime: number;

/** Registers the `playback` processor. Runs in the worklet, from its source text: it may use only the worklet's globals. */
function registerPlaybackProcessor(): void {
  class PlaybackProcessor extends AudioWorkletProcessor {
    private queue: Float32Array[] = [];
    /** How much of `queue[0]` has been played. */
    private offset = 0;
    private playing = false;
    /** Sum of squares and count of the samples since the last level. */
    private squares = 0;
    private counted = 0;
    private level = 0;

    constructor() {
      super();
      this.port.onmessage = ({ data }) => {
        if (data === 'clear') {
          this.queue = [];
          this.offset = 0;
          this.setPlaying(false);
        } else this.queue.push(data.samples);
      };
    }

    /** Posts the state when it changes. */
    private setPlaying(playing: boolean): void {
      if (playing !== this.playing) {
        this.playing = playing;
        this.port.postMessage({ state: playing ? 'playing' : 'drained', t: currentTime });
      }
    }

    process(_inputs: Float32Array[][], [[output]]: Float32Array[][]): boolean {
      const queue = this.queue;
      const n = output.length;
      let written = 0;
      while (written < n && queue.length) {
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
      this.setPlaying(written > 0);
      for (const sample of output) this.squares += sample * sample;
      if ((this.counted += n) >= sampleRate / 50) {
        const level = Math.sqrt(this.squares / this.counted);
        if (level || this.level) this.port.postMessage({ level });
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

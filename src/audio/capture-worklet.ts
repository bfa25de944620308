/**
 * The `capture` AudioWorkletProcessor, loaded from a Blob URL of `captureWorkletSource` (or that text served as a
 * file for a strict CSP; see `audio-controller.ts`).
 *
 * - Input: the microphone, any channel count, mixed down to mono (the mean of the channels), at the context's rate.
 * - Resamples to `processorOptions.rate` (Hz) by linear interpolation, keeping phase across render quanta
 *   (no low-pass filter: downsampling aliases what lies above the target's Nyquist rate).
 * - Every `rate / 50` target samples (20 ms) posts `{pcm, level, t}`, transferring `pcm`:
 *   `pcm` an `Int16Array` of 16-bit PCM (the platform's byte order: little-endian in every browser), or a
 *   `Uint8Array` of G.711 μ-law bytes when `processorOptions.ulaw`; `level` the chunk's RMS (0..1, of its 16-bit
 *   samples); `t` the context time (s) of the render quantum that completed the chunk.
 * - `{port}` on the node's port (a `MessagePort`, the call worker's): the chunks go there from then on.
 * - `{mute: boolean}` on the port: while muted, each chunk is silence (PCM 0, μ-law 0xFF) of the same size and
 *   cadence, with level 0, so the service's turn-taking keeps its clock. `processorOptions.mute` sets the start state.
 * - Input 1 (optional): the agent's voice as it goes out (the playback worklet's output), the echo's reference. A chunk
 *   `holdEcho` holds down goes out as silence too, as a muted one, level 0: the agent's voice that the browser's echo
 *   canceller lets through (before it converges, or when it loses track) never reaches the service as the visitor's.
 *
 * PROTOCOL.md section 3: `user_audio_chunk` carries these bytes in base64.
 */
import { encodeUlaw, floatToInt16, resampleLinear, type ResamplerState } from './pcm.js';

// The AudioWorkletGlobalScope, where `registerCaptureProcessor` runs (not in lib.dom).
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(name: string, processor: new (options: AudioWorkletNodeOptions) => AudioWorkletProcessor): void;
declare const sampleRate: number;
declare const currentTime: number;

/** `processorOptions` of the `capture` node. */
export interface CaptureProcessorOptions {
  /** The target rate (Hz). */
  rate: number;
  /** μ-law bytes instead of 16-bit PCM. */
  ulaw?: boolean;
  /** Starts muted. */
  mute?: boolean;
}

/** The state of `holdEcho`, one per call: levels are RMS (0..1), counts in 20 ms chunks. */
export interface EchoHold {
  /** The agent's voice (the capture's input 1) since the last chunk: the sum of its samples' squares, their count. */
  s: number;
  n: number;
  /** The agent's level, held: its peak, kept `c` chunks, then halved each chunk (-6 dB). */
  e: number;
  /** Chunks left before the held peak falls. */
  c: number;
  /** Chunks left in which the microphone stays open (the visitor spoke over the agent). */
  o: number;
}

/**
 * Whether a 20 ms chunk of microphone audio must be held down (sent as silence) because it can be the agent's own voice
 * coming back: what `user_audio_chunk` carries is the visitor's turn (PROTOCOL.md section 3), and the service takes
 * anything above its VAD threshold (-40 dBFS in the reference service) for the visitor speaking over its agent. The
 * browser's echo canceller (`echoCancellation`, microphone.ts) lets the agent's voice through while it converges, and
 * again whenever it loses track (a busy machine's audio glitches): measured on a loop from the speaker to the microphone
 * (test/echo/, bench/echo.mjs), chunks up to -16 dBFS in the agent's first second and later, up to 16 dB above the
 * agent's own level (the browser's gain control amplifies them), in Chromium and Firefox.
 *
 * `level` is the chunk's RMS (0..1); `h` the call's `EchoHold` (updated), whose `s` and `n` hold the agent's voice that
 * went out meanwhile (reset here). The agent's level (RMS) is held at its peak for 10 chunks (200 ms: the loop's delay,
 * output and input, measured 150 to 250 ms) and then halves each chunk. A chunk is held down unless it is louder than
 * 8 times (+18 dB) that held level, which no echo reached; such a chunk opens the microphone for 25 chunks (500 ms),
 * renewed by each one, so a visitor who speaks over the agent is heard from the moment their voice rises that far above
 * the agent's (in its pauses at the latest: measured 0.2 to 1.1 s from the voice's start to the service's
 * interruption), in one piece. With no agent voice the held level falls to nothing within about 0.5 s, and then
 * nothing is held down.
 */
export function holdEcho(h: EchoHold, level: number): boolean {
  const agent = Math.sqrt(h.s / (h.n || 1));
  h.s = h.n = 0;
  if (agent >= h.e) [h.e, h.c] = [agent, 10];
  else if (h.c) h.c--;
  else h.e /= 2;
  h.o = level > 8 * h.e ? 25 : h.o && h.o - 1;
  return !h.o;
}

/**
 * Registers the `capture` processor. Runs in the worklet, from its source text in `captureWorkletSource`: it may use
 * only the worklet's globals and the pcm.ts functions sent along with it.
 */
function registerCaptureProcessor(): void {
  class CaptureProcessor extends AudioWorkletProcessor {
    private ulaw: boolean;
    private muted: boolean;
    private resampler: ResamplerState;
    /** The chunk being filled (20 ms at the target rate), up to `filled`. */
    private chunk: Float32Array;
    private filled = 0;
    /** Where chunks go: the node's port, or the port a `{port}` message gave (the call worker). */
    private out: MessagePort;
    /** A render quantum mixed down to mono (Float64, as the mean of the channels comes out). */
    private mono = new Float64Array(0);
    /** A render quantum resampled. */
    private resampled = new Float32Array(0);
    /** The echo hold (`holdEcho`), fed the agent's voice from input 1. */
    private hold: EchoHold = { s: 0, n: 0, e: 0, c: 0, o: 0 };

    constructor({ processorOptions }: AudioWorkletNodeOptions) {
      super();
      const options = processorOptions as CaptureProcessorOptions;
      this.ulaw = !!options.ulaw;
      this.muted = !!options.mute;
      this.resampler = { step: sampleRate / options.rate, t: 0, last: 0 };
      this.chunk = new Float32Array(Math.round(options.rate / 50));
      this.out = this.port;
      this.port.onmessage = ({ data }) => {
        if (data.port) this.out = data.port;
        else this.muted = data.mute;
      };
    }

    process([channels, ref]: Float32Array[][]): boolean {
      for (const x of ref?.[0] ?? []) this.hold.s += x * x, this.hold.n++;
      // No channels while nothing is connected.
      const n = channels.length && channels[0].length;
      if (!n) return true;
      if (this.mono.length !== n) {
        this.mono = new Float64Array(n);
        this.resampled = new Float32Array(Math.ceil(n / this.resampler.step) + 1);
      }
      const mono = this.mono;
      for (let i = 0; i < n; i++) {
        let sum = 0;
        for (const channel of channels) sum += channel[i];
        mono[i] = sum / channels.length;
      }
      const count = resampleLinear(this.resampler, mono, this.resampled);
      for (let i = 0; i < count; i++) {
        this.chunk[this.filled++] = this.resampled[i];
        if (this.filled === this.chunk.length) this.send();
      }
      return true;
    }

    /** Posts the full chunk, encoded, and starts the next. */
    private send(): void {
      const pcm = new Int16Array(this.chunk.length);
      let sum = 0;
      this.chunk.forEach((sample, i) => {
        pcm[i] = floatToInt16(sample);
        sum += pcm[i] * pcm[i];
      });
      let level = Math.sqrt(sum / pcm.length) / 32768;
      if (holdEcho(this.hold, level) || this.muted) pcm.fill(level = 0);
      const bytes = this.ulaw ? Uint8Array.from(pcm, encodeUlaw) : pcm;
      this.filled = 0;
      this.out.postMessage({ pcm: bytes, level, t: currentTime }, [bytes.buffer]);
    }
  }
  registerProcessor('capture', CaptureProcessor);
}

/**
 * The source text of the `capture` worklet module: the processor and the pcm.ts functions it calls, as the build
 * left them (minified in the bundles: the names in the text are the ones the minifier gave, hence `.name`).
 */
export const captureWorkletSource = `${[floatToInt16, encodeUlaw, resampleLinear, holdEcho, registerCaptureProcessor].join('\n')}\n${registerCaptureProcessor.name}();`;

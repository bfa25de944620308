/**
 * A tiny host element for the audio tests: owns one `AudioController`, records what it reports, and holds an
 * `<audio>` in its shadow root for the agent's voice. Plus helpers to make and measure sound.
 */
import { ReactiveElement } from 'lit';
import { AudioController, bytesToBase64, floatToPcm16, floatToUlaw, pcm16ToFloat, ulawToFloat, type AudioErrorKind, type AudioTurnState } from '../../src/audio/index.js';

export interface RecordedChunk {
  bytes: Uint8Array;
  /** AudioContext time (s) reported by the worklet. */
  time: number;
  /** performance.now() when it reached the main thread (ms). */
  at: number;
}

export class AudioTestHost extends ReactiveElement {
  chunks: RecordedChunk[] = [];
  levels: [input: number, output: number][] = [];
  states: [state: AudioTurnState, time: number, at: number][] = [];
  errors: [kind: AudioErrorKind, error: unknown][] = [];
  /** How many times capture moved to the default microphone after its own went away. */
  fallbacks = 0;
  player = document.createElement('audio');
  audio = new AudioController(this, {
    onChunk: (base64, time) => this.chunks.push({ bytes: Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)), time, at: performance.now() }),
    onLevels: (input, output) => this.levels.push([input, output]),
    onState: (state, time) => this.states.push([state, time, performance.now()]),
    onError: (kind, error) => this.errors.push([kind, error]),
    onMicrophoneFallback: () => this.fallbacks++,
  });

  override connectedCallback(): void {
    super.connectedCallback();
    this.renderRoot.append(this.player);
  }
}
if (!customElements.get('audio-test-host')) customElements.define('audio-test-host', AudioTestHost);

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** RMS of float samples. */
export const rms = (samples: Float32Array) => Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / (samples.length || 1));

/** A chunk's samples, decoded as 16-bit PCM or μ-law. */
export const samplesOf = (chunk: RecordedChunk, ulaw = false) => (ulaw ? ulawToFloat(chunk.bytes) : pcm16ToFloat(chunk.bytes));

/** `seconds` of a sine at `hz` sampled at `rate` Hz, amplitude `amplitude`, base64 of 16-bit PCM (or μ-law). */
export function tone(hz: number, rate: number, seconds: number, { amplitude = 0.5, ulaw = false } = {}): string {
  const samples = Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate));
  return bytesToBase64(ulaw ? floatToUlaw(samples) : floatToPcm16(samples));
}

/** The median of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Polls `predicate` every few ms until it holds; fails after `timeoutMs`. */
export async function until(predicate: () => unknown, message: string, timeoutMs = 5000): Promise<void> {
  const start = performance.now();
  while (!predicate()) {
    if (performance.now() - start > timeoutMs) throw new Error(`timed out: ${message}`);
    await sleep(2);
  }
}

/** An AnalyserNode on `node`: the RMS and the loudest frequency (Hz) of what passes, as it passes. */
export function tap(node: AudioNode, fftSize = 128) {
  const context = node.context;
  const analyser = context.createAnalyser();
  analyser.fftSize = fftSize;
  analyser.smoothingTimeConstant = 0;
  node.connect(analyser);
  const wave = new Float32Array(fftSize);
  const spectrum = new Float32Array(fftSize / 2);
  return {
    analyser,
    rms() {
      analyser.getFloatTimeDomainData(wave);
      return rms(wave);
    },
    silent() {
      analyser.getFloatTimeDomainData(wave);
      return wave.every((s) => s === 0);
    },
    peakHz() {
      analyser.getFloatFrequencyData(spectrum);
      let best = 0;
      spectrum.forEach((db, i) => db > spectrum[best] && (best = i));
      return (best * context.sampleRate) / fftSize;
    },
    /**
     * Resolves once the tone passing is at `hz` (within one analyser bin) and at the RMS `level` (within 0.02), both in
     * the same window: WebKitGTK feeds its analysers late and in bursts, so one reading at a fixed delay may fall
     * between them. @throws Error with the last reading after `timeoutMs`
     */
    async steady(hz: number, level: number, timeoutMs = 2000) {
      let last = { hz: 0, level: 0 };
      const tolerance = context.sampleRate / fftSize;
      await until(() => {
        last = { hz: this.peakHz(), level: this.rms() };
        return Math.abs(last.hz - hz) <= tolerance && Math.abs(last.level - level) <= 0.02;
      }, `a steady ${hz} Hz tone at RMS ${level.toFixed(3)}`, timeoutMs).catch((error: Error) => {
        throw new Error(`${error.message}; last heard ${last.hz.toFixed(1)} Hz at RMS ${last.level.toFixed(3)}`);
      });
    },
  };
}

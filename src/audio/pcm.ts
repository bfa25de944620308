/**
 * Pure conversions for the audio of PROTOCOL.md section 3: formats, Float32 ↔ 16-bit PCM, G.711 μ-law, base64,
 * and a linear resampler. No browser audio API is touched here.
 *
 * `floatToInt16`, `encodeUlaw` and `resampleLinear` run in the capture worklet too, and the base64, decoding and
 * resampling functions in the call worker: capture-worklet.ts and call-worker.ts send their source text (`String(fn)`)
 * into that scope, so they are function declarations that use nothing from outside themselves but each other.
 */

/** The sample encoding of a format: 16-bit little-endian PCM, or 8-bit G.711 μ-law. */
export type AudioEncoding = 'pcm' | 'ulaw';

/** A parsed `agent_output_audio_format` / `user_input_audio_format`: encoding and sample rate in Hz. Always mono. */
export interface ParsedAudioFormat {
  encoding: AudioEncoding;
  sampleRate: number;
}

/**
 * Parses a format name of PROTOCOL.md section 3: `pcm_8000`, `pcm_16000`, `pcm_22050`, `pcm_24000`, `pcm_44100`,
 * `pcm_48000` or `ulaw_8000`.
 * @throws TypeError for any other name
 */
export function parseAudioFormat(format: string): ParsedAudioFormat {
  const [, encoding, rate] = /^(pcm|ulaw)_(\d+)$/.exec(format) ?? [];
  const sampleRate = +rate;
  if (!(encoding === 'ulaw' ? sampleRate === 8000 : [8000, 16000, 22050, 24000, 44100, 48000].includes(sampleRate))) {
    throw new TypeError(`unknown audio format: ${format}`);
  }
  return { encoding: encoding as AudioEncoding, sampleRate };
}

/**
 * Float samples (-1..1, clipped) → 16-bit PCM bytes, little-endian (the byte order of every browser platform):
 * each sample × 32768, truncated towards zero, 1 clipped to 32767. The inverse of `pcm16ToFloat` for every 16-bit value.
 */
export function floatToPcm16(samples: Float32Array): Uint8Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = floatToInt16(samples[i]);
  return new Uint8Array(out.buffer);
}

/** One float sample (-1..1, clipped) → one 16-bit linear sample: × 32768, truncated towards zero, 1 clipped to 32767. */
export function floatToInt16(sample: number): number {
  return Math.min(32767, Math.max(-1, Math.min(1, sample)) * 32768) | 0;
}

/** 16-bit little-endian PCM bytes → float samples (-1..1): each sample / 32768. A trailing odd byte is ignored. */
export function pcm16ToFloat(bytes: Uint8Array): Float32Array {
  const out = new Float32Array(bytes.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = (((bytes[2 * i] | (bytes[2 * i + 1] << 8)) << 16) >> 16) / 32768;
  return out;
}

/** One 16-bit linear sample (-32768..32767) → one G.711 μ-law byte (0xFF is silence). */
export function encodeUlaw(sample: number): number {
  const sign = sample < 0 ? 128 : 0;
  const s = (Math.min(sign ? -sample : sample, 32635) + 132) | 0;
  const exponent = 24 - Math.clz32(s);
  return ~(sign | (exponent << 4) | ((s >> (exponent + 3)) & 15)) & 255;
}

/** One G.711 μ-law byte → one 16-bit linear sample (-32124..32124). */
export function decodeUlaw(byte: number): number {
  const u = ~byte;
  const s = ((((u & 15) << 3) + 132) << ((u >> 4) & 7)) - 132;
  return u & 128 ? -s : s;
}

/** Float samples (-1..1) → μ-law bytes (8 kHz in PROTOCOL.md section 3, but the rate is the caller's). */
export function floatToUlaw(samples: Float32Array): Uint8Array {
  return Uint8Array.from(samples, (s) => encodeUlaw(floatToInt16(s)));
}

/** μ-law bytes → float samples (-1..1). */
export function ulawToFloat(bytes: Uint8Array): Float32Array {
  return Float32Array.from(bytes, (b) => decodeUlaw(b) / 32768);
}

/** Bytes → base64 (converted 32 KB at a time, so a long buffer costs no per-byte string concatenation). */
export function bytesToBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/**
 * Base64 → bytes.
 * @throws DOMException (`InvalidCharacterError`) for text that is not base64
 */
export function base64ToBytes(base64: string): Uint8Array {
  const s = atob(base64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/**
 * A streaming linear-interpolation resampler from `from` Hz to `to` Hz: call it with consecutive chunks of one
 * stream; it keeps the phase and the last sample between calls, so chunk edges leave no clicks. The output lags the
 * input by one input sample. Without a low-pass filter, so downsampling aliases what lies above the new Nyquist rate.
 * When both rates are equal it returns each chunk as it is. (The capture worklet runs the same `resampleLinear`.)
 */
export function createResampler(from: number, to: number): (chunk: Float32Array) => Float32Array {
  if (from === to) return (chunk) => chunk;
  const state: ResamplerState = { step: from / to, t: 0, last: 0 };
  return (x) => {
    const out = new Float32Array(Math.max(0, Math.ceil((x.length - 1 - state.t) / state.step)) + 1);
    return out.subarray(0, resampleLinear(state, x, out));
  };
}

/**
 * Where a streaming linear resampler stands between two chunks: `step`, input samples per output sample (the input
 * rate / the output rate); `t`, the position of the next output sample, in input samples from the start of the next
 * chunk (-1 is `last`; start at 0); `last`, the last sample of the previous chunk (start at 0).
 */
export interface ResamplerState {
  step: number;
  t: number;
  last: number;
}

/**
 * One chunk `x` of a stream through the linear resampler `state` (advanced in place): writes the output samples it
 * completes into `out` from index 0 and returns how many. `out` needs room for `Math.ceil(x.length / state.step) + 1`.
 * Self-contained (it runs in the capture worklet too, see `capture-worklet.ts`).
 */
export function resampleLinear(state: ResamplerState, x: ArrayLike<number>, out: Float32Array): number {
  const n = x.length;
  const step = state.step;
  let t = state.t;
  let k = 0;
  for (; t < n - 1; t += step) {
    const i = Math.floor(t);
    const a = i < 0 ? state.last : x[i];
    out[k++] = a + (x[i + 1] - a) * (t - i);
  }
  if (n) {
    state.t = t - n;
    state.last = x[n - 1];
  }
  return k;
}

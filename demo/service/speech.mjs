// Speech of the reference Voice Agent Service: text to speech with eSpeak NG (the `espeak-ng` package from the
// npm registry: espeak-ng 1.52-dev compiled to WebAssembly, its voice data inside the .wasm, GPL-3.0-or-later;
// a devDependency: it is dev tooling and never part of the widget's bundle), and the small audio helpers the
// conversation socket needs: resampling, PCM 16-bit and G.711 μ-law coding, chunking, energy.
// `espeak-ng` is imported lazily: without it this module still loads, and synthesize() rejects.

import { readFile } from 'node:fs/promises';

/** Largest text (characters of plain text) synthesised; longer text is cut at a word boundary. */
export const MAX_SPEECH_CHARS = 1000;
/** Synthesised texts kept (most recently used first). */
export const SPEECH_CACHE_SIZE = 64;
/** The eSpeak NG voice used. */
export const DEFAULT_VOICE = 'en-us';

/**
 * @typedef {{sampleRate: number, samples: Int16Array}} Speech  mono 16-bit samples
 * @typedef {{encoding: 'pcm' | 'ulaw', sampleRate: number, bytesPerSample: number}} AudioFormatInfo
 */

// ------------------------------------------------------------------ text

/**
 * Markdown (the agent's reply) to plain text for speech: code blocks and HTML tags dropped (with the text of
 * `<script>`/`<style>` elements), links and images reduced to their text, emphasis, heading, list and quote marks
 * removed, a few entities decoded; each line ends as a sentence, whitespace collapsed; cut to MAX_SPEECH_CHARS.
 * @param {string} markdown
 * @returns {string}
 */
export function toPlainText(markdown) {
  let text = String(markdown ?? '').replace(/\r\n?/g, '\n');
  text = text.replace(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?(?:^[ \t]*\1[^\n]*$|(?![\s\S]))/gm, '\n');
  text = text.replace(/<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ');
  text = text.replace(/<!--[\s\S]*?(?:-->|$)/g, ' ');
  text = text.replace(/<\/?[A-Za-z][^>]*>?/g, ' ');
  text = text.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1');
  text = text.replace(/\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g, '$1');
  text = text.replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1');
  text = text.replace(/`+([^`]*)`+/g, '$1');
  text = text.replace(/^[ \t]{0,3}#{1,6}[ \t]+/gm, '');
  text = text.replace(/^[ \t]*>[ \t]?/gm, '');
  text = text.replace(/^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+/gm, '');
  text = text.replace(/^[ \t]*(?:[-*_][ \t]*){3,}$/gm, '');
  text = text.replace(/(\*{1,3}|~~)(?=\S)([\s\S]*?\S)\1/g, '$2');
  text = text.replace(/(?<!\w)(_{1,3})(?=\S)([\s\S]*?\S)\1(?!\w)/g, '$2');
  text = text.replace(/\*+/g, '');
  text = text
    .replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'").replace(/&amp;/g, '&');
  const sentences = text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => /[\p{L}\p{N}]/u.test(line))
    .map((line) => (/[.!?:;,…]$/.test(line) ? line : `${line}.`));
  let plain = sentences.join(' ');
  if (plain.length > MAX_SPEECH_CHARS) {
    const cut = plain.slice(0, MAX_SPEECH_CHARS);
    const space = cut.lastIndexOf(' ');
    plain = `${(space > MAX_SPEECH_CHARS / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
  }
  return plain;
}

// ------------------------------------------------------------------ synthesis

/** @type {Promise<{create: (options: Record<string, unknown>) => Promise<any>, compiled: WebAssembly.Module}> | undefined} */
let engine;
/** Syntheses run one at a time (each one is a fresh WebAssembly instance of some 30 MB). */
let synthesisQueue = Promise.resolve();
/** @type {Map<string, Promise<Speech>>} */
const cache = new Map();

/** Loads the `espeak-ng` package and compiles its WebAssembly once. */
function loadEngine() {
  engine ??= (async () => {
    const specifier = 'espeak-ng'; // untyped package: imported through a variable, so it is `any`
    const { default: create } = await import(specifier);
    const wasmUrl = new URL('./espeak-ng.wasm', import.meta.resolve(specifier));
    const compiled = await WebAssembly.compile(await readFile(wasmUrl));
    return { create, compiled };
  })();
  engine.catch(() => {}); // reported by the synthesize() that awaits it
  return engine;
}

/**
 * Parses a RIFF/WAVE file of 16-bit PCM (mono or the first channel).
 * @param {Uint8Array} bytes
 * @returns {Speech}
 */
export function parseWav(bytes) {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'RIFF' || data.toString('latin1', 8, 12) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }
  let offset = 12;
  let sampleRate = 0;
  let channels = 1;
  let bits = 16;
  let format = 1;
  while (offset + 8 <= data.length) {
    const id = data.toString('latin1', offset, offset + 4);
    let size = data.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      format = data.readUInt16LE(body);
      channels = data.readUInt16LE(body + 2);
      sampleRate = data.readUInt32LE(body + 4);
      bits = data.readUInt16LE(body + 14);
    } else if (id === 'data') {
      if (format !== 1 || bits !== 16 || !sampleRate || !channels) {
        throw new Error(`unsupported WAVE data (format ${format}, ${bits} bits, ${channels} channels, ${sampleRate} Hz)`);
      }
      // A streaming writer may leave the size unset (0 or 0xFFFFFFFF): take what is there.
      if (size === 0 || body + size > data.length) size = data.length - body;
      const frames = Math.floor(size / (2 * channels));
      const samples = new Int16Array(frames);
      for (let i = 0; i < frames; i++) samples[i] = data.readInt16LE(body + i * 2 * channels);
      return { sampleRate, samples };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('no data chunk in the WAVE file');
}

/**
 * Runs eSpeak NG once on plain text and returns its samples (22050 Hz, 16-bit mono).
 * @param {string} plain @param {string} voice
 * @returns {Promise<Speech>}
 */
async function runEspeak(plain, voice) {
  const { create, compiled } = await loadEngine();
  /** @type {string[]} */
  const output = [];
  const module = await create({
    // The text goes in a file, so that no text can be taken for an option.
    arguments: ['-b', '1', '-v', voice, '-w', '/speech.wav', '-f', '/speech.txt'],
    thisProgram: 'espeak-ng',
    preRun: [(/** @type {any} */ m) => m.FS.writeFile('/speech.txt', plain)],
    instantiateWasm(/** @type {WebAssembly.Imports} */ imports, /** @type {(i: WebAssembly.Instance, m: WebAssembly.Module) => void} */ done) {
      WebAssembly.instantiate(compiled, imports).then((instance) => done(instance, compiled));
      return {};
    },
    print: (/** @type {string} */ line) => output.push(line),
    printErr: (/** @type {string} */ line) => output.push(line),
    // Never set process.exitCode (the Emscripten default in Node) when espeak-ng exits with an error.
    quit: (/** @type {number} */ _status, /** @type {unknown} */ toThrow) => { throw toThrow; },
  });
  if (!module.FS.analyzePath('/speech.wav').exists) {
    throw new Error(`espeak-ng wrote no audio: ${output.filter((line) => !line.startsWith('program exited')).join(' ') || 'no message'}`);
  }
  return parseWav(module.FS.readFile('/speech.wav'));
}

/**
 * Synthesises speech for a text (markdown is reduced to plain text first, see toPlainText) with eSpeak NG.
 * Results are cached by plain text and voice (SPEECH_CACHE_SIZE entries); syntheses run one at a time.
 * An empty text gives no samples. Rejects when `espeak-ng` is missing or fails (a failure is not cached).
 * @param {string} text
 * @param {{voice?: string}} [options]
 * @returns {Promise<Speech>}
 */
export function synthesize(text, { voice = DEFAULT_VOICE } = {}) {
  const plain = toPlainText(text);
  if (plain === '') return Promise.resolve({ sampleRate: 22050, samples: new Int16Array(0) });
  const key = `${voice}\u0000${plain}`;
  const cached = cache.get(key);
  if (cached) {
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  const result = synthesisQueue.then(() => runEspeak(plain, voice));
  synthesisQueue = result.then(() => {}, () => {});
  cache.set(key, result);
  while (cache.size > SPEECH_CACHE_SIZE) cache.delete(/** @type {string} */ (cache.keys().next().value));
  result.catch(() => {
    if (cache.get(key) === result) cache.delete(key);
  });
  return result;
}

// ------------------------------------------------------------------ audio helpers

/**
 * `pcm_16000` → {encoding: 'pcm', sampleRate: 16000, bytesPerSample: 2}; `ulaw_8000` → {encoding: 'ulaw', 8000, 1}.
 * @param {string} format
 * @returns {AudioFormatInfo}
 */
export function parseAudioFormat(format) {
  const match = /^(pcm|ulaw)_(\d+)$/.exec(String(format));
  if (!match) throw new Error(`unknown audio format ${JSON.stringify(format)}`);
  const encoding = /** @type {'pcm' | 'ulaw'} */ (match[1]);
  return { encoding, sampleRate: Number(match[2]), bytesPerSample: encoding === 'pcm' ? 2 : 1 };
}

/**
 * Linear-interpolation resampling of mono 16-bit samples.
 * @param {Int16Array} samples @param {number} fromRate @param {number} toRate
 * @returns {Int16Array}
 */
export function resample(samples, fromRate, toRate) {
  if (!(fromRate > 0) || !(toRate > 0)) throw new RangeError('sample rates must be positive');
  if (fromRate === toRate || samples.length === 0) return Int16Array.from(samples);
  const length = Math.max(1, Math.round((samples.length * toRate) / fromRate));
  const out = new Int16Array(length);
  const step = fromRate / toRate;
  const last = samples.length - 1;
  for (let i = 0; i < length; i++) {
    const position = i * step;
    const index = Math.floor(position);
    if (index >= last) {
      out[i] = samples[last];
      continue;
    }
    const fraction = position - index;
    out[i] = Math.round(samples[index] + (samples[index + 1] - samples[index]) * fraction);
  }
  return out;
}

/** @param {Int16Array} samples @returns {Buffer} 16-bit little-endian PCM */
export function encodePcm16(samples) {
  const out = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i], i * 2);
  return out;
}

/** @param {Uint8Array} buffer 16-bit little-endian PCM (an odd last byte is ignored) @returns {Int16Array} */
export function decodePcm16(buffer) {
  const bytes = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const out = new Int16Array(bytes.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readInt16LE(i * 2);
  return out;
}

const ULAW_BIAS = 0x84;
const ULAW_CLIP = 32635;

/** @param {number} sample 16-bit linear @returns {number} one G.711 μ-law byte */
function linearToUlaw(sample) {
  let value = sample;
  const sign = value < 0 ? 0x80 : 0;
  if (sign) value = -value;
  if (value > ULAW_CLIP) value = ULAW_CLIP;
  value += ULAW_BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (value & mask) === 0 && exponent > 0; mask >>= 1) exponent -= 1;
  const mantissa = (value >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** @type {Int16Array} the 256 μ-law byte values decoded */
const ULAW_TABLE = (() => {
  const table = new Int16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    const u = ~byte & 0xff;
    const exponent = (u >> 4) & 0x07;
    const magnitude = ((((u & 0x0f) << 3) + ULAW_BIAS) << exponent) - ULAW_BIAS;
    table[byte] = u & 0x80 ? -magnitude : magnitude;
  }
  return table;
})();

/** @param {Int16Array} samples @returns {Buffer} G.711 μ-law, one byte per sample */
export function encodeUlaw(samples) {
  const out = Buffer.alloc(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = linearToUlaw(samples[i]);
  return out;
}

/** @param {Uint8Array} buffer G.711 μ-law @returns {Int16Array} */
export function decodeUlaw(buffer) {
  const out = new Int16Array(buffer.length);
  for (let i = 0; i < buffer.length; i++) out[i] = ULAW_TABLE[buffer[i]];
  return out;
}

/**
 * Speech to the bytes of an audio format (`pcm_*` or `ulaw_8000`), resampled to its rate.
 * @param {Speech} speech @param {string} format
 * @returns {Buffer}
 */
export function encodeAudio(speech, format) {
  const info = parseAudioFormat(format);
  const samples = resample(speech.samples, speech.sampleRate, info.sampleRate);
  return info.encoding === 'ulaw' ? encodeUlaw(samples) : encodePcm16(samples);
}

/**
 * The bytes of an audio format back to samples.
 * @param {Uint8Array} buffer @param {string} format
 * @returns {Speech}
 */
export function decodeAudio(buffer, format) {
  const info = parseAudioFormat(format);
  return { sampleRate: info.sampleRate, samples: info.encoding === 'ulaw' ? decodeUlaw(buffer) : decodePcm16(buffer) };
}

/**
 * Splits a buffer into pieces of `bytesPerChunk` bytes (the last one may be shorter); the pieces share its memory.
 * @param {Buffer} buffer @param {number} bytesPerChunk
 * @returns {Buffer[]}
 */
export function chunk(buffer, bytesPerChunk) {
  if (!Number.isInteger(bytesPerChunk) || bytesPerChunk < 1) throw new RangeError('bytesPerChunk must be a positive integer');
  /** @type {Buffer[]} */
  const pieces = [];
  for (let offset = 0; offset < buffer.length; offset += bytesPerChunk) pieces.push(buffer.subarray(offset, offset + bytesPerChunk));
  return pieces;
}

/**
 * Root mean square of samples, relative to full scale (0..1).
 * @param {Int16Array} samples @param {number} [start] @param {number} [end]
 */
export function rms(samples, start = 0, end = samples.length) {
  if (end <= start) return 0;
  let sum = 0;
  for (let i = start; i < end; i++) sum += samples[i] * samples[i];
  return Math.sqrt(sum / (end - start)) / 32768;
}

/** @param {number} level RMS relative to full scale @returns {number} dBFS (-120 for silence) */
export function toDbfs(level) {
  return level > 1e-6 ? 20 * Math.log10(level) : -120;
}

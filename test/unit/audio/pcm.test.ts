import { expect } from '@open-wc/testing';
import {
  base64ToBytes,
  bytesToBase64,
  createResampler,
  decodeUlaw,
  encodeUlaw,
  floatToPcm16,
  floatToUlaw,
  parseAudioFormat,
  pcm16ToFloat,
  ulawToFloat,
} from '../../../src/audio/index.js';

/** A seeded pseudo-random generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('parseAudioFormat', () => {
  it('reads every format of PROTOCOL.md section 3', () => {
    for (const rate of [8000, 16000, 22050, 24000, 44100, 48000]) {
      expect(parseAudioFormat(`pcm_${rate}`)).to.deep.equal({ encoding: 'pcm', sampleRate: rate });
    }
    expect(parseAudioFormat('ulaw_8000')).to.deep.equal({ encoding: 'ulaw', sampleRate: 8000 });
  });

  it('throws a TypeError for anything else', () => {
    for (const bad of ['pcm_11025', 'ulaw_16000', 'mp3_44100', 'pcm_', 'PCM_16000', ' pcm_16000', 'pcm_16000x', '']) {
      expect(() => parseAudioFormat(bad), bad).to.throw(TypeError, 'unknown audio format');
    }
  });
});

describe('16-bit PCM', () => {
  it('maps -1, 0, 1 to -32768, 0, 32767, little-endian, and clips', () => {
    const bytes = floatToPcm16(new Float32Array([-1, 0, 1, -2, 2, 0.5]));
    expect([...bytes]).to.deep.equal([0x00, 0x80, 0, 0, 0xff, 0x7f, 0x00, 0x80, 0xff, 0x7f, 0x00, 0x40]);
    expect([...pcm16ToFloat(new Uint8Array([0x00, 0x80, 0xff, 0x7f, 0x01, 0x00, 0xff]))]).to.deep.equal([-1, 32767 / 32768, 1 / 32768]);
  });

  it('round-trips random samples within one step (1/32768)', () => {
    const next = random(1);
    const samples = Float32Array.from({ length: 10000 }, () => next() * 2 - 1);
    const back = pcm16ToFloat(floatToPcm16(samples));
    expect(back.length).to.equal(samples.length);
    let worst = 0;
    samples.forEach((s, i) => (worst = Math.max(worst, Math.abs(s - back[i]))));
    expect(worst).to.be.below(1 / 32768 + 1e-7);
  });

  it('round-trips every 16-bit value exactly', () => {
    const all = new Int16Array(65536).map((_, i) => i - 32768);
    const bytes = new Uint8Array(all.buffer);
    expect([...floatToPcm16(pcm16ToFloat(bytes))]).to.deep.equal([...bytes]);
  });
});

describe('G.711 μ-law', () => {
  it('encodes silence as 0xFF and the extremes as 0x80 / 0x00', () => {
    expect(encodeUlaw(0)).to.equal(0xff);
    expect(encodeUlaw(32767)).to.equal(0x80);
    expect(encodeUlaw(-32768)).to.equal(0x00);
    expect(decodeUlaw(0xff)).to.equal(0);
    expect(decodeUlaw(0x80)).to.equal(32124);
    expect(decodeUlaw(0x00)).to.equal(-32124);
  });

  it('matches the G.711 reference for every byte: decode then encode gives the byte back', () => {
    for (let b = 0; b < 256; b++) {
      // 0x7F is the second code for zero ("negative zero"); it encodes back as 0xFF.
      expect(encodeUlaw(decodeUlaw(b)), `byte ${b}`).to.equal(b === 0x7f ? 0xff : b);
    }
  });

  it('round-trips every 16-bit value within the G.711 quantisation step of its segment', () => {
    for (let s = -32768; s < 32768; s++) {
      const back = decodeUlaw(encodeUlaw(s));
      const clipped = Math.max(-32635, Math.min(32635, s));
      // Segment e covers a step of 2^(e+3); the decoder returns the middle of the step, so the error is at most half a step.
      const step = 2 ** (Math.max(0, 31 - Math.clz32(Math.abs(clipped) + 132) - 7) + 3);
      if (Math.abs(back - clipped) > step / 2) expect.fail(`${s} → ${encodeUlaw(s)} → ${back}, step ${step}`);
    }
  });

  it('round-trips float samples with a relative error under 8% (above the smallest steps)', () => {
    const next = random(2);
    const samples = Float32Array.from({ length: 5000 }, () => (next() * 2 - 1) * 0.9);
    const back = ulawToFloat(floatToUlaw(samples));
    samples.forEach((s, i) => {
      if (Math.abs(s - back[i]) > Math.max(Math.abs(s) * 0.08, 16 / 32768)) expect.fail(`${s} → ${back[i]}`);
    });
  });
});

describe('base64', () => {
  it('agrees with btoa / atob for random bytes of many lengths, up to 200 KB', () => {
    const next = random(3);
    for (const length of [0, 1, 2, 3, 4, 5, 640, 32767, 32768, 32769, 65536 * 3 + 1]) {
      const bytes = Uint8Array.from({ length }, () => Math.floor(next() * 256));
      let binary = '';
      for (const b of bytes) binary += String.fromCharCode(b);
      const expected = btoa(binary);
      expect(bytesToBase64(bytes), `length ${length}`).to.equal(expected);
      expect([...base64ToBytes(expected)], `length ${length}`).to.deep.equal([...bytes]);
    }
  });

  it('converts a byte view at an offset (only the view)', () => {
    const bytes = new Uint8Array([9, 1, 2, 3, 9]).subarray(1, 4);
    expect(bytesToBase64(bytes)).to.equal(btoa('\x01\x02\x03'));
  });

  it('throws for text that is not base64', () => {
    expect(() => base64ToBytes('not base64!')).to.throw();
  });

  // Not a benchmark (bench/audio.mjs is): a bound loose enough for any engine on a busy machine (Chromium takes ~30 ms,
  // Firefox ~110, WebKit up to ~600 with two other engines running), tight enough to catch a per-byte conversion
  // through strings of many seconds.
  it('encodes 1 MB in well under 2 s', () => {
    const bytes = new Uint8Array(1 << 20).map((_, i) => i * 7);
    const t0 = performance.now();
    const text = bytesToBase64(bytes);
    const back = base64ToBytes(text);
    const ms = performance.now() - t0;
    expect(back.length).to.equal(bytes.length);
    expect(ms).to.be.below(2000);
  });
});

describe('createResampler', () => {
  const sine = (hz: number, rate: number, from: number, n: number) => Float32Array.from({ length: n }, (_, i) => Math.sin((2 * Math.PI * hz * (from + i)) / rate));

  it('returns the same chunk when the rates are equal', () => {
    const chunk = new Float32Array([1, 2, 3]);
    expect(createResampler(16000, 16000)(chunk)).to.equal(chunk);
  });

  for (const [from, to] of [
    [16000, 24000],
    [16000, 48000],
    [22050, 16000],
    [48000, 16000],
    [8000, 44100],
  ]) {
    it(`turns a 440 Hz sine at ${from} Hz into one at ${to} Hz, fed in uneven chunks, with no seams`, () => {
      const resample = createResampler(from, to);
      const parts: Float32Array[] = [];
      let at = 0;
      for (const n of [1, 37, 128, 500, 2, 333, 4000, 1]) {
        parts.push(resample(sine(440, from, at, n)));
        at += n;
      }
      const out = new Float32Array(parts.reduce((sum, p) => sum + p.length, 0));
      parts.reduce((offset, p) => (out.set(p, offset), offset + p.length), 0);
      // Output sample k is input position k·from/to: the expected sine, delayed by nothing (the lag is in the length).
      expect(out.length).to.be.within(Math.floor(((at - 1) * to) / from) - 1, Math.ceil((at * to) / from));
      const expected = sine(440, to, 0, out.length);
      let worst = 0;
      out.forEach((s, k) => (worst = Math.max(worst, Math.abs(s - expected[k]))));
      // Linear interpolation of a 440 Hz sine sampled at `from`: error ≤ (2π·440/from)²/8.
      expect(worst).to.be.below((2 * Math.PI * 440 / from) ** 2 / 8 + 1e-5);
    });
  }
});

// Voice activity detection of the reference Voice Agent Service: a simple energy detector on 20 ms frames.
// Pure (no sockets, no timers): it counts time in audio samples, so audio sent faster than real time (tests)
// is judged exactly as audio sent in real time.

import { rms, toDbfs } from './speech.mjs';

/** The detector's parameters (times in ms of audio). */
export const VAD = Object.freeze({
  /** length of one analysis frame */
  frameMs: 20,
  /** a frame is loud (speech) when its RMS energy is above this, dB relative to full scale */
  thresholdDbfs: -40,
  /** RMS energy that gives a raw score of 0 (quieter: 0) */
  floorDbfs: -50,
  /** RMS energy that gives a raw score of 1 (louder: 1); the threshold scores 0.5 */
  ceilingDbfs: -30,
  /** smoothing of the score per frame when it rises (share of the step taken) */
  attack: 0.5,
  /** smoothing of the score per frame when it falls */
  release: 0.2,
  /** a vad_score at most this often */
  scoreIntervalMs: 100,
  /** speech starts after this much loud audio in a row (its start is the first of those frames) */
  startMs: 100,
  /** speech ends after this much quiet audio in a row (its end is the first of those frames) */
  endMs: 600,
  /** a stretch of speech longer than this is ended (and a new one may start) */
  maxSegmentMs: 15000,
});

/**
 * @typedef {{type: 'score', score: number, timeMs: number}
 *   | {type: 'start', timeMs: number}
 *   | {type: 'end', startMs: number, endMs: number, durationMs: number}} VadEvent
 */

/**
 * A detector for one stream of mono 16-bit samples at `sampleRate`.
 * `push(samples)` takes the next samples (any length; a partial frame waits for the next push) and returns what
 * happened in them, in order: `score` every scoreIntervalMs (0..1, smoothed), `start` and `end` of speech.
 * @param {number} sampleRate
 * @param {Partial<typeof VAD>} [overrides]
 */
export function createVad(sampleRate, overrides = {}) {
  const p = { ...VAD, ...overrides };
  const frameSamples = Math.max(1, Math.round((sampleRate * p.frameMs) / 1000));
  const frameMs = (frameSamples * 1000) / sampleRate;
  const startFrames = Math.max(1, Math.round(p.startMs / frameMs));
  const endFrames = Math.max(1, Math.round(p.endMs / frameMs));
  let pending = new Int16Array(0);
  let frames = 0; // frames analysed so far
  let score = 0;
  let lastScoreMs = 0;
  let loudRun = 0;
  let quietRun = 0;
  let speaking = false;
  let segmentStartMs = 0;

  /** @param {Int16Array} frame @param {VadEvent[]} events */
  function analyse(frame, events) {
    const startMs = frames * frameMs;
    frames += 1;
    const endMs = frames * frameMs;
    const db = toDbfs(rms(frame));
    const raw = Math.min(1, Math.max(0, (db - p.floorDbfs) / (p.ceilingDbfs - p.floorDbfs)));
    score += (raw - score) * (raw > score ? p.attack : p.release);
    const loud = db > p.thresholdDbfs;
    if (!speaking) {
      loudRun = loud ? loudRun + 1 : 0;
      if (loudRun >= startFrames) {
        speaking = true;
        quietRun = 0;
        segmentStartMs = endMs - loudRun * frameMs;
        events.push({ type: 'start', timeMs: endMs });
      }
    } else {
      quietRun = loud ? 0 : quietRun + 1;
      const ended = quietRun >= endFrames;
      if (ended || endMs - segmentStartMs >= p.maxSegmentMs) {
        const segmentEndMs = ended ? endMs - quietRun * frameMs : endMs;
        speaking = false;
        loudRun = 0;
        events.push({ type: 'end', startMs: segmentStartMs, endMs: segmentEndMs, durationMs: segmentEndMs - segmentStartMs });
      }
    }
    if (endMs - lastScoreMs >= p.scoreIntervalMs - 1e-9) {
      lastScoreMs = endMs;
      events.push({ type: 'score', score: Math.round(score * 1000) / 1000, timeMs: endMs });
    }
  }

  return {
    /** @param {Int16Array} samples @returns {VadEvent[]} */
    push(samples) {
      /** @type {VadEvent[]} */
      const events = [];
      let data = samples;
      if (pending.length > 0) {
        data = new Int16Array(pending.length + samples.length);
        data.set(pending);
        data.set(samples, pending.length);
      }
      let offset = 0;
      for (; offset + frameSamples <= data.length; offset += frameSamples) analyse(data.subarray(offset, offset + frameSamples), events);
      pending = data.slice(offset);
      return events;
    },
    /** whether speech is going on */
    get speaking() {
      return speaking;
    },
    /** ms of audio analysed */
    get timeMs() {
      return frames * frameMs;
    },
  };
}

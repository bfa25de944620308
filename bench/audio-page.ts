/**
 * The page of `npm run bench:audio` (bundled and served by bench/audio.mjs, run in headless Chromium with the fake
 * microphone playing test/fixtures/speech.wav). Drives the real audio pipeline (src/audio) and measures:
 *
 * 1. capture: the interval between `onChunk` calls on the main thread (performance.now()), ~3 s of chunks;
 * 2. play() → first sample: 30 trials of a 200 ms 440 Hz tone (PCM16, 16 kHz, base64), each from drained playback:
 *    - at the output device: the `speaking` state's context time mapped to performance time with
 *      `getOutputTimestamp()` (which already counts the output latency; `outputLatency` is reported apart);
 *    - heard at an AnalyserNode tapped on `controller.output` (polled until RMS > 0.01);
 *    - `speaking` reaching the main thread, and the render delay in context time, for comparison;
 * 3. interrupt() → silence at the analyser (RMS < 0.001), 30 trials of a 2 s tone.
 *
 * Results go to `window.__results` (then `window.__done = true`); a failure sets `window.__error`.
 */
import { AudioController, bytesToBase64, floatToPcm16, type AudioTurnState } from '../src/audio/index.js';
import { publish, stats, type Stats } from './stats.js';

export interface AudioBenchResults {
  context: { sampleRate: number; baseLatencyMs: number; outputLatencyMs: number; outputTimestampValid: boolean };
  analyser: { fftSize: number; windowMs: number; meanPollIntervalMs: number };
  capture: { intervalMs: Stats; contextIntervalMs: Stats; bytesPerChunk: number; recordedMs: number };
  firstSample: { atOutputMs: Stats; atAnalyserMs: Stats; speakingOnMainThreadMs: Stats; renderedContextMs: Stats };
  interruption: { toSilenceMs: Stats; toDrainedContextMs: Stats };
  errors: string[];
}

declare global {
  interface Window {
    __results?: AudioBenchResults;
    __done?: boolean;
    __error?: string;
  }
}

const TRIALS = 30;
const CAPTURE_WARMUP_MS = 500;
const CAPTURE_MS = 3000;
/** Analyser window: 128 samples = one render quantum (8 ms at 16 kHz). */
const FFT_SIZE = 128;
const HEARD_RMS = 0.01;
const SILENT_RMS = 0.001;
const WAIT_MS = 2000;

/** `seconds` of a sine at `hz`, amplitude 0.5, as base64 of 16-bit PCM at `rate` Hz. */
function tone(hz: number, rate: number, seconds: number): string {
  const samples = Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => 0.5 * Math.sin((2 * Math.PI * hz * i) / rate));
  return bytesToBase64(floatToPcm16(samples));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// A poll loop on a MessageChannel (unlike setTimeout(0), not clamped to 4 ms): checks the predicate at every turn,
// letting every other task (the worklets' messages) run in between. Resolves with performance.now() when it holds.
const channel = new MessageChannel();
let tick: (() => void) | undefined;
channel.port1.onmessage = () => tick?.();
let polls = 0;
let pollTime = 0;
function pollUntil(predicate: () => boolean, what: string, timeoutMs = WAIT_MS): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let count = 0;
    tick = () => {
      const now = performance.now();
      count++;
      if (predicate()) {
        tick = undefined;
        polls += count;
        pollTime += now - start;
        resolve(now);
      } else if (now - start > timeoutMs) {
        tick = undefined;
        reject(new Error(`timed out after ${timeoutMs} ms: ${what}`));
      } else channel.port2.postMessage(0);
    };
    channel.port2.postMessage(0);
  });
}

async function run(): Promise<AudioBenchResults> {
  const errors: string[] = [];
  const chunks: { at: number; time: number; bytes: number }[] = [];
  let recording = false;
  const states: { state: AudioTurnState; time: number; at: number }[] = [];

  // The smallest ReactiveControllerHost.
  const host = {
    addController() {},
    removeController() {},
    requestUpdate() {},
    updateComplete: Promise.resolve(true),
  };
  const audio = new AudioController(host, {
    onChunk: (base64, time) => {
      if (recording) chunks.push({ at: performance.now(), time, bytes: (base64.length * 3) / 4 - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0) });
    },
    onState: (state, time) => states.push({ state, time, at: performance.now() }),
    onError: (kind, error) => errors.push(`${kind}: ${String(error)}`),
  });
  const player = document.body.appendChild(document.createElement('audio'));
  if (!(await audio.start({ inputFormat: 'pcm_16000', outputFormat: 'pcm_16000', output: player }))) {
    throw new Error(`start() failed: ${errors.join('; ') || 'no error reported'}`);
  }
  try {
    const ctx = audio.context!;
    const analyser = ctx.createAnalyser();
    analyser.fftSize = FFT_SIZE;
    analyser.smoothingTimeConstant = 0;
    audio.output!.connect(analyser);
    const wave = new Float32Array(FFT_SIZE);
    const level = () => {
      analyser.getFloatTimeDomainData(wave);
      let sum = 0;
      for (const v of wave) sum += v * v;
      return Math.sqrt(sum / wave.length);
    };
    /** performance.now() (ms) at which context time `time` (s) reaches the output device. */
    const atOutput = (time: number) => {
      const stamp = ctx.getOutputTimestamp();
      return stamp.performanceTime! + (time - stamp.contextTime!) * 1000;
    };
    await pollUntil(() => !player.paused && ctx.state === 'running', 'the context and the <audio> element run');

    // 1. Capture chunk interval.
    await sleep(CAPTURE_WARMUP_MS);
    recording = true;
    await sleep(CAPTURE_MS);
    recording = false;
    if (chunks.length < 10) throw new Error(`only ${chunks.length} capture chunks in ${CAPTURE_MS} ms`);
    const gaps = chunks.slice(1).map((c, i) => c.at - chunks[i].at);
    const contextGaps = chunks.slice(1).map((c, i) => (c.time - chunks[i].time) * 1000);

    let eventId = 0;
    /** Waits until the last state is `listening` (drained) and the analyser hears nothing. */
    const drained = async () => {
      await pollUntil(() => states.at(-1)?.state === 'listening', 'playback drained');
      await pollUntil(() => level() === 0, 'silence at the analyser');
    };

    // 2. play() → first sample.
    const short = tone(440, 16000, 0.2);
    const atOutputMs: number[] = [];
    const atAnalyserMs: number[] = [];
    const speakingMs: number[] = [];
    const renderedMs: number[] = [];
    let stampValid = true;
    for (let i = 0; i < TRIALS; i++) {
      await drained();
      // A different pause each trial (deterministic), so t0 falls at varied phases of the render quanta.
      await sleep(20 + ((i * 7) % 23));
      const before = states.length;
      const id = ++eventId;
      const t0 = performance.now();
      const c0 = ctx.currentTime;
      if (!audio.play(short, id)) throw new Error(`play() refused event ${id}`);
      const heard = await pollUntil(() => level() > HEARD_RMS, 'the tone at the analyser');
      await pollUntil(() => states.slice(before).some((s) => s.state === 'speaking'), "the 'speaking' state");
      const speaking = states.slice(before).find((s) => s.state === 'speaking')!;
      const stamp = ctx.getOutputTimestamp();
      if (!stamp.performanceTime || !stamp.contextTime) stampValid = false;
      atOutputMs.push(atOutput(speaking.time) - t0);
      atAnalyserMs.push(heard - t0);
      speakingMs.push(speaking.at - t0);
      renderedMs.push((speaking.time - c0) * 1000);
    }

    // 3. interrupt() → silence.
    const long = tone(440, 16000, 2);
    const toSilenceMs: number[] = [];
    const toDrainedMs: number[] = [];
    for (let i = 0; i < TRIALS; i++) {
      await drained();
      const id = ++eventId;
      if (!audio.play(long, id)) throw new Error(`play() refused event ${id}`);
      await pollUntil(() => level() > HEARD_RMS, 'the long tone at the analyser');
      await sleep(30 + ((i * 7) % 23));
      const before = states.length;
      const t0 = performance.now();
      const c0 = ctx.currentTime;
      audio.interrupt(id);
      toSilenceMs.push((await pollUntil(() => level() < SILENT_RMS, 'silence after interrupt()')) - t0);
      await pollUntil(() => states.slice(before).some((s) => s.state === 'listening'), "'listening' after interrupt()");
      toDrainedMs.push((states.slice(before).find((s) => s.state === 'listening')!.time - c0) * 1000);
    }
    await drained();

    return {
      context: { sampleRate: ctx.sampleRate, baseLatencyMs: ctx.baseLatency * 1000, outputLatencyMs: ctx.outputLatency * 1000, outputTimestampValid: stampValid },
      analyser: { fftSize: FFT_SIZE, windowMs: (FFT_SIZE / ctx.sampleRate) * 1000, meanPollIntervalMs: polls ? pollTime / polls : NaN },
      capture: { intervalMs: stats(gaps), contextIntervalMs: stats(contextGaps), bytesPerChunk: chunks[0].bytes, recordedMs: CAPTURE_MS },
      firstSample: { atOutputMs: stats(atOutputMs), atAnalyserMs: stats(atAnalyserMs), speakingOnMainThreadMs: stats(speakingMs), renderedContextMs: stats(renderedMs) },
      interruption: { toSilenceMs: stats(toSilenceMs), toDrainedContextMs: stats(toDrainedMs) },
      errors,
    };
  } finally {
    audio.stop();
  }
}

publish(run);

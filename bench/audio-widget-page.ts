/**
 * The element page of `npm run bench:audio` (bundled as an ES module by bench/audio.mjs and served by the reference
 * service's `fallback`, so the page, the service and the worklet files share one origin; run in headless Chromium
 * with the fake microphone looping test/fixtures/speech.wav: 2 s of speech, 1 s of silence).
 *
 * It mounts the real `<voice-agent-widget>` (src/define.ts) for `agent_minimal`, opens the panel, clicks the call
 * button and measures at the page, through taps installed before the call:
 *
 * - `window.WebSocket` is a subclass whose first `message` listener timestamps every incoming frame
 *   (performance.now() and the context's currentTime) before the widget's session sees it, and whose `send()`
 *   timestamps every outgoing `user_audio_chunk` (its decoded byte count);
 * - `AudioContext` is a subclass that loads a meter worklet into the widget's context, and `AudioNode.connect` is
 *   hooked so that the node the voice controller plays through (the one it connects to its
 *   MediaStreamAudioDestinationNode) is also connected to that meter (`AudioWorkletNode` is a subclass only to read the
 *   options the element gives its `playback` worklet). The meter reports, in context time and to the
 *   sample, the first non-zero sample after at least `HOLD_MS` of zeros (`onset`) and the first sample of a run of
 *   zeros that lasts `HOLD_MS` (`silent`); the page maps them to performance.now() with getOutputTimestamp(), i.e. to
 *   when the AudioContext puts them out at its device (the mapping counts the device latency).
 *
 * Two phases:
 *
 * 1. `service`: the reference service's own frames. The looped speech makes the service answer every 3 s (a
 *    `user_transcript`, then a spoken reply) and interrupt that reply when the next loop starts (VAD start while the
 *    agent speaks: `interruption` with the reply's event id). A turn's first `audio` frame arriving while the output
 *    is silent → its onset; an `interruption` arriving while the output sounds → the silence that follows (an
 *    interruption arriving in a pause of the speech is counted apart, not timed).
 * 2. `injected` (controlled): the service's `audio` and `interruption` frames are swallowed by the tap (stopped
 *    before the widget's listener), and the page dispatches its own frames as `message` events on the widget's socket:
 *    a 100 ms 440 Hz tone chunk (first frame → onset), then a 2 s tone and an `interruption` of its event id 100-160
 *    ms after it is heard (→ silence) with an `audio` chunk of that event id right behind it, and once silent one more
 *    below it: neither may be heard (no sound 50 ms after the interruption, no onset within 300 ms after the silence).
 *
 * Both first-frame figures include the element's playout delay (the `prebufferMs` it gives its playback worklet, read
 * here and reported), and both silence figures its fade on `clear`: they are part of what a visitor hears.
 *
 * `user_audio_chunk`s are measured over the whole call after the first 0.5 s. Results go to `window.__results`
 * (then `window.__done = true`); a failure sets `window.__error`.
 */
import { bytesToBase64, floatToPcm16, floatToUlaw, parseAudioFormat } from '../src/audio/pcm.js';
import { publish, stats, type Stats } from './stats.js';

export interface WidgetAudioBenchResults {
  context: { sampleRate: number; baseLatencyMs: number; outputLatencyMs: number; outputDelayMs: Stats };
  /** The `processorOptions` the element gave its `playback` worklet (its jitter buffer: playout delay, hangover). */
  playout: unknown;
  formats: { input: string; output: string };
  chunks: { durationMs: Stats; intervalMs: Stats; bytes: Stats; skipped: number };
  service: {
    firstFrameToOutputMs: Stats;
    firstFrameToRenderMs: Stats;
    interruptionToSilenceMs: Stats;
    interruptionToSilenceRenderMs: Stats;
    turns: number;
    turnsNotTimed: number;
    interruptions: number;
    interruptionsInPause: number;
    interruptionsNotTimed: number;
    lateFrames: number;
    heardAfterInterruption: number;
  };
  injected: {
    firstFrameToOutputMs: Stats;
    firstFrameToRenderMs: Stats;
    interruptionToSilenceMs: Stats;
    interruptionToSilenceRenderMs: Stats;
    trials: number;
    lateChunks: number;
    lateChunksHeard: number;
  };
  durationMs: number;
  errors: string[];
}


const AGENT_ID = 'agent_minimal';
/** The meter's silence: this many ms of exact zeros (the playback worklet outputs exact zeros when empty). */
const HOLD_MS = 200;
/** Service phase: until this many timed turns and interruptions, or this long. */
const SERVICE_TRIALS = 10;
const SERVICE_MAX_MS = 45_000;
const INJECTED_TRIALS = 15;
/** Chunks of the first 0.5 s of the call are left out (start-up). */
const CHUNK_WARMUP_MS = 500;
/** Injected event ids start above anything the service will use in this run. */
const INJECTED_FIRST_ID = 1_000_000;
const WAIT_MS = 5000;
/** Sound going on this long (s of context time) after an injected interruption counts as its late chunk heard. */
const LATE_SOUND_S = 0.05;

// ---- The taps -------------------------------------------------------------------------------------------------

interface Frame {
  /** performance.now() when the frame reached the page (the first `message` listener), ms. */
  at: number;
  /** The context's currentTime then (s), NaN before the call's AudioContext exists. */
  c: number;
  type: string;
  eventId: number;
  injected: boolean;
}
interface MeterEvent {
  kind: 'onset' | 'silent';
  /** Context time of the sample (s). */
  t: number;
  /** performance.now() at which the context puts that sample out at its device (getOutputTimestamp), ms. */
  out: number;
}

const frames: Frame[] = [];
const sent: { at: number; bytes: number }[] = [];
const meter: MeterEvent[] = [];
const outputDelay: number[] = [];
let socket: WebSocket | null = null;
let context: AudioContext | null = null;
let meterConnected = false;
/** While true, the service's `audio` and `interruption` frames do not reach the widget (injected phase). */
let gate = false;
let injecting = false;
const formats = { input: '', output: '' };
let playout: unknown = null;

const decodedBytes = (base64: string) => (base64.length * 3) / 4 - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);

/** performance.now() (ms) at which context time `t` (s) reaches the output device. */
function atOutput(ctx: AudioContext, t: number): number {
  const stamp = ctx.getOutputTimestamp();
  return stamp.performanceTime! + (t - stamp.contextTime!) * 1000;
}

const NativeWebSocket = window.WebSocket;
class TappedWebSocket extends NativeWebSocket {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols);
    socket = this;
    // Added before the session's `onmessage`, so it runs first.
    this.addEventListener('message', (event: MessageEvent) => {
      const at = performance.now();
      if (typeof event.data !== 'string') return;
      let frame: { type?: string; audio_event?: { event_id?: number }; interruption_event?: { event_id?: number }; conversation_initiation_metadata_event?: Record<string, string> };
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      const type = String(frame.type);
      if (type === 'conversation_initiation_metadata') {
        const m = frame.conversation_initiation_metadata_event ?? {};
        formats.input = m.user_input_audio_format ?? 'pcm_16000';
        formats.output = m.agent_output_audio_format ?? 'pcm_16000';
      }
      if (type !== 'audio' && type !== 'interruption') return;
      if (gate && !injecting) {
        event.stopImmediatePropagation();
        return;
      }
      const eventId = Number(type === 'audio' ? frame.audio_event?.event_id : frame.interruption_event?.event_id);
      frames.push({ at, c: context?.currentTime ?? NaN, type, eventId, injected: injecting });
    });
  }

  override send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
    const at = performance.now();
    if (typeof data === 'string' && data.includes('"user_audio_chunk"')) {
      try {
        sent.push({ at, bytes: decodedBytes(JSON.parse(data).user_audio_chunk) });
      } catch {
        // not a chunk after all
      }
    }
    super.send(data);
  }
}
window.WebSocket = TappedWebSocket;

/** The meter (an AudioWorkletProcessor, loaded from a Blob URL into the widget's context). */
const meterSource = `registerProcessor('bench-meter', class extends AudioWorkletProcessor {
  constructor(options) {
    super();
    this.hold = Math.round((options.processorOptions.holdMs * sampleRate) / 1000);
    this.sound = false;
    this.zeros = 0;
    this.zeroStart = 0;
  }
  process(inputs) {
    const x = inputs[0] && inputs[0][0];
    const n = x ? x.length : 128;
    for (let i = 0; i < n; i++) {
      if (x && x[i] !== 0) {
        if (!this.sound) {
          this.sound = true;
          this.port.postMessage({ kind: 'onset', t: currentTime + i / sampleRate });
        }
        this.zeros = 0;
      } else {
        if (this.zeros++ === 0) this.zeroStart = currentTime + i / sampleRate;
        if (this.sound && this.zeros >= this.hold) {
          this.sound = false;
          this.port.postMessage({ kind: 'silent', t: this.zeroStart });
        }
      }
    }
    return true;
  }
});`;
const meterUrl = URL.createObjectURL(new Blob([meterSource], { type: 'text/javascript' }));
const meterLoaded = new WeakMap<BaseAudioContext, Promise<void>>();

const NativeAudioContext = window.AudioContext;
class TappedAudioContext extends NativeAudioContext {
  constructor(options?: AudioContextOptions) {
    super(options);
    context = this;
    // Loaded now, so that it is ready before the widget's own worklets are (the meter misses no sample).
    meterLoaded.set(this, this.audioWorklet.addModule(meterUrl));
  }
}
window.AudioContext = TappedAudioContext;

// Records the options the element gives its playback worklet (the jitter buffer's playout delay and hangover).
const NativeAudioWorkletNode = window.AudioWorkletNode;
class TappedAudioWorkletNode extends NativeAudioWorkletNode {
  constructor(ctx: BaseAudioContext, name: string, options?: AudioWorkletNodeOptions) {
    super(ctx, name, options);
    if (name === 'playback') playout = options?.processorOptions ?? {};
  }
}
window.AudioWorkletNode = TappedAudioWorkletNode;

const nativeConnect = AudioNode.prototype.connect as (this: AudioNode, ...args: unknown[]) => unknown;
AudioNode.prototype.connect = function (this: AudioNode, ...args: unknown[]) {
  const result = nativeConnect.apply(this, args);
  if (args[0] instanceof MediaStreamAudioDestinationNode) {
    const source = this;
    const ctx = source.context;
    void meterLoaded.get(ctx)?.then(() => {
      const node = new NativeAudioWorkletNode(ctx, 'bench-meter', { numberOfOutputs: 0, processorOptions: { holdMs: HOLD_MS } });
      node.port.onmessage = ({ data }) => {
        const live = ctx as AudioContext;
        meter.push({ kind: data.kind, t: data.t, out: atOutput(live, data.t) });
        outputDelay.push(atOutput(live, live.currentTime) - performance.now());
      };
      nativeConnect.call(source, node);
      meterConnected = true;
    });
  }
  return result;
} as typeof AudioNode.prototype.connect;

// ---- The page -------------------------------------------------------------------------------------------------

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function until<T>(predicate: () => T, what: string, timeoutMs = WAIT_MS): Promise<NonNullable<T>> {
  const start = performance.now();
  for (;;) {
    const value = predicate();
    if (value) return value as NonNullable<T>;
    if (performance.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await sleep(5);
  }
}

/** The meter's state just before context time `c`: the last event at or before it (none: silent). */
const stateAt = (c: number) => meter.filter((e) => e.t <= c).at(-1)?.kind ?? 'silent';
/** The first meter event of `kind` at or after context time `c` (half a render quantum of tolerance). */
const firstAfter = (kind: MeterEvent['kind'], c: number) => meter.find((e) => e.kind === kind && e.t >= c - 64 / context!.sampleRate);

/** `seconds` of a 440 Hz sine, amplitude 0.5, in the agent's output format, base64 (the first sample not zero). */
function tone(seconds: number): string {
  const { encoding, sampleRate } = parseAudioFormat(formats.output);
  const samples = Float32Array.from({ length: Math.round(sampleRate * seconds) }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / sampleRate + 0.5));
  return bytesToBase64(encoding === 'ulaw' ? floatToUlaw(samples) : floatToPcm16(samples));
}

/** Dispatches `frame` on the widget's socket as if it had arrived (the tap records it first). */
function inject(frame: object): void {
  injecting = true;
  try {
    socket!.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(frame) }));
  } finally {
    injecting = false;
  }
}

/** Waits until the output is silent: a `silent` meter event (reported `HOLD_MS` into the silence) after the last onset. */
async function quiet(): Promise<void> {
  await until(() => meter.at(-1)?.kind !== 'onset', 'a silent output', 10_000);
}

function analyseServicePhase(from: number) {
  const phase = frames.filter((f) => !f.injected && f.at >= from);
  const firstFrameToOutputMs: number[] = [];
  const firstFrameToRenderMs: number[] = [];
  const toSilenceMs: number[] = [];
  const toSilenceRenderMs: number[] = [];
  let turns = 0;
  let turnsNotTimed = 0;
  let interruptions = 0;
  let inPause = 0;
  let notTimed = 0;
  let lateFrames = 0;
  let heard = 0;
  let highest = -Infinity;
  for (const [index, f] of phase.entries()) {
    if (f.type === 'audio') {
      if (f.eventId <= highest) continue;
      highest = f.eventId;
      turns++;
      const onset = stateAt(f.c) === 'silent' ? firstAfter('onset', f.c) : undefined;
      if (!onset || onset.t - f.c > 1) {
        turnsNotTimed++;
        continue;
      }
      firstFrameToOutputMs.push(onset.out - f.at);
      firstFrameToRenderMs.push((onset.t - f.c) * 1000);
    } else {
      interruptions++;
      // Frames at or below its event id arriving after it (the service sends none), and the first of a later turn.
      const later = phase.slice(index + 1);
      lateFrames += later.filter((g) => g.type === 'audio' && g.eventId <= f.eventId).length;
      const next = later.find((g) => g.type === 'audio' && g.eventId > f.eventId);
      if (stateAt(f.c) !== 'onset') {
        inPause++;
        continue;
      }
      const silent = firstAfter('silent', f.c);
      if (!silent) {
        notTimed++;
        continue;
      }
      toSilenceMs.push(silent.out - f.at);
      toSilenceRenderMs.push((silent.t - f.c) * 1000);
      // Any sound between that silence and the next turn's first frame is audio at or below the interruption.
      const after = meter.find((e) => e.kind === 'onset' && e.t > silent.t);
      if (after && (!next || after.t < next.c - 64 / context!.sampleRate)) heard++;
    }
  }
  return {
    firstFrameToOutputMs: stats(firstFrameToOutputMs),
    firstFrameToRenderMs: stats(firstFrameToRenderMs),
    interruptionToSilenceMs: stats(toSilenceMs),
    interruptionToSilenceRenderMs: stats(toSilenceRenderMs),
    turns,
    turnsNotTimed,
    interruptions,
    interruptionsInPause: inPause,
    interruptionsNotTimed: notTimed,
    lateFrames,
    heardAfterInterruption: heard,
  };
}

async function run(): Promise<WidgetAudioBenchResults> {
  const started = performance.now();
  const errors: string[] = [];
  const { error: consoleError } = console;
  console.error = (...args: unknown[]) => {
    errors.push(args.map(String).join(' '));
    consoleError.apply(console, args);
  };
  await import('../src/define.js');

  const el = document.createElement('voice-agent-widget');
  el.setAttribute('agent-id', AGENT_ID);
  el.setAttribute('server-url', location.origin);
  document.body.append(el);
  const $ = <T extends HTMLElement>(selector: string) => el.shadowRoot?.querySelector<T>(selector) ?? null;
  (await until(() => $<HTMLButtonElement>('.launcher:not([disabled])'), 'the launcher', 10_000)).click();
  (await until(() => $<HTMLButtonElement>('[part~="start-call-button"]'), 'the call button')).click();
  await until(() => formats.output && context?.state === 'running' && meterConnected, 'the call running with the meter on its output', 10_000);
  await until(() => sent.length > 0, 'the first user_audio_chunk');
  const callStart = sent[0].at;

  // 1. The service's own frames.
  const serviceFrom = performance.now();
  const done = () => {
    const r = analyseServicePhase(serviceFrom);
    return r.firstFrameToOutputMs.n >= SERVICE_TRIALS && r.interruptionToSilenceMs.n >= SERVICE_TRIALS;
  };
  while (!done() && performance.now() - serviceFrom < SERVICE_MAX_MS) await sleep(100);
  // The last interruption's "heard after" check needs the following turn; wait a little for it when there is none yet.
  await sleep(500);
  const service = analyseServicePhase(serviceFrom);

  // 2. Injected frames.
  gate = true;
  await quiet();
  let id = INJECTED_FIRST_ID;
  const firstToOutput: number[] = [];
  const firstToRender: number[] = [];
  const toSilence: number[] = [];
  const toSilenceRender: number[] = [];
  const short = tone(0.1);
  const long = Array.from({ length: 20 }, () => tone(0.1));
  let lateChunks = 0;
  let lateHeard = 0;
  for (let i = 0; i < INJECTED_TRIALS; i++) {
    // First frame → sound.
    await quiet();
    await sleep(20 + ((i * 7) % 23));
    let eventId = ++id;
    inject({ type: 'audio', audio_event: { audio_base_64: short, event_id: eventId } });
    let f = frames.at(-1)!;
    const onset = await until(() => firstAfter('onset', f.c), 'the injected chunk at the output');
    firstToOutput.push(onset.out - f.at);
    firstToRender.push((onset.t - f.c) * 1000);

    // Interruption → silence, then late chunks at and below its event id.
    await quiet();
    eventId = ++id;
    for (const chunk of long) inject({ type: 'audio', audio_event: { audio_base_64: chunk, event_id: eventId } });
    const c = frames.at(-1)!.c;
    await until(() => firstAfter('onset', c), 'the injected long tone at the output');
    await sleep(100 + ((i * 11) % 61));
    inject({ type: 'interruption', interruption_event: { event_id: eventId } });
    f = frames.at(-1)!;
    // A chunk of the interrupted turn right behind the interruption (as one in flight would come).
    inject({ type: 'audio', audio_event: { audio_base_64: short, event_id: eventId } });
    const silent = await until(() => firstAfter('silent', f.c), 'silence after the injected interruption');
    toSilence.push(silent.out - f.at);
    toSilenceRender.push((silent.t - f.c) * 1000);
    // And one below its event id once silent.
    const before = meter.length;
    inject({ type: 'audio', audio_event: { audio_base_64: short, event_id: eventId - 1 } });
    lateChunks += 2;
    await sleep(300);
    // Heard: the first late chunk would have kept the output sounding for its 100 ms (no silence within 50 ms of the
    // interruption), the second would have made an onset.
    if (silent.t - f.c > LATE_SOUND_S || meter.slice(before).some((e) => e.kind === 'onset')) lateHeard++;
  }

  const chunks = sent.filter((s) => s.at - callStart >= CHUNK_WARMUP_MS);
  const input = parseAudioFormat(formats.input);
  const bytesPerSample = input.encoding === 'ulaw' ? 1 : 2;
  const ctx = context!;
  const results: WidgetAudioBenchResults = {
    context: { sampleRate: ctx.sampleRate, baseLatencyMs: ctx.baseLatency * 1000, outputLatencyMs: ctx.outputLatency * 1000, outputDelayMs: stats(outputDelay) },
    playout,
    formats,
    chunks: {
      durationMs: stats(chunks.map((s) => (s.bytes / bytesPerSample / input.sampleRate) * 1000)),
      intervalMs: stats(chunks.slice(1).map((s, i) => s.at - chunks[i].at)),
      bytes: stats(chunks.map((s) => s.bytes)),
      skipped: sent.length - chunks.length,
    },
    service,
    injected: {
      firstFrameToOutputMs: stats(firstToOutput),
      firstFrameToRenderMs: stats(firstToRender),
      interruptionToSilenceMs: stats(toSilence),
      interruptionToSilenceRenderMs: stats(toSilenceRender),
      trials: INJECTED_TRIALS,
      lateChunks,
      lateChunksHeard: lateHeard,
    },
    durationMs: performance.now() - started,
    errors,
  };
  $<HTMLButtonElement>('[part~="end-button"]')?.click();
  return results;
}

publish(run);

import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { captureWorkletSource, type CaptureProcessorOptions } from './capture-worklet.js';
import { base64ToBytes, bytesToBase64, createResampler, parseAudioFormat, pcm16ToFloat, ulawToFloat } from './pcm.js';
import { playbackWorkletSource, type PlaybackProcessorOptions } from './playback-worklet.js';

/**
 * Why audio stopped or cannot start:
 * - `denied`: the visitor or the page's permissions policy refused the microphone;
 * - `no-microphone`: there is none, it cannot be read, or it went away during the conversation;
 * - `suspended`: the browser holds the audio back until a user gesture: call `resume()` from the next click;
 * - `output-lost`: the audio output failed or no output device is left;
 * - `failed`: anything else (no `mediaDevices` outside a secure context, no AudioWorklet, a bad format name...).
 */
export type AudioErrorKind = 'denied' | 'no-microphone' | 'suspended' | 'output-lost' | 'failed';

/** Whose turn the audio says it is: `speaking` while agent audio is coming out, else `listening`. */
export type AudioTurnState = 'listening' | 'speaking';

/** What an `AudioController` reports. Times are AudioContext times in seconds (`controller.context.currentTime`). */
export interface AudioCallbacks {
  /** One ~20 ms chunk of microphone audio in `inputFormat`, base64 (for `sendUserAudioChunk`, PROTOCOL.md section 3); `time` when it was completed. */
  onChunk(base64: string, time: number): void;
  /** RMS levels (0..1) of the microphone (per 20 ms chunk; 0 while muted) and of the agent's voice (about every 20 ms while it plays). */
  onLevels?(inputLevel: number, outputLevel: number): void;
  /** The turn changed; `time` is when the first (`speaking`) or last (`listening`) agent sample went out. */
  onState?(state: AudioTurnState, time: number): void;
  /** Something failed. After `denied`, `no-microphone` and `failed` everything is already released; `suspended` and `output-lost` keep it. */
  onError?(kind: AudioErrorKind, error: unknown): void;
}

/** Options of `start()`. Formats as in `conversation_initiation_metadata` (PROTOCOL.md section 3). */
export interface AudioStartOptions {
  /** `user_input_audio_format`: what `onChunk` delivers, e.g. `pcm_16000`. */
  inputFormat: string;
  /** `agent_output_audio_format`: what `play()` receives. */
  outputFormat: string;
  /** Where the agent's voice plays (e.g. an `<audio>` in the shadow root); a detached one when absent. */
  output?: HTMLAudioElement;
  /**
   * URLs of the worklet scripts (each a file holding `captureWorkletSource` / `playbackWorkletSource`, as the build
   * writes them beside the script) for pages whose CSP forbids `blob:`; without one, a Blob URL of the source.
   */
  workletUrls?: { capture?: string; playback?: string };
  /** When a worklet URL fails to load (no such file), load the source from a Blob URL instead of failing. Default false. */
  workletFallback?: boolean;
  /** The jitter buffer's playout delay and hangover (ms; see `playback-worklet.ts`). Default 0 and 0. */
  playout?: PlaybackProcessorOptions;
  /** Overrides of the microphone constraints (default: echo cancellation, noise suppression and auto gain on). */
  constraints?: MediaTrackConstraints;
  /**
   * A microphone stream already granted (`getUserMedia` with `MICROPHONE_CONSTRAINTS`), used instead of asking again;
   * from then on the controller owns it and stops its tracks with the rest.
   */
  stream?: MediaStream;
}

/** The microphone constraints of a call: echo cancellation, noise suppression and auto gain on. */
export const MICROPHONE_CONSTRAINTS: MediaTrackConstraints = { echoCancellation: true, noiseSuppression: true, autoGainControl: true };

/**
 * Why `getUserMedia` failed, as an `AudioErrorKind`: `denied` (NotAllowedError, SecurityError), `no-microphone`
 * (NotFoundError, NotReadableError, OverconstrainedError), else `failed`.
 */
export const microphoneErrorKind = (e: unknown): AudioErrorKind => {
  const name = (e as Error)?.name;
  return /NotAllowed|Security/.test(name) ? 'denied' : /NotFound|NotReadable|Overconstrained/.test(name) ? 'no-microphone' : 'failed';
};

/**
 * Microphone capture and agent-voice playback for one conversation (DESIGN.md rule 4: acquires on `start()`,
 * releases on `stop()` and when the host disconnects). Made by `audioController(host, callbacks)`.
 */
export interface AudioController extends ReactiveController {
  /**
   * Asks for the microphone, opens an AudioContext (at the larger of the two formats' rates, or the browser's
   * default rate when that fails; the worklets resample), loads the worklets, and starts sending chunks to
   * `onChunk`. The agent's voice goes through a `MediaStreamAudioDestinationNode` into `options.output`, so that the
   * browser's echo canceller hears it. Stops a previous run first.
   * @returns true when running; false when it failed (`onError` was called) or `stop()` came first
   */
  start(options: AudioStartOptions): Promise<boolean>;
  /**
   * Queues one `audio` event's `audio_base_64` (in `outputFormat`) for playback. Dropped when `eventId` is at or
   * below the last interruption (PROTOCOL.md section 3). Audio played while `start()` is still under way waits for it.
   * @returns false when dropped (also when not started, or `base64` is not base64)
   */
  play(base64: string, eventId: number): boolean;
  /** `interruption` (PROTOCOL.md section 3): empties the playback buffer now and drops later audio with an event_id at or below `eventId`. */
  interrupt(eventId: number): void;
  /** Mutes the microphone: chunks keep coming, as silence of the same size. Holds across `start()`. */
  mute(on: boolean): void;
  /** Resumes a context and output the browser holds suspended; call it from a click. Resolves true when both run. */
  resume(): Promise<boolean>;
  /** Stops every microphone track, closes the AudioContext, revokes Blob URLs, removes listeners. Safe to repeat. */
  stop(): void;
  /** The running AudioContext, or null (to map `time`s: `getOutputTimestamp()`). */
  readonly context: AudioContext | null;
  /** The microphone stream, or null. */
  readonly stream: MediaStream | null;
  /** The agent's voice (mono, at the context rate) as it goes out, for meters and analysers; null when stopped. */
  readonly output: AudioNode | null;
}

interface Run {
  stream?: MediaStream;
  ctx?: AudioContext;
  cap?: AudioWorkletNode;
  out?: AudioWorkletNode;
  audio?: HTMLAudioElement;
  decode?: (bytes: Uint8Array) => Float32Array;
  waiting: [string, number][];
  off: (() => void)[];
}

/**
 * Makes the `AudioController` of `host` (and adds it to the host). See `AudioController` for the methods and
 * `AudioCallbacks` for what it reports.
 */
export function audioController(host: ReactiveControllerHost, callbacks: AudioCallbacks): AudioController {
  let run: Run | undefined;
  let muted = false;
  let interrupted = -Infinity;
  let inputLevel = 0;
  let outputLevel = 0;

  const release = (r: Run): void => {
    r.off.forEach((f) => f());
    // Messages already queued on the ports must not reach the callbacks after a stop.
    r.cap?.port.close();
    r.out?.port.close();
    r.stream?.getTracks().forEach((t) => t.stop());
    if (r.ctx?.state !== 'closed') r.ctx?.close().catch(() => {});
    if (r.audio) r.audio.srcObject = null;
  };
  const stop = (): void => {
    if (run) release(run);
    run = undefined;
  };
  const fail = (r: Run, kind: AudioErrorKind, error: unknown, keep?: boolean): false => {
    if (run === r) {
      if (!keep) stop();
      callbacks.onError?.(kind, error);
    }
    return false;
  };
  const listen = (r: Run, target: EventTarget, type: string, f: () => void): void => {
    target.addEventListener(type, f);
    r.off.push(() => target.removeEventListener(type, f));
  };
  const levels = () => callbacks.onLevels?.(inputLevel, outputLevel);

  const play = (base64: string, eventId: number): boolean => {
    if (!run || eventId <= interrupted) return false;
    if (!run.out) return run.waiting.push([base64, eventId]) > 0;
    let bytes: Uint8Array;
    try {
      bytes = base64ToBytes(base64);
    } catch {
      return false;
    }
    const samples = run.decode!(bytes);
    run.out.port.postMessage({ samples }, [samples.buffer]);
    return true;
  };

  const start = async (options: AudioStartOptions): Promise<boolean> => {
    stop();
    const r: Run = (run = { waiting: [], off: [] });
    interrupted = -Infinity;
    try {
      const input = parseAudioFormat(options.inputFormat);
      const output = parseAudioFormat(options.outputFormat);
      let stream: MediaStream;
      try {
        stream = r.stream = options.stream ?? (await navigator.mediaDevices.getUserMedia({ audio: { ...MICROPHONE_CONSTRAINTS, ...options.constraints } }));
      } catch (e) {
        return fail(r, microphoneErrorKind(e), e);
      }
      if (run !== r) return release(r), false;
      let ctx: AudioContext;
      let source: AudioNode;
      try {
        ctx = r.ctx = new AudioContext({ sampleRate: Math.max(input.sampleRate, output.sampleRate) });
        source = ctx.createMediaStreamSource(stream);
      } catch {
        // A browser that cannot connect a microphone to a context of another rate (Firefox): take the default rate.
        r.ctx?.close().catch(() => {});
        ctx = r.ctx = new AudioContext();
        source = ctx.createMediaStreamSource(stream);
      }
      const urls: string[] = [];
      // The file first (a strict CSP allows it under script-src); with `workletFallback`, a Blob URL of the same
      // source when there is no such file (development, a bundler that did not copy it) and the page allows `blob:`.
      const blob = (code: string) => ctx.audioWorklet.addModule(urls[urls.push(URL.createObjectURL(new Blob([code], { type: 'text/javascript' }))) - 1]!);
      const load = (url: string | undefined, code: string) =>
        url ? ctx.audioWorklet.addModule(url).catch((e) => (options.workletFallback ? blob(code) : Promise.reject(e))) : blob(code);
      try {
        await Promise.all([load(options.workletUrls?.capture, captureWorkletSource), load(options.workletUrls?.playback, playbackWorkletSource)]);
      } finally {
        urls.forEach(URL.revokeObjectURL);
      }
      if (run !== r) return release(r), false;

      const cap = (r.cap = new AudioWorkletNode(ctx, 'capture', {
        numberOfOutputs: 0,
        processorOptions: { rate: input.sampleRate, ulaw: input.encoding === 'ulaw', mute: muted } satisfies CaptureProcessorOptions,
      }));
      cap.port.onmessage = ({ data }) => {
        inputLevel = data.level;
        callbacks.onChunk(bytesToBase64(new Uint8Array(data.pcm.buffer)), data.t);
        levels();
      };
      source.connect(cap);

      const resample = createResampler(output.sampleRate, ctx.sampleRate);
      r.decode = (bytes) => resample(output.encoding === 'ulaw' ? ulawToFloat(bytes) : pcm16ToFloat(bytes));
      const out = new AudioWorkletNode(ctx, 'playback', { numberOfInputs: 0, outputChannelCount: [1], processorOptions: options.playout ?? {} });
      out.port.onmessage = ({ data }) => {
        if (data.state) callbacks.onState?.(data.state === 'playing' ? 'speaking' : 'listening', data.t);
        else {
          outputLevel = data.level;
          levels();
        }
      };
      const destination = ctx.createMediaStreamDestination();
      out.connect(destination);
      const audio = (r.audio = options.output ?? new Audio());
      audio.srcObject = destination.stream;

      // Lost devices and a context the browser suspends.
      const lost = (kind: AudioErrorKind, message: string, keep?: boolean) => fail(r, kind, new Error(message), keep);
      for (const track of stream.getAudioTracks()) listen(r, track, 'ended', () => lost('no-microphone', 'the microphone went away'));
      // Outputs are compared with the last count: some browsers list none at all (Firefox without setSinkId).
      let outputs = 0;
      const devices = async (report?: boolean) => {
        const list = await navigator.mediaDevices.enumerateDevices().catch(() => []);
        const id = stream.getAudioTracks()[0]?.getSettings().deviceId;
        const count = list.filter((d) => d.kind === 'audiooutput').length;
        if (report && id && !list.some((d) => d.deviceId === id)) lost('no-microphone', 'the microphone went away');
        else if (report && outputs && !count) lost('output-lost', 'no audio output is left', true);
        outputs = count;
      };
      devices();
      listen(r, navigator.mediaDevices, 'devicechange', () => devices(true));
      listen(r, ctx, 'error', () => lost('output-lost', 'the audio output failed', true));
      listen(r, audio, 'error', () => lost('output-lost', 'the audio element failed', true));
      // `suspended`, or Safari's `interrupted` (a phone call).
      listen(r, ctx, 'statechange', () => /^[si]/.test(ctx.state) && lost('suspended', 'the browser suspended the audio', true));

      r.out = out;
      callbacks.onState?.('listening', ctx.currentTime);
      r.waiting.splice(0).forEach(([base64, eventId]) => play(base64, eventId));
      audio.play().catch((e) => fail(r, 'suspended', e, true));
      if (ctx.state === 'suspended') lost('suspended', 'the browser holds the audio until a user gesture', true);
      return run === r;
    } catch (e) {
      return fail(r, 'failed', e);
    }
  };

  const controller: AudioController = {
    hostDisconnected: stop,
    start,
    play,
    interrupt(eventId) {
      interrupted = Math.max(interrupted, eventId);
      if (run) run.waiting = [];
      run?.out?.port.postMessage('clear');
    },
    mute(on) {
      muted = on;
      run?.cap?.port.postMessage({ mute: on });
    },
    resume: () =>
      Promise.all([run?.ctx?.resume(), run?.audio?.play()]).then(
        () => run?.ctx?.state === 'running',
        () => false,
      ),
    stop,
    get context() {
      return run?.ctx ?? null;
    },
    get stream() {
      return run?.stream ?? null;
    },
    get output() {
      return run?.out ?? null;
    },
  };
  host.addController(controller);
  return controller;
}

import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { CallWorker } from './call-thread.js';
import type { CaptureProcessorOptions } from './capture-worklet.js';
import { watchDevices } from './devices.js';
import { microphoneErrorKind, requestMicrophone } from './microphone.js';
import { base64ToBytes, bytesToBase64, createResampler, parseAudioFormat, pcm16ToFloat, ulawToFloat } from './pcm.js';
import type { PlaybackProcessorOptions } from './playback-worklet.js';
import { loadWorklets } from './worklets.js';

/**
 * Why audio stopped or cannot start:
 * - `denied`: the visitor refused the microphone (now or before: the browser's site settings);
 * - `blocked-page` / `blocked-frame`: the permissions policy of the page (a `Permissions-Policy` header), or of the
 *   iframe the widget is in (no `allow="microphone"`), rules the microphone out;
 * - `insecure`: not a secure context (http other than localhost): no microphone at all;
 * - `no-microphone`: there is none, or it went away during the conversation;
 * - `in-use`: another application holds it, or the system could not start it (NotReadableError);
 * - `suspended`: the browser holds the audio back until a user gesture: call `resume()` from the next click;
 * - `output-lost`: the audio output failed or no output device is left;
 * - `failed`: anything else (no AudioWorklet, a bad format name...).
 */
export type AudioErrorKind =
  | 'denied' | 'no-microphone' | 'in-use' | 'insecure' | 'blocked-frame' | 'blocked-page' | 'suspended' | 'output-lost' | 'failed';

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
  /** The microphone in use went away and capture moved to the browser's default one: the call goes on. */
  onMicrophoneFallback?(): void;
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
   * The call worker that owns the conversation's socket (call-thread.ts): the capture worklet's chunks go to it and it
   * plays the agent's audio, so `onChunk` is not called and the microphone's levels are not reported here; `play()`
   * plays only audio that reached the page (an empty `audio_base_64`: played in the worker).
   */
  worker?: CallWorker;
  /**
   * A microphone stream already granted (`requestMicrophone()` with no overrides), used instead of asking again;
   * from then on the controller owns it and stops its tracks with the rest.
   */
  stream?: MediaStream;
}

/**
 * How long a context that starts `suspended` may take to run before it counts as held back (ms). Firefox reports
 * `suspended` for about a second while it opens the output device, then `running`: that is not an autoplay refusal.
 */
export const SUSPENDED_GRACE_MS = 2000;

/** How long `resume()` waits for the engine's own `resume()` and `play()` before it answers from the context's state (ms). */
export const RESUME_WAIT_MS = 3000;

/** What `prepare()` opened inside the press: the context, and the output already playing its (silent) stream. */
interface Prepared {
  ctx: AudioContext;
  destination: MediaStreamAudioDestinationNode;
  audio: HTMLAudioElement;
}

/** The resources of one `start()`, released together. */
interface Run {
  stream?: MediaStream;
  /** The microphone's node feeding the capture worklet, and the release of its device watch. */
  source?: AudioNode;
  unwatch?: () => void;
  ctx?: AudioContext;
  cap?: AudioWorkletNode;
  out?: AudioWorkletNode;
  audio?: HTMLAudioElement;
  decode?: (bytes: Uint8Array) => Float32Array;
  worker?: CallWorker;
  waiting: [string, number][];
  off: (() => void)[];
}

/**
 * Microphone capture and agent-voice playback for one conversation (DESIGN.md rule 4: acquires on `start()`,
 * releases on `stop()` and when the host disconnects). `new AudioController(host, callbacks)` adds itself to `host`;
 * `AudioCallbacks` says what it reports. The microphone comes from `requestMicrophone` (microphone.ts), the worklets
 * from `loadWorklets` (worklets.ts), lost devices from `watchDevices` (devices.ts).
 */
export class AudioController implements ReactiveController {
  readonly #callbacks: AudioCallbacks;
  #run: Run | undefined;
  #prepared: Prepared | undefined;
  #muted = false;
  #interrupted = -Infinity;
  #inputLevel = 0;
  #outputLevel = 0;

  constructor(host: ReactiveControllerHost, callbacks: AudioCallbacks) {
    this.#callbacks = callbacks;
    host.addController(this);
  }

  hostDisconnected(): void {
    this.stop();
  }

  /** The running AudioContext, or null (to map `time`s: `getOutputTimestamp()`). */
  get context(): AudioContext | null {
    return this.#run?.ctx ?? null;
  }

  /** The microphone stream, or null. */
  get stream(): MediaStream | null {
    return this.#run?.stream ?? null;
  }

  /** The agent's voice (mono, at the context rate) as it goes out, for meters and analysers; null when stopped. */
  get output(): AudioNode | null {
    return this.#run?.out ?? null;
  }

  /**
   * Opens the AudioContext (at the browser's default rate: the formats are not known yet) and starts `output` playing
   * its stream, synchronously: call it inside the visitor's press, before any `await`, so that engines that let sound
   * start only from a user gesture (Safari and every iOS browser) let this call's sound out. The next `start()` takes
   * them over; `stop()` closes them. Stops a previous run first. Never throws: an engine without Web Audio fails in
   * `start()`.
   */
  prepare(output: HTMLAudioElement = new Audio()): void {
    this.stop();
    try {
      const ctx = new AudioContext({ latencyHint: 'interactive' });
      const destination = ctx.createMediaStreamDestination();
      // Silence into the output from now on: the browser sets up the stream's output (Chromium: the track's audio
      // format and output device, a task of 2 to 10 ms on the main thread, traced) while the call connects, not as
      // its audio starts, just when its first message and first words come. Closed with the context; where the engine
      // has no ConstantSourceNode, the output is set up when the audio starts.
      try {
        const silence = ctx.createConstantSource();
        silence.offset.value = 0;
        silence.connect(destination);
        silence.start();
      } catch {
        // Set up with the audio then.
      }
      output.srcObject = destination.stream;
      ctx.resume().catch(() => {});
      output.play().catch(() => {});
      this.#prepared = { ctx, destination, audio: output };
    } catch {
      this.#prepared = undefined;
    }
  }

  /**
   * Asks for the microphone, takes the AudioContext `prepare()` opened (else opens one at the larger of the two
   * formats' rates, or at the browser's default rate when the engine cannot connect the microphone to a context of
   * that rate; whatever rate the context runs at, the worklets resample to and from the formats), loads the worklets,
   * and starts sending chunks to `onChunk`. The agent's voice goes through a `MediaStreamAudioDestinationNode` into
   * `options.output`, so that the browser's echo canceller hears it. Stops a previous run first.
   *
   * A context that is not running yet gets `SUSPENDED_GRACE_MS` to start; then `onError('suspended')` when the page
   * has had no user gesture (a click resumes it), else `onError('output-lost')` (the engine has no working output).
   * @returns true when running; false when it failed (`onError` was called) or `stop()` came first
   */
  async start(options: AudioStartOptions): Promise<boolean> {
    const prepared = this.#prepared;
    this.#prepared = undefined;
    this.#stopRun();
    const r: Run = (this.#run = { waiting: [], off: [] });
    if (prepared) [r.ctx, r.audio] = [prepared.ctx, prepared.audio];
    this.#interrupted = -Infinity;
    try {
      const input = parseAudioFormat(options.inputFormat);
      const output = parseAudioFormat(options.outputFormat);
      let stream: MediaStream;
      try {
        stream = r.stream = options.stream ?? (await requestMicrophone(options.constraints));
      } catch (e) {
        return this.#fail(r, microphoneErrorKind(e), e);
      }
      if (this.#run !== r) return this.#release(r), false;
      let ctx: AudioContext;
      let source: AudioNode;
      if (prepared) {
        ctx = prepared.ctx;
        source = ctx.createMediaStreamSource(stream);
      } else {
        try {
          ctx = r.ctx = new AudioContext({ sampleRate: Math.max(input.sampleRate, output.sampleRate) });
          source = ctx.createMediaStreamSource(stream);
        } catch {
          // An engine that cannot connect a microphone to a context of another rate (Firefox): take the default rate.
          r.ctx?.close().catch(() => {});
          ctx = r.ctx = new AudioContext();
          source = ctx.createMediaStreamSource(stream);
        }
      }
      await loadWorklets(ctx, options);
      if (this.#run !== r) return this.#release(r), false;

      const cap = (r.cap = new AudioWorkletNode(ctx, 'capture', {
        numberOfInputs: 2,
        numberOfOutputs: 0,
        processorOptions: { rate: input.sampleRate, ulaw: input.encoding === 'ulaw', mute: this.#muted } satisfies CaptureProcessorOptions,
      }));
      cap.port.onmessage = ({ data }) => {
        this.#inputLevel = data.level;
        this.#callbacks.onChunk(bytesToBase64(new Uint8Array(data.pcm.buffer)), data.t);
        this.#levels();
      };
      source.connect(cap);
      r.source = source;

      const resample = createResampler(output.sampleRate, ctx.sampleRate);
      r.decode = (bytes) => resample(output.encoding === 'ulaw' ? ulawToFloat(bytes) : pcm16ToFloat(bytes));
      const out = new AudioWorkletNode(ctx, 'playback', { numberOfInputs: 0, outputChannelCount: [1], processorOptions: options.playout ?? {} });
      out.port.onmessage = ({ data }) => {
        if (data.state) this.#callbacks.onState?.(data.state === 'playing' ? 'speaking' : 'listening', data.t);
        else {
          this.#outputLevel = data.level;
          this.#levels();
        }
      };
      if (options.worker) {
        // The chunks go to the worker; the agent's audio comes from it, and the playback levels go there.
        const capture = new MessageChannel();
        const playback = new MessageChannel();
        cap.port.postMessage({ port: capture.port1 }, [capture.port1]);
        out.port.postMessage({ port: playback.port1 }, [playback.port1]);
        options.worker.attachAudio(capture.port2, playback.port2, output.sampleRate, ctx.sampleRate, output.encoding === 'ulaw');
        r.worker = options.worker;
      }
      const destination = prepared?.destination ?? ctx.createMediaStreamDestination();
      out.connect(destination);
      // The agent's voice is the capture's echo reference (capture-worklet.ts, `holdEcho`).
      out.connect(cap, 0, 1);
      const audio = (r.audio = prepared?.audio ?? options.output ?? new Audio());
      // The prepared element plays this stream already: setting it again would load it anew (a media pipeline
      // rebuilt on the main thread as the call goes live, and a gap in the output).
      if (!prepared) audio.srcObject = destination.stream;

      // Lost devices and a context the browser suspends.
      const lost = (kind: AudioErrorKind, message: string, keep?: boolean) => this.#fail(r, kind, new Error(message), keep);
      this.#watch(r, stream);
      this.#listen(r, ctx, 'error', () => lost('output-lost', 'the audio output failed', true));
      this.#listen(r, audio, 'error', () => lost('output-lost', 'the audio element failed', true));
      // Once running: `suspended`, or Safari's `interrupted` (a phone call). Before that, the grace below judges.
      let ran = ctx.state === 'running';
      this.#listen(r, ctx, 'statechange', () => {
        if (ctx.state === 'running') ran = true;
        else if (ran && /^[si]/.test(ctx.state)) lost('suspended', 'the browser suspended the audio', true);
      });
      if (!ran) {
        // Still not running: held back for want of a gesture when the page has had none, else the engine has no output.
        const grace = setTimeout(() => {
          if (ctx.state === 'running') return;
          const gesture = (navigator as { userActivation?: { hasBeenActive: boolean } }).userActivation?.hasBeenActive;
          lost(gesture === false ? 'suspended' : 'output-lost', `the audio did not start within ${SUSPENDED_GRACE_MS} ms (state: ${ctx.state})`, true);
        }, SUSPENDED_GRACE_MS);
        r.off.push(() => clearTimeout(grace));
      }

      r.out = out;
      this.#callbacks.onState?.('listening', ctx.currentTime);
      r.waiting.splice(0).forEach(([base64, eventId]) => this.play(base64, eventId));
      audio.play().catch((e) => this.#fail(r, 'suspended', e, true));
      return this.#run === r;
    } catch (e) {
      return this.#fail(r, 'failed', e);
    }
  }

  /**
   * Queues one `audio` event's `audio_base_64` (in `outputFormat`) for playback. Dropped when `eventId` is at or
   * below the last interruption (PROTOCOL.md section 3). Audio played while `start()` is still under way waits for it.
   * With a call worker, the empty `audio_base_64` of an event it played is taken as played.
   * @returns false when dropped (also when not started, or `base64` is not base64)
   */
  play(base64: string, eventId: number): boolean {
    const run = this.#run;
    if (!run || eventId <= this.#interrupted) return false;
    if (!run.out) return run.waiting.push([base64, eventId]) > 0;
    // Played in the call worker already.
    if (!base64 && run.worker) return true;
    let bytes: Uint8Array;
    try {
      bytes = base64ToBytes(base64);
    } catch {
      return false;
    }
    const samples = run.decode!(bytes);
    run.out.port.postMessage({ samples }, [samples.buffer]);
    return true;
  }

  /** `interruption` (PROTOCOL.md section 3): empties the playback buffer now and drops later audio with an event_id at or below `eventId`. */
  interrupt(eventId: number): void {
    this.#interrupted = Math.max(this.#interrupted, eventId);
    if (this.#run) this.#run.waiting = [];
    // With a call worker, it clears the playback worklet itself, in order with the audio it hands it.
    if (this.#run?.worker) this.#run.worker.interrupt(eventId);
    else this.#run?.out?.port.postMessage('clear');
  }

  /** Mutes the microphone: chunks keep coming, as silence of the same size. Holds across `start()`. */
  mute(on: boolean): void {
    this.#muted = on;
    this.#run?.cap?.port.postMessage({ mute: on });
  }

  /**
   * Resumes a context and output the browser holds suspended; call it from a click. Resolves true when the context
   * runs, false when it does not, within `RESUME_WAIT_MS` at most: an engine may leave `resume()` or `play()` pending
   * (WebKit under load), and the click must still get its answer.
   */
  resume(): Promise<boolean> {
    const run = this.#run;
    let timer = 0;
    return Promise.race([
      Promise.all([run?.ctx?.resume(), run?.audio?.play()]),
      new Promise((settle) => (timer = window.setTimeout(settle, RESUME_WAIT_MS))),
    ]).then(
      () => (clearTimeout(timer), run?.ctx?.state === 'running'),
      () => (clearTimeout(timer), false),
    );
  }

  /**
   * Stops every microphone track, closes the AudioContext (a prepared one too), revokes Blob URLs, removes listeners
   * and timers. Safe to repeat.
   */
  stop(): void {
    const prepared = this.#prepared;
    this.#prepared = undefined;
    if (prepared) this.#release({ ctx: prepared.ctx, audio: prepared.audio, waiting: [], off: [] });
    this.#stopRun();
  }

  /**
   * Moves capture to the microphone `deviceId` ('' for the browser's default) during a call, without stopping it: the
   * new device is asked for (the same constraints), connected to the same capture worklet, and only then the old one
   * is disconnected and stopped, so the chunks go on in the same format with no gap but the device's own start.
   * @returns true once capture runs on it; false (capture stays where it was) when no call runs, it is not open yet,
   * or the device could not be opened
   */
  async useMicrophone(deviceId: string): Promise<boolean> {
    const r = this.#run;
    if (!r?.cap || !r.ctx || !r.source) return false;
    let stream: MediaStream;
    try {
      stream = await requestMicrophone(deviceId ? { deviceId: { exact: deviceId } } : undefined);
    } catch {
      return false;
    }
    if (this.#run !== r || !r.cap) return stream.getTracks().forEach((t) => t.stop()), false;
    const source = r.ctx.createMediaStreamSource(stream);
    source.connect(r.cap);
    r.source.disconnect();
    r.stream?.getTracks().forEach((t) => t.stop());
    [r.stream, r.source] = [stream, source];
    this.#watch(r, stream);
    return true;
  }

  /** Watches the devices of run `r` with `stream` as its microphone (`watchDevices`), in place of an earlier watch. */
  #watch(r: Run, stream: MediaStream): void {
    r.unwatch?.();
    let moving = false;
    r.unwatch = watchDevices(stream, {
      // Capture moves to the default microphone where one is left (a chosen one unplugged); else the call cannot go on.
      onMicrophoneLost: async () => {
        if (moving) return;
        moving = true;
        if (await this.useMicrophone('')) this.#callbacks.onMicrophoneFallback?.();
        else this.#fail(r, 'no-microphone', new Error('the microphone went away'));
      },
      onOutputLost: () => this.#fail(r, 'output-lost', new Error('no audio output is left'), true),
    });
  }

  #stopRun(): void {
    if (this.#run) this.#release(this.#run);
    this.#run = undefined;
  }

  #release(r: Run): void {
    r.off.forEach((f) => f());
    r.unwatch?.();
    // Messages already queued on the ports must not reach the callbacks after a stop.
    r.cap?.port.close();
    r.out?.port.close();
    r.stream?.getTracks().forEach((t) => t.stop());
    if (r.ctx?.state !== 'closed') r.ctx?.close().catch(() => {});
    if (r.audio) r.audio.srcObject = null;
  }

  /** Reports a failure of run `r` unless another run took its place; releases everything unless `keep`. */
  #fail(r: Run, kind: AudioErrorKind, error: unknown, keep?: boolean): false {
    if (this.#run === r) {
      if (!keep) this.stop();
      this.#callbacks.onError?.(kind, error);
    }
    return false;
  }

  #listen(r: Run, target: EventTarget, type: string, f: () => void): void {
    target.addEventListener(type, f);
    r.off.push(() => target.removeEventListener(type, f));
  }

  #levels(): void {
    this.#callbacks.onLevels?.(this.#inputLevel, this.#outputLevel);
  }
}

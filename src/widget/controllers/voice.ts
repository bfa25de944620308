import type { ReactiveController, ReactiveElement } from 'lit';
import { AudioController, type AudioErrorKind, type AudioTurnState } from '../../audio/audio-controller.js';
import { CallWorker } from '../../audio/call-thread.js';
import { canChooseSpeaker } from '../../audio/devices.js';
import { frameBlocksMicrophone, microphoneBlocked, microphoneErrorKind, microphonePermission, requestMicrophone } from '../../audio/microphone.js';
import { WORKLET_FILES } from '../../audio/worklets.js';
import { besideScript } from '../../client/paths.js';
import type { SessionOptions } from '../../client/session.js';
import * as log from '../../internal/console.js';
import type { VoiceAgentErrorCode } from '../../events/error.js';
import type { ConversationController, NoticeKind } from './conversation.js';
import { DeviceChoiceController } from './device-choice.js';
import { LevelMeter } from './levels.js';
import { whenGone } from './presence.js';

/** Where a voice call stands: `off`, `starting` (asking for the microphone, connecting), `on` (audio flowing). */
export type VoiceState = 'off' | 'starting' | 'on';

/**
 * The agent's voice arrives in chunks paced in real time: a talk spurt starts 60 ms after its first chunk came (margin
 * for a late chunk, within the 110 ms budget from frame to sound), and a buffer that runs dry keeps the turn for 150 ms
 * (a late chunk goes on at once; the status does not flicker).
 */
const PLAYOUT = { prebufferMs: 60, hangoverMs: 150 };

/** The failures of a call's start that a new try may mend: the visitor allows the microphone, plugs one in, or closes what held it. */
const RETRY: ReadonlySet<NoticeKind> = new Set(['microphone_denied', 'no_microphone', 'microphone_in_use']);

/** The calls on this page: only one holds the microphone; a new call ends the others. */
const calls = new Set<VoiceController>();

/** A failure's notice (its label: `WIDGET_LABELS` or `PANEL_LABELS`), its `voice-agent-error` code and the console's words for it. */
const FAILURE: Record<AudioErrorKind | 'lost', [NoticeKind, VoiceAgentErrorCode, string]> = {
  denied: ['microphone_denied', 'microphone-denied', "the visitor denied the microphone (now or before: this site's settings in the browser can allow it)"],
  'blocked-page': [
    'microphone_blocked_page', 'microphone-blocked',
    "the page's Permissions-Policy blocks the microphone. Fix: send Permissions-Policy: microphone=(self), or leave microphone out of it",
  ],
  'blocked-frame': [
    'microphone_blocked_frame', 'microphone-blocked',
    'the iframe the widget is in may not use the microphone. Fix: <iframe … allow="microphone">, and no Permissions-Policy header that blocks microphone',
  ],
  insecure: ['insecure_page', 'insecure-page', 'not a secure context: browsers give the microphone only to https pages and localhost. Fix: serve the page over https'],
  'in-use': ['microphone_in_use', 'microphone-in-use', 'the microphone is in use by another application, or could not start'],
  'no-microphone': ['no_microphone', 'no-microphone', 'no microphone could be opened'],
  lost: ['microphone_lost', 'microphone-lost', 'the microphone went away during the call'],
  suspended: ['audio_blocked', 'audio-blocked', 'the browser holds the sound back until a click (autoplay policy)'],
  'output-lost': ['output_lost', 'output-lost', 'the sound output failed or went away'],
  failed: ['error', 'audio', 'the audio could not start'],
};

/**
 * The voice of a conversation (PROTOCOL.md section 3, "Voice"), wrapping src/audio: asks for the microphone (echo
 * cancellation, noise suppression, auto gain on) before the conversation opens, starts capture and playback in the
 * formats the metadata announces, streams `user_audio_chunk`s (none before the metadata), plays `audio` events (none
 * at or below an `interruption`'s `event_id`), mutes, switches to text and back. Its failures end in plain words
 * (a transcript notice and a console line), never a call stuck in "listening". Removing the element, the end of the
 * conversation and a call started in another widget release the microphone, the AudioContext and its worklets.
 */
export class VoiceController implements ReactiveController {
  state: VoiceState = 'off';
  /** Whose turn the audio says it is: `speaking` while the agent's audio actually plays. The one owner of the turn. */
  turn: AudioTurnState = 'listening';
  /** The microphone is muted: chunks keep flowing, holding silence. */
  muted = false;
  /** Switched to text during the call: microphone muted, the agent's voice not played. */
  textMode = false;
  /** The last failure's notice, shown until the next call (`audio_blocked` until the next click resumes). */
  problem: NoticeKind | null = null;
  /** The last call could not start where trying again may help (its microphone refused, missing or busy): the call button says so. */
  get mayRetry(): boolean {
    return !!this.problem && RETRY.has(this.problem);
  }

  /** `unavailable`, once read. */
  #unavailable: NoticeKind | null | undefined;

  /**
   * What rules a call out on this page before any press (`microphoneBlocked`: an insecure page, a permissions policy
   * that blocks the microphone), as the notice the panel shows instead of the call button, or null. The first read
   * tells the site owner the fix in the console.
   */
  get unavailable(): NoticeKind | null {
    if (this.#unavailable === undefined) {
      const kind = microphoneBlocked();
      this.#unavailable = kind && FAILURE[kind][0];
      if (kind) log.error(`voice call: ${FAILURE[kind][2]}.`);
    }
    return this.#unavailable;
  }

  readonly #audio: AudioController;
  readonly #output = new Audio();
  /** The call's microphone and speaker as the visitor chooses them (the device sheet). */
  readonly devices: DeviceChoiceController;
  #conversation: ConversationController | null = null;
  /** The granted microphone until the audio controller takes it over. */
  #stream: MediaStream | null = null;
  /** The next call's worker (started in the press), then the call's; null where none runs (the page's main thread does its work). */
  #worker: Promise<CallWorker | null> | null = null;
  #run = 0;
  /** Draws the levels on the elements the parts hand over through `levelTarget`, where no call worker runs. */
  readonly #levels = new LevelMeter();
  /** While a call worker draws the levels, the ring canvas it draws around each of those elements. */
  readonly #rings = new Map<HTMLElement, HTMLCanvasElement | null>();
  /** The level elements waiting for their first layout before their ring is made (`#ring`), and what watches them. */
  readonly #sizing = new Set<HTMLElement>();
  #sized: ResizeObserver | null = null;
  /** The running call's worker once its audio is on; null where the page's main thread does the work. */
  #drawing: CallWorker | null = null;
  #reducedMotion: MediaQueryList | null = null;
  readonly #view = (): void => this.#drawing?.view(!document.hidden, !!this.#reducedMotion?.matches);
  readonly #resume = (): void => {
    void this.#audio.resume().then((running) => running && this.#clear('audio_blocked'));
  };

  /**
   * @param onTurn called when the audio tells the turn (the page was told of a change already): shows it without a
   * render of the element (the status line and the orb: the panel's `showStatus`)
   */
  constructor(private readonly host: ReactiveElement, private readonly onTurn: () => void) {
    host.addController(this);
    this.#audio = new AudioController(host, {
      onChunk: (base64) => this.#conversation?.sendAudio(base64),
      onLevels: (input, output) => this.#levels.set(input, output),
      onState: (turn) => this.#turnTo(turn),
      onError: (kind, error) => this.#fail(kind, error),
      onMicrophoneFallback: () => {
        log.warn('voice call: the microphone went away; capture moved to the default microphone, and the call goes on.');
        this.devices.using({ microphone: '' });
        this.#conversation?.notice('microphone_default');
        host.requestUpdate();
      },
    });
    this.devices = new DeviceChoiceController(host, (kind, deviceId) =>
      kind === 'speaker' ? this.#output.setSinkId(deviceId).then(() => true) : this.#audio.useMicrophone(deviceId),
    () => this.state !== 'off');
  }

  /** The element left the page (not moved in it, see `whenGone`): the call ends and everything is released. */
  hostDisconnected(): void {
    whenGone(this.host, () => this.#release());
  }

  /** The call's turn as the page is told it (`voice-agent-status`): null unless the call's audio flows in voice. */
  get callTurn(): AudioTurnState | null {
    return this.state === 'on' && !this.textMode ? this.turn : null;
  }

  /**
   * A part's callback for an element that shows the levels during a call (the header's avatar, the orb): it gets
   * `--_mic-level` and `--_agent-level`, 0..1 on a level meter's scale, non-inherited, through the CSSOM (CSP-safe),
   * at most once per animation frame (`LevelMeter`). An element no longer in the document is dropped at the next write.
   * Where a call worker runs, it draws the levels instead, on a ring canvas around each element
   * (`CallWorker.showLevels`), and nothing is written on the element.
   */
  readonly levelTarget = (element: Element): void => {
    this.#levels.add(element as HTMLElement);
    // A first render hands the element over before it is in the document.
    if (this.#drawing && !this.#rings.has(element as HTMLElement)) queueMicrotask(() => this.#ring(element as HTMLElement));
  };

  /**
   * Has the call worker draw the levels around `element` (once per element and call; see `CallWorker.showLevels`), once
   * the element has been laid out: its size and colour are read in a `ResizeObserver` callback, after the frame's style
   * and layout, so the call's start forces neither (the element's first render and the call going live change the
   * panel's layout anyway).
   */
  #ring(element: HTMLElement): void {
    if (!this.#drawing || this.#rings.has(element) || this.#sizing.has(element) || !element.isConnected) return;
    this.#sizing.add(element);
    (this.#sized ??= new ResizeObserver((entries) => entries.forEach((entry) => this.#ringSized(entry)))).observe(element);
  }

  /** An element waiting for its ring (`#ring`) has its size: the worker gets its canvas. */
  #ringSized({ target, borderBoxSize }: ResizeObserverEntry): void {
    const element = target as HTMLElement;
    this.#sized?.unobserve(element);
    if (!this.#sizing.delete(element) || !this.#drawing || !element.isConnected) return;
    const box = borderBoxSize?.[0];
    const size = box ? Math.max(box.inlineSize, box.blockSize) : Math.max(element.offsetWidth, element.offsetHeight);
    const color = getComputedStyle(element).getPropertyValue('--_orb-color-1').trim() || 'gray';
    this.#rings.set(element, this.#drawing.showLevels(element, color, size));
  }

  /** The call has a worker: it draws the levels once they come, told whether the page is shown and may move. */
  #drawLevels(worker: CallWorker): void {
    this.#drawing = worker;
    this.#reducedMotion ??= matchMedia('(prefers-reduced-motion: reduce)');
    this.#reducedMotion.addEventListener('change', this.#view);
    document.addEventListener('visibilitychange', this.#view);
    this.#view();
    for (const element of this.#levels.targets) this.#ring(element);
  }

  #stopDrawing(): void {
    this.#drawing = null;
    this.#reducedMotion?.removeEventListener('change', this.#view);
    document.removeEventListener('visibilitychange', this.#view);
    for (const canvas of this.#rings.values()) canvas?.remove();
    this.#rings.clear();
    this.#sized?.disconnect();
    this.#sizing.clear();
  }

  /**
   * Opens the call's AudioContext and output inside the visitor's press, before any `await` (see
   * `AudioController.prepare`): the start sequence calls it first, so that Safari lets the first message be heard.
   */
  prepare(): void {
    this.#audio.prepare(this.#output);
    this.#worker ??= CallWorker.start();
  }

  /** Closes what `prepare()` opened when the call does not start after all (terms declined, start cancelled). */
  cancel(): void {
    if (this.state !== 'off') return;
    this.#audio.stop();
    this.#stopDrawing();
    this.#closeWorker();
  }

  /**
   * Starts a voice call: ends any other widget's call, asks for the microphone, then opens the conversation with
   * `options` (their initiation asks for `text_only: false`).
   * @returns the conversation's handshake (see `ConversationController.start`): the conversation id
   * @throws Error (as a rejection) when the microphone is refused or missing (told in the panel and the console,
   * nothing opened), or the call is ended or the element removed while the microphone is asked for; as the
   * conversation's handshake after that
   */
  async start(conversation: ConversationController, options: SessionOptions): Promise<string> {
    for (const call of calls) if (call !== this) call.end();
    calls.add(this);
    const run = ++this.#run;
    /** The visitor refused the microphone at the last try: this press asks anew, whatever the permission says. */
    const again = this.problem === 'microphone_denied';
    this.#conversation = conversation;
    this.#set({ state: 'starting', turn: 'listening', muted: false, textMode: false, problem: null });
    this.#audio.mute(false);
    this.#output.muted = false;
    // What rules the microphone out is told without asking; so is a permission the visitor refused before.
    let blocked = microphoneBlocked();
    const saved = this.devices.saved;
    let stream: MediaStream | undefined;
    let error: unknown;
    try {
      if (!blocked && !again && (await microphonePermission()) === 'denied') {
        // Where no policy object told before: the iframe's, not the visitor's (`frameBlocksMicrophone`); from now on
        // told instead of the call button, as where the engine tells it before the press.
        if (await frameBlocksMicrophone()) {
          blocked = 'blocked-frame';
          this.#unavailable = FAILURE[blocked][0];
        } else throw new DOMException('the permission says denied (Permissions API): not asked again until the visitor tries again', 'NotAllowedError');
      }
      // The microphone the visitor chose before, where it is still there, else the default (Chromium does not honour
      // an `ideal` device: asked as `exact`, then without).
      if (!blocked) {
        stream = await requestMicrophone(saved.microphone ? { deviceId: { exact: saved.microphone } } : undefined)
          .catch((refused) => (saved.microphone && /NotFound|Overconstrained/.test(refused?.name) ? requestMicrophone() : Promise.reject(refused)));
      }
    } catch (refusal) {
      error = refusal;
    }
    if (!stream) {
      const kind = blocked ?? microphoneErrorKind(error);
      if (run === this.#run) this.#fail(kind, error);
      throw new Error(`the call did not start: ${FAILURE[kind][2]}`);
    }
    /** Ended (or another call started) while it waited: the granted microphone is stopped, nothing more opened. */
    const ended = (): boolean => run !== this.#run && (stream.getTracks().forEach((track) => track.stop()), true);
    if (ended()) throw new Error('the call did not start: it was ended while the microphone was asked for');
    // The output keeps its speaker from call to call; routed again only where the one kept for the site differs (and
    // is still there, else it stays).
    const speaker = canChooseSpeaker() ? this.#output.sinkId : '';
    this.devices.using({ microphone: stream.getAudioTracks()[0]?.getSettings().deviceId === saved.microphone ? saved.microphone : '', speaker });
    if (canChooseSpeaker() && speaker !== saved.speaker) {
      this.#output.setSinkId(saved.speaker).then(() => run === this.#run && this.devices.using({ speaker: saved.speaker }), () => {});
    }
    // The call's socket and audio traffic in a worker, where one runs (call-thread.ts); started in the press, so ready by now.
    const worker = await (this.#worker ??= CallWorker.start());
    if (ended()) {
      worker?.close();
      throw new Error('the call did not start: it was ended while its worker started');
    }
    this.#stream = stream;
    // The level rings are set up while the call connects (a canvas each, handed to the worker, laid out), not in the
    // call's first moments, when its first message and first words come. Until the audio's levels come, the rings are
    // empty (level 0).
    if (worker) this.#drawLevels(worker);
    const handshake = conversation.start(worker ? { ...options, WebSocket: worker.WebSocket } : options);
    const session = conversation.session!;
    session.addEventListener('conversation_initiation_metadata', () => {
      if (run !== this.#run) return;
      const granted = this.#stream ?? undefined;
      this.#stream = null;
      const workletUrls = { capture: besideScript(WORKLET_FILES.capture), playback: besideScript(WORKLET_FILES.playback) };
      void this.#audio
        .start({ stream: granted, inputFormat: session.userInputAudioFormat, outputFormat: session.agentOutputAudioFormat, output: this.#output, workletUrls, workletFallback: true, playout: PLAYOUT, worker: worker ?? undefined })
        .then((running) => {
          if (!running || run !== this.#run) return;
          this.#set({ state: 'on' });
        });
    });
    session.addEventListener('audio', ({ detail }) => run === this.#run && this.#audio.play(detail.audio_event.audio_base_64, detail.audio_event.event_id));
    session.addEventListener('interruption', ({ detail }) => run === this.#run && this.#audio.interrupt(detail.interruption_event.event_id));
    session.addEventListener('ended', () => run === this.#run && this.#release());
    // A session can end while it starts (a socket the page's CSP refuses): then nothing else will release the microphone.
    if (session.status === 'ended') this.#release();
    return handshake;
  }

  /** Ends the call (`end_call`): the conversation closes and everything is released. */
  end(): void {
    this.#conversation?.end();
    this.#release();
  }

  /** Mutes or unmutes the microphone (`mute_microphone`, `mic_muting_enabled`). */
  toggleMute(): void {
    this.#set({ muted: !this.muted });
    this.#audio.mute(this.muted || this.textMode);
  }

  /** Switches between voice and text during the call (`conversation_mode_toggle_enabled`), with a notice in the transcript. */
  toggleTextMode(): void {
    this.#set({ textMode: !this.textMode });
    this.#audio.mute(this.muted || this.textMode);
    this.#output.muted = this.textMode;
    this.#conversation?.notice(this.textMode ? 'text_mode' : 'voice_mode');
  }

  #fail(kind: AudioErrorKind, error: unknown): void {
    const [notice, code, words] = FAILURE[kind === 'no-microphone' && this.state === 'on' ? 'lost' : kind];
    const message = `voice call: ${words}${error instanceof Error ? ` (${error.name}: ${error.message})` : ''}.`;
    log.error(message);
    this.#conversation?.error(code, message);
    if (kind === 'suspended' || kind === 'output-lost') {
      // The call goes on: the panel says what is wrong until it is mended (a click resumes held-back sound).
      this.#set({ problem: notice });
      if (kind === 'suspended') addEventListener('click', this.#resume, { capture: true });
      return;
    }
    // No microphone (refused, missing, gone): the call cannot go on as a voice call. A running conversation ends with
    // the cause as its notice in the transcript.
    this.#set({ problem: notice });
    this.#conversation?.end(notice);
    this.#release();
  }

  #clear(problem: NoticeKind): void {
    if (this.problem === problem) this.#set({ problem: null });
    removeEventListener('click', this.#resume, { capture: true });
  }

  /** Stops everything of the call: the microphone (granted or running), the AudioContext and worklets, the resume listener. */
  #release(): void {
    this.#run++;
    this.devices.close();
    this.#stream?.getTracks().forEach((track) => track.stop());
    this.#stream = null;
    this.#audio.stop();
    this.#stopDrawing();
    this.#closeWorker();
    removeEventListener('click', this.#resume, { capture: true });
    this.#conversation = null;
    calls.delete(this);
    this.#levels.reset();
    this.#set({ state: 'off', turn: 'listening' });
  }

  /** Lets the call's worker close its socket and end itself; the next call starts another. */
  #closeWorker(): void {
    void this.#worker?.then((worker) => worker?.close());
    this.#worker = null;
  }

  /** The audio's turn, changed or not: the page is told of a change (`voice-agent-status`), and `onTurn` shows it. */
  #turnTo(turn: AudioTurnState): void {
    this.turn = turn;
    // A reply waiting for its voice is drawn with the turn that shows it spoken.
    if (turn === 'speaking') this.#conversation?.drawPending();
    this.#conversation?.announceStatus();
    this.onTurn();
  }

  /** Changes the call's state; the conversation tells the page when the turn it reads (`callTurn`) changed. */
  #set(change: Partial<Pick<VoiceController, 'state' | 'turn' | 'muted' | 'textMode' | 'problem'>>): void {
    Object.assign(this, change);
    this.#conversation?.announceStatus();
    this.host.requestUpdate();
  }
}

/**
 * Helpers of the voice tests (test/integration/voice*.test.ts): agents made for one test on the reference service,
 * its conversation record, and a watch on what a call does in the browser. The browser's own getUserMedia,
 * AudioContext, WebSocket and MessagePort are used; they are only counted on the way through (as in
 * test/audio/lifecycle.test.ts).
 */
import { expect, fixtureCleanup, oneEvent } from '@open-wc/testing';
import { apiKey } from '/__service__.js';
import { until } from '../helpers.js';
import { $, $$, mountWidget, openPanel, serviceUrl } from '../widget-helpers.js';
import type { VoiceAgentConversationEndEvent, VoiceAgentConversationEvent } from '../../src/events/index.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';

/** Default labels the voice tests read (src/config/defaults.ts). */
export const LABEL = {
  startCall: 'Start a call',
  newCall: 'New call',
  startChat: 'Start a chat',
  connecting: 'Connecting',
  listening: 'Listening',
  speaking: 'Talk to interrupt',
  chatting: 'Chatting with AI agent',
  mute: 'Mute microphone',
  textMode: 'Switch to text mode',
  voiceMode: 'Switch to voice mode',
  switchedToText: 'Switched to text mode',
  switchedToVoice: 'Switched to voice mode',
  error: 'An error occurred',
  agentEnded: 'The agent ended the conversation',
} as const;

/** A request to the reference service with the dev API key; fails the test on a status other than 200. */
export async function service<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${serviceUrl}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, `${method} ${path}: ${text}`).to.equal(200);
  return JSON.parse(text) as T;
}

/** An agent made for one test: its first message, audio formats and widget configuration. */
export interface AgentSpec {
  firstMessage?: string;
  /** `asr.user_input_audio_format` (default `pcm_16000`). */
  input?: string;
  /** `tts.agent_output_audio_format` (default `pcm_16000`). */
  output?: string;
  /** `platform_settings.widget`. */
  widget?: Record<string, unknown>;
}

/**
 * A new agent on the reference service (POST /v1/convai/agents/create), so a test changes no shared agent and needs
 * nothing restored. First message by default: agent_minimal's.
 */
export async function createAgent({ firstMessage = 'Hello! How can I help you today?', input, output, widget = {} }: AgentSpec = {}): Promise<string> {
  const conversationConfig: Record<string, unknown> = { agent: { first_message: firstMessage } };
  if (input) conversationConfig.asr = { user_input_audio_format: input };
  if (output) conversationConfig.tts = { agent_output_audio_format: output };
  const { agent_id } = await service<{ agent_id: string }>('POST', '/v1/convai/agents/create', {
    name: 'voice test agent', conversation_config: conversationConfig, platform_settings: { widget },
  });
  return agent_id;
}

/** The service's record of a conversation (GET /v1/voiceai/conversations/{id}, PROTOCOL.md section 5). */
export interface ConversationRecord {
  status: string;
  transcript: { role: string; message: string; interrupted: boolean }[];
  metadata: { user_audio_bytes: number; termination_reason: string | null; text_only: boolean };
  has_user_audio: boolean;
  conversation_initiation_client_data: { conversation_config_override: { conversation?: { text_only?: boolean } } };
}

export const conversationRecord = (id: string): Promise<ConversationRecord> => service<ConversationRecord>('GET', `/v1/voiceai/conversations/${id}`);

/** Sets the reference service's fault switches (`PUT /v1/dev/faults`); `service('DELETE', '/v1/dev/faults')` clears them. */
export const setFaults = (faults: Record<string, unknown>): Promise<unknown> => service('PUT', '/v1/dev/faults', faults);

/** The element of the widget with the part `name` (`part~="name"`), or null. */
export const part = <T extends HTMLElement = HTMLElement>(el: VoiceAgentWidget, name: string): T | null => $<T>(el, `[part~="${name}"]`);

/** The status line's text (`role="status"`, shown or visually hidden). */
export const statusText = (el: VoiceAgentWidget): string => part(el, 'status')?.textContent?.trim() ?? '';

/**
 * One thing the socket carried, one chunk of agent audio handed to the playback worklet, or one level a call worker
 * drew (the microphone's and the agent's, 0..1, of which the ring shows the larger), in order.
 */
export type CallEvent =
  | { kind: 'sent'; frame: Record<string, unknown>; at: number }
  | { kind: 'received'; frame: Record<string, any>; at: number }
  | { kind: 'played'; eventId: number | null }
  | { kind: 'drawn'; levels: [mic: number, agent: number]; at: number };

/** A call worker as the watch sees it: the URL it was made from, and its socket's state. */
export type WatchedWorker = Worker & { url: string; readyState: number };

/** How the watch answers getUserMedia: `real()` is the fake microphone; a test may refuse or hold it instead. */
export type GetUserMedia = (real: () => Promise<MediaStream>) => Promise<MediaStream>;

/**
 * Watches the calls of `win` (this page, or a same-origin frame): every getUserMedia (its constraints and streams),
 * AudioContext, WebSocket, frame sent and received (injected ones too), Blob URL made, worklet module loaded, and
 * every chunk of agent audio handed to the playback worklet (tagged with the `event_id` of the `audio` frame being
 * handled). `restore()` puts the browser's own functions back.
 */
export function watchCall(win: typeof window = window) {
  /** How getUserMedia is answered (settable by a test): the fake microphone. */
  let answer: GetUserMedia = (real) => real();
  const constraints: (MediaStreamConstraints | undefined)[] = [];
  const worklets: { url: string; loaded: boolean }[] = [];
  const streams: MediaStream[] = [];
  const contexts: AudioContext[] = [];
  /** The page's own sockets, and the call workers (call-thread.ts), each standing for the socket it holds. */
  const sockets: (WebSocket | WatchedWorker)[] = [];
  const workers: WatchedWorker[] = [];
  const blobUrls: string[] = [];
  const events: CallEvent[] = [];
  /**
   * The frames handed to the page's session, in order: a worker's copies (`received`) come ahead of the frames it hands
   * the page, which may still wait in the page's task queue.
   */
  const delivered: { frame: Record<string, any>; at: number }[] = [];
  /** The `event_id` of the `audio` frame the page is handling now (the widget plays it synchronously). */
  let audioEventId: number | null = null;

  const native = {
    getUserMedia: win.MediaDevices.prototype.getUserMedia,
    AudioContext: win.AudioContext,
    WebSocket: win.WebSocket,
    Worker: win.Worker,
    send: win.WebSocket.prototype.send,
    postMessage: win.MessagePort.prototype.postMessage,
    createObjectURL: win.URL.createObjectURL,
  };
  /**
   * Records each worklet module the context loads. On the context's own `audioWorklet`, not on a prototype: WebKit
   * makes a context constructed through this (the test's realm's) subclass in the test's realm, so a frame's
   * `AudioWorklet.prototype` is not on its chain.
   */
  /** The worklets watched: held, since WebKit may collect an unreferenced wrapper and make a new one, without the hook. */
  const held: AudioWorklet[] = [];
  const watchWorklets = (context: AudioContext): void => {
    const worklet = context.audioWorklet;
    held.push(worklet);
    const addModule = worklet.addModule;
    worklet.addModule = async (url: string | URL, options?: WorkletOptions) => {
      const entry = { url: String(url), loaded: false };
      worklets.push(entry);
      await addModule.call(worklet, url, options);
      entry.loaded = true;
    };
  };
  win.MediaDevices.prototype.getUserMedia = async function (this: MediaDevices, asked?: MediaStreamConstraints) {
    constraints.push(asked);
    const stream = await answer(() => native.getUserMedia.call(this, asked));
    streams.push(stream);
    return stream;
  };
  win.AudioContext = class extends native.AudioContext {
    constructor(options?: AudioContextOptions) {
      super(options);
      contexts.push(this);
      watchWorklets(this);
    }
  };
  /** A frame received, at `at` (the page's `performance.now()` ms; a worker's clock mapped to it). */
  const record = (data: unknown, at = performance.now()): void => {
    const frame = JSON.parse(String(data)) as Record<string, any>;
    audioEventId = frame.type === 'audio' ? frame.audio_event.event_id : null;
    events.push({ kind: 'received', frame, at });
  };
  win.WebSocket = class extends native.WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      sockets.push(this);
      // Added before the session's own handler: a frame is recorded before the widget acts on it, in the same task.
      this.addEventListener('message', (event) => (record(event.data), delivered.push({ frame: JSON.parse(String(event.data)), at: performance.now() })));
    }
  };
  // A call worker holds the socket: it is asked for copies of what goes through it (`{watch: true}`, before the
  // widget's first command), which are recorded here; it stands for its socket in `sockets` (`readyState`).
  win.Worker = class extends native.Worker {
    readyState: number = WebSocket.CONNECTING;
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      const worker = this as unknown as WatchedWorker;
      workers.push(worker);
      worker.url = String(url);
      this.postMessage({ watch: true });
      this.addEventListener('message', ({ data }) => {
        if ('open' in data && !sockets.includes(worker)) {
          worker.readyState = WebSocket.OPEN;
          sockets.push(worker);
        }
        if ('refused' in data) sockets.push(worker);
        if ('refused' in data || ('watched' in data && data.watched[0] === 'closed')) worker.readyState = WebSocket.CLOSED;
        // Before the widget's own handler: the widget acts on these in this same task.
        if ('frames' in data) for (const frame of data.frames) if (typeof frame === 'string') delivered.push({ frame: JSON.parse(frame), at: performance.now() });
        if (!('watched' in data)) return;
        const [kind, value, ms] = data.watched;
        const at = ms - performance.timeOrigin;
        if (kind === 'sent') events.push({ kind: 'sent', frame: JSON.parse(value), at });
        else if (kind === 'received') record(value, at);
        else if (kind === 'played') events.push({ kind: 'played', eventId: value });
        else if (kind === 'drawn') events.push({ kind: 'drawn', levels: value, at });
      });
    }
  } as unknown as typeof Worker;
  native.WebSocket.prototype.send = function (this: WebSocket, data: string | ArrayBufferLike | Blob | ArrayBufferView) {
    events.push({ kind: 'sent', frame: JSON.parse(String(data)), at: performance.now() });
    return native.send.call(this, data);
  };
  win.MessagePort.prototype.postMessage = function (this: MessagePort, message: unknown, ...rest: unknown[]) {
    if (message && typeof message === 'object' && 'samples' in message) events.push({ kind: 'played', eventId: audioEventId });
    return (native.postMessage as (...args: unknown[]) => void).call(this, message, ...rest);
  } as typeof MessagePort.prototype.postMessage;
  win.URL.createObjectURL = (object: Blob | MediaSource) => {
    const url = native.createObjectURL(object);
    blobUrls.push(url);
    return url;
  };

  const sent = () => events.flatMap((e) => (e.kind === 'sent' ? [e.frame] : []));
  const received = (type: string) => events.flatMap((e) => (e.kind === 'received' && e.frame.type === type ? [e.frame] : []));
  const tracks = (): MediaStreamTrack[] => streams.flatMap((s) => s.getTracks());
  return {
    /** Answers the next getUserMedia calls with `next` instead of the fake microphone. */
    answerGetUserMedia(next: GetUserMedia): void {
      answer = next;
    },
    /**
     * Holds the next getUserMedia calls as an unanswered permission prompt would.
     * @returns grants them (the fake microphone)
     */
    holdGetUserMedia(): () => void {
      let grant!: () => void;
      const granted = new Promise<void>((resolve) => (grant = resolve));
      answer = async (real) => (await granted, real());
      return grant;
    },
    constraints,
    worklets,
    streams,
    contexts,
    sockets,
    /** The call workers made (call-thread.ts), with the URL each was made from (`url`: a Blob URL). */
    workers,
    blobUrls,
    events,
    sent,
    received,
    /** The frames of `type` handed to the page's session (see `delivered` above), after `received` with a call worker. */
    delivered: (type: string) => delivered.flatMap(({ frame }) => (frame.type === type ? [frame] : [])),
    /** The same, each with when the page's session got it (the page's `performance.now()` ms, in the task that handles it). */
    deliveredAt: (type: string) => delivered.filter(({ frame }) => frame.type === type),
    /** The bytes of every `user_audio_chunk` sent, in order. */
    chunks: (): Uint8Array[] =>
      sent().flatMap((f) => (typeof f.user_audio_chunk === 'string' ? [Uint8Array.from(atob(f.user_audio_chunk), (c) => c.charCodeAt(0))] : [])),
    /**
     * The microphone's clock against the page's, from the `user_audio_chunk`s sent (`bytesPerSecond` of the announced
     * format), the first `skip` seconds of audio left out. A chunk can be sent late (an engine's capture or the page
     * stalls, then a burst catches up) but never early, so in each half of the time each chunk's lateness is taken
     * as its wall time less its audio time, and the least late chunk of each half gives the rate between them.
     * Only the latest `span` seconds count: an engine that lost audio once (WebKit's capture on a loaded machine: 0.925
     * over 12 s in one CI run, from a stall it never caught up) is measured again past the loss, while an error of the
     * format's rate or of a resampler's ratio shows in every span.
     * @returns `wall`: seconds from the first chunk counted to the last; `rate`: seconds of audio per wall-clock
     *   second (1 at the announced rate), 0 before two chunks are counted
     */
    audioClock(bytesPerSecond: number, skip = 1, span = 3): { wall: number; rate: number } {
      let points: { wall: number; audio: number }[] = [];
      let audio = 0;
      for (const e of events) {
        if (e.kind !== 'sent' || typeof e.frame.user_audio_chunk !== 'string') continue;
        audio += atob(e.frame.user_audio_chunk).length / bytesPerSecond;
        if (audio > skip) points.push({ wall: e.at / 1000, audio });
      }
      const end = points.at(-1)?.wall ?? 0;
      points = points.filter((p) => p.wall >= end - span);
      if (points.length < 2) return { wall: 0, rate: 0 };
      const wall = points[points.length - 1].wall - points[0].wall;
      const middle = points[0].wall + wall / 2;
      const halves = [points.filter((p) => p.wall < middle), points.filter((p) => p.wall >= middle)];
      // A half with no chunk (a stall across it): not measurable yet.
      if (!halves[0].length || !halves[1].length) return { wall, rate: 0 };
      const [early, late] = halves.map((half) => half.reduce((best, p) => (p.wall - p.audio < best.wall - best.audio ? p : best)));
      return { wall, rate: (late.audio - early.audio) / (late.wall - early.wall) };
    },
    /** Every microphone track of the call(s). */
    tracks,
    /** Hands `frame` to the page as if the service had sent it on the latest socket (a frame a real service may send). */
    inject(frame: Record<string, unknown>): void {
      const socket = sockets.at(-1)!;
      const data = JSON.stringify(frame);
      if (socket instanceof native.WebSocket) socket.dispatchEvent(new win.MessageEvent('message', { data }));
      else {
        // As the worker forwards a frame; recorded here, since the worker never saw it.
        record(data);
        socket.dispatchEvent(new win.MessageEvent('message', { data: { frames: [data] } }));
      }
    },
    /** Every socket closed: then every frame a call worker sent has been recorded (its copies come before its close). */
    async closed(): Promise<void> {
      await until(() => sockets.every((s) => s.readyState === WebSocket.CLOSED), 'every socket closed', 5000);
    },
    /** Every microphone track ended, every AudioContext closed, every socket closed. */
    async released(): Promise<void> {
      await until(() => contexts.every((c) => c.state === 'closed'), 'every AudioContext closed', 5000);
      await until(() => sockets.every((s) => s.readyState === WebSocket.CLOSED), 'every socket closed', 5000);
      expect(tracks().filter((t) => t.readyState !== 'ended'), 'microphone tracks not ended').to.deep.equal([]);
    },
    restore(): void {
      win.MediaDevices.prototype.getUserMedia = native.getUserMedia;
      win.AudioContext = native.AudioContext;
      win.WebSocket = native.WebSocket;
      win.Worker = native.Worker;
      native.WebSocket.prototype.send = native.send;
      win.MessagePort.prototype.postMessage = native.postMessage;
      win.URL.createObjectURL = native.createObjectURL;
    },
  };
}

export type CallWatch = ReturnType<typeof watchCall>;

/** True while the status line says a voice call is live (listening or speaking). */
export const live = (el: VoiceAgentWidget): boolean => statusText(el) === LABEL.listening || statusText(el) === LABEL.speaking;

/**
 * Clicks the call button (`part="start-call-button"`) and waits until the call is live: the status says listening or
 * speaking and the audio runs.
 * @returns the conversation id (`voice-agent-conversation`)
 */
export async function startCall(el: VoiceAgentWidget): Promise<string> {
  const started = oneEvent<VoiceAgentConversationEvent>(el, 'voice-agent-conversation');
  part(el, 'start-call-button')!.click();
  const { detail } = await started;
  // The root's `live` class: the audio runs (microphone captured, worklets loaded), not only the conversation.
  await until(() => live(el) && $(el, '.root.live'), 'the call is live', 10000);
  return detail.conversationId;
}

/**
 * Mounts the widget of `agentId` (with `attributes`), opens its panel and starts a call (`startCall`).
 * @returns the element and the conversation id
 */
export async function openCall(agentId: string, attributes: Record<string, string> = {}): Promise<{ el: VoiceAgentWidget; id: string }> {
  const el = await mountWidget(agentId, attributes);
  await openPanel(el);
  return { el, id: await startCall(el) };
}

/**
 * Starts a call of agent_minimal whose microphone prompt stays unanswered (`holdGetUserMedia`): the status says
 * connecting.
 * @returns the element, and `grant` to answer the prompt
 */
export async function callAtThePrompt(watch: CallWatch): Promise<{ el: VoiceAgentWidget; grant: () => void }> {
  const grant = watch.holdGetUserMedia();
  const el = await mountWidget('agent_minimal');
  await openPanel(el);
  part(el, 'start-call-button')!.click();
  await until(() => statusText(el) === LABEL.connecting, 'connecting');
  return { el, grant };
}

/** The detail of the next `voice-agent-conversation-end` of `el` (listens from the call on). */
export const nextEnd = (el: EventTarget): Promise<VoiceAgentConversationEndEvent['detail']> =>
  oneEvent<VoiceAgentConversationEndEvent>(el, 'voice-agent-conversation-end').then((event) => event.detail);

/** Presses the end button (`part="end-button"`) and waits for the conversation's end. */
export async function endCall(el: VoiceAgentWidget): Promise<VoiceAgentConversationEndEvent['detail']> {
  const ended = nextEnd(el);
  part(el, 'end-button')!.click();
  return ended;
}

/** Waits until the service has closed its record of a conversation, and returns it. */
export async function closedRecord(id: string): Promise<ConversationRecord> {
  let record: ConversationRecord | undefined;
  await until(async () => (record = await conversationRecord(id)).status !== 'in-progress', `conversation ${id} closed by the service`);
  return record!;
}

/** Texts of the transcript's notices (`part="notice"`). */
export const notices = (el: VoiceAgentWidget): string[] => $$(el, '[part~="notice"]').map((n) => n.textContent!.trim());

/**
 * Watches every test of the calling `describe` (`watchCall`); after each test, removes its fixture and checks that
 * nothing is left running (every microphone track ended, every AudioContext and socket closed: DESIGN.md rule 4).
 * @returns the watch of the running test
 */
export function watchEachCall(): CallWatch {
  let current: CallWatch | undefined;
  beforeEach(() => void (current = watchCall()));
  afterEach(async () => {
    try {
      fixtureCleanup();
      await current!.released();
    } finally {
      current!.restore();
    }
  });
  return new Proxy({} as CallWatch, { get: (_target, key) => Reflect.get(current!, key) });
}

/**
 * Voice calls through the element (PROTOCOL.md section 3, "Voice") against the reference service, which speaks
 * (espeak-ng) and listens (energy VAD), with Chromium's fake microphone playing test/fixtures/speech.wav (2 s of
 * speech, 1 s of silence, looped: the service hears `(speech, 2.0 s)` every 3 s and interrupts the agent when the
 * speech starts over it). Starting a call, hearing the agent, interruption, the status line.
 * Controls: voice-controls.test.ts; failures: voice-failures.test.ts; releasing: voice-release.test.ts; CSP: voice-csp.test.ts.
 */
import { expect } from '@open-wc/testing';
import { engine, until } from '../helpers.js';
import { $, $$, mountWidget, openPanel } from '../widget-helpers.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';
import { ConversationController, STREAM_DRAW_MS, VOICE_DRAW_MS } from '../../src/widget/controllers/conversation.js';
import {
  LABEL, callAtThePrompt, closedRecord, conversationRecord, createAgent, endCall, live, openCall, part, startCall, statusText,
  watchEachCall, type CallWatch,
} from './voice-helpers.js';

/** `user_input_audio_format`s (PROTOCOL.md section 3): sample rate (Hz) and bytes per sample. */
const INPUT_FORMATS: [format: string, rate: number, bytesPerSample: number][] = [
  ['pcm_16000', 16000, 2], ['pcm_8000', 8000, 2], ['pcm_22050', 22050, 2], ['pcm_24000', 24000, 2],
  ['pcm_44100', 44100, 2], ['pcm_48000', 48000, 2], ['ulaw_8000', 8000, 1],
];

/** The durations (s) of the speech the service heard, from its `user_transcript`s `(speech, 2.0 s)` in the transcript. */
const heardSeconds = (el: VoiceAgentWidget): number[] =>
  $$(el, '.message.user').flatMap((m) => /^\(speech, (\d+\.\d) s\)$/.exec(m.textContent!.trim())?.slice(1).map(Number) ?? []);

/**
 * The agent's level (0..1) as shown around the header's avatar while its audio plays: drawn by the call worker (the
 * agent's level of the last ring it drew), else written on its `.level` frame.
 */
const agentLevel = (el: VoiceAgentWidget, watch: CallWatch): number => {
  const drawn = [...watch.events].reverse().find((e) => e.kind === 'drawn');
  if (drawn?.kind === 'drawn') return drawn.levels[1];
  return Number($(el, '[part~="header"] .level')!.style.getPropertyValue('--_agent-level') || 0);
};

/** 100 ms of a 440 Hz tone as 16-bit PCM at 16 kHz, base64: a chunk of agent audio a real service could still have in flight. */
const TONE_BASE64 = (() => {
  const samples = Int16Array.from({ length: 1600 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16000)));
  return btoa(String.fromCharCode(...new Uint8Array(samples.buffer)));
})();

describe('a voice call', () => {
  const watch = watchEachCall();

  describe('starting', () => {
    it('names the call button start_call, and new_call once a call has ended; accessible while listening', async () => {
      const el = await mountWidget('agent_minimal');
      await openPanel(el);
      const callButton = () => part(el, 'start-call-button');
      expect(callButton()!.textContent!.trim()).to.equal(LABEL.startCall);
      await startCall(el);
      expect(callButton(), 'no call button during the call').to.equal(null);
      await until(() => statusText(el) === LABEL.listening, 'listening', 10000);
      await expect(el).to.be.accessible();
      expect((await endCall(el)).reason).to.equal('user');
      expect(callButton()!.textContent!.trim()).to.equal(LABEL.newCall);
    });

    it("draws the level ring around the header's avatar at 1.35 times its size, reading no element's size as the call starts (a ResizeObserver gives it)", async () => {
      const el = await mountWidget('agent_minimal');
      await openPanel(el);
      const reads: string[] = [];
      const spied = (['offsetWidth', 'offsetHeight'] as const).map((name) => {
        const descriptor = Object.getOwnPropertyDescriptor(HTMLElement.prototype, name)!;
        Object.defineProperty(HTMLElement.prototype, name, { ...descriptor, get(this: HTMLElement) { reads.push(name); return descriptor.get!.call(this); } });
        return [name, descriptor] as const;
      });
      try {
        await startCall(el);
        await until(() => $(el, '[part~="header"] .level canvas.level-ring'), 'the ring', 10000);
      } finally {
        for (const [name, descriptor] of spied) Object.defineProperty(HTMLElement.prototype, name, descriptor);
      }
      expect(reads, 'no layout read between the press and the ring').to.deep.equal([]);
      const level = $(el, '[part~="header"] .level')!;
      const ring = level.querySelector('canvas')!;
      const side = Math.max(level.getBoundingClientRect().width, level.getBoundingClientRect().height);
      expect(parseFloat(ring.style.width)).to.be.closeTo(side * 1.35, 0.01);
      expect(ring.getAttribute('aria-hidden')).to.equal('true');
      await endCall(el);
      expect($(el, 'canvas.level-ring'), 'the ring removed with the call').to.equal(null);
    });

    it('opens and resumes the AudioContext inside the press, before any await and before asking for the microphone (Safari lets sound out only then)', async () => {
      const el = await mountWidget('agent_minimal');
      await openPanel(el);
      const order: string[] = [];
      const { resume } = AudioContext.prototype;
      const { getUserMedia } = MediaDevices.prototype;
      AudioContext.prototype.resume = function (this: AudioContext) {
        order.push('resume');
        return resume.call(this);
      };
      MediaDevices.prototype.getUserMedia = function (this: MediaDevices, constraints?: MediaStreamConstraints) {
        order.push('getUserMedia');
        return getUserMedia.call(this, constraints);
      };
      try {
        const contexts = watch.contexts.length;
        part(el, 'start-call-button')!.click();
        // Synchronously after the press: nothing awaited has run yet.
        expect(watch.contexts.length - contexts, 'an AudioContext made in the press').to.equal(1);
        expect(order, 'resumed in the press').to.deep.equal(['resume']);
        // Then the microphone is asked, once its permission was read (microphone.ts): after the context.
        await until(() => order.length > 1, 'the microphone asked');
        expect(order, 'resumed in the press, then the microphone asked').to.deep.equal(['resume', 'getUserMedia']);
        const [context] = watch.contexts.slice(contexts);
        await until(() => live(el) && $(el, '.root.live'), 'the call is live', 10000);
        // The call runs on that same context: no second one was made once the formats were known.
        expect(watch.contexts.slice(contexts)).to.deep.equal([context]);
        expect(context.state).to.equal('running');
      } finally {
        AudioContext.prototype.resume = resume;
        MediaDevices.prototype.getUserMedia = getUserMedia;
      }
      await endCall(el);
    });

    it('asks for the microphone once, with echo cancellation, noise suppression and auto gain on, before opening the socket', async () => {
      let socketsWhenAsked = -1;
      watch.answerGetUserMedia((real) => ((socketsWhenAsked = watch.sockets.length), real()));
      await openCall('agent_minimal');
      expect(watch.constraints).to.deep.equal([{ audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true } }]);
      expect(socketsWhenAsked).to.equal(0);
      expect(watch.sockets).to.have.length(1);
      expect(watch.tracks().map((t) => t.readyState)).to.deep.equal(['live']);
    });

    it('asks for conversation.text_only false in the initiation, and the service records a voice conversation', async () => {
      const { id } = await openCall('agent_minimal');
      const [initiation] = watch.sent();
      expect(initiation.type).to.equal('conversation_initiation_client_data');
      expect(initiation.conversation_config_override).to.deep.include({ conversation: { text_only: false } });
      const record = await conversationRecord(id);
      expect(record.conversation_initiation_client_data.conversation_config_override.conversation).to.deep.equal({ text_only: false });
      expect(record.metadata.text_only).to.equal(false);
    });

    it('sends text_only true when override-text-only="true" (the attribute wins); the service then does not listen', async () => {
      const { id } = await openCall('agent_minimal', { 'override-text-only': 'true' });
      expect(watch.sent()[0].conversation_config_override).to.deep.include({ conversation: { text_only: true } });
      const record = await conversationRecord(id);
      expect(record.conversation_initiation_client_data.conversation_config_override.conversation).to.deep.equal({ text_only: true });
      expect(record.metadata.text_only).to.equal(true);
      // The microphone still streams (a call), but a text-only conversation gets no voice activity scores.
      await until(() => watch.chunks().length >= 50, 'a second of audio sent');
      expect(watch.received('vad_score')).to.deep.equal([]);
      expect((await conversationRecord(id)).metadata.user_audio_bytes).to.be.above(0);
    });

    for (const [format, rate, bytesPerSample] of INPUT_FORMATS) {
      it(`sends ${format} user_audio_chunks of 20-25 ms, only after conversation_initiation_metadata, and the service hears the speech`, async function () {
        this.timeout(30000);
        const { el, id } = await openCall(await createAgent({ input: format }));
        const [metadata] = watch.received('conversation_initiation_metadata');
        expect(metadata.conversation_initiation_metadata_event.user_input_audio_format).to.equal(format);
        // The rate: the audio sent keeps the microphone's clock. Chunks at another rate than announced (not
        // resampled, or resampled by a wrong ratio: 44.1 kHz taken for 48 kHz is 8 % off) hold more or less than
        // the wall-clock time they took to capture. WebKit's capture stalls for up to 0.7 s, then catches up.
        // A systematic error never comes within 5 %: 1.086 with a resampler 8.8 % off.
        // Measured over the latest 3 s, 2 s at least (chunks reach the page within about 20 ms of their time: 1 %):
        // longer while a stall is not caught up yet, and past audio an engine lost once (voice-helpers.ts).
        const clock = () => watch.audioClock(rate * bytesPerSample);
        await until(() => clock().wall >= 2 && Math.abs(clock().rate - 1) <= 0.05, 'the audio sent keeps the microphone\'s clock', 15000).catch((e) => {
          throw new Error(`${e.message}: ${clock().rate} s of audio a second over ${clock().wall} s`);
        });
        // The speech: a whole utterance of the fake microphone (2.0 s; the first one heard may be cut by the start of
        // the call). Firefox's and WebKit's microphone is a real (PulseAudio) device through their own noise
        // suppression, which may split the utterance at its pauses (heard 0.2, 1.3, 1.0, 1.4 s in one run, 0.3, 0.4,
        // 0.2 in 15 s in another) or merge one with the next (3.2 s once): speech heard is the check there.
        if (engine === 'chromium') {
          await until(() => heardSeconds(el).some((s) => s >= 1.5 && s <= 2.5), 'the service heard a whole utterance at its length', 15000).catch((e) => {
            throw new Error(`${e.message}: heard ${heardSeconds(el)}; ${watch.chunks().length} chunks`);
          });
          expect(heardSeconds(el).every((s) => s <= 2.5), `heard ${heardSeconds(el)}`).to.equal(true);
        } else await until(() => heardSeconds(el).length > 0, 'the service heard speech', 15000);
        await endCall(el);
        await watch.closed();

        const chunks = watch.chunks();
        const sizes = new Set(chunks.map((c) => c.length));
        expect(chunks.length).to.be.above(50);
        for (const size of sizes) expect(size, `chunk bytes of ${format}`).to.be.within(rate * 0.02 * bytesPerSample, rate * 0.025 * bytesPerSample);
        // The socket's traffic in order (the level rings, set up while the call connects, are drawn empty before it).
        const kinds = watch.events.flatMap((e) => (e.kind === 'sent' ? [e.frame.type ?? 'chunk'] : e.kind === 'received' ? [e.frame.type] : []));
        expect(kinds[0]).to.equal('conversation_initiation_client_data');
        expect(kinds.indexOf('chunk'), 'first chunk after the metadata').to.be.above(kinds.indexOf('conversation_initiation_metadata'));
        // The service got every byte sent.
        const record = await closedRecord(id);
        expect(record.metadata.user_audio_bytes).to.equal(chunks.reduce((sum, c) => sum + c.length, 0));
        expect(record.has_user_audio).to.equal(true);
        expect(record.transcript.some((t) => t.role === 'user' && t.message.startsWith('(speech, '))).to.equal(true);
      });
    }
  });

  describe('hearing the agent', () => {
    for (const format of ['pcm_16000', 'ulaw_8000', 'pcm_44100']) {
      it(`plays the agent's ${format} audio: speaking_status while it plays, then listening_status`, async function () {
        this.timeout(20000);
        const { el } = await openCall(await createAgent({ output: format }));
        expect(watch.received('conversation_initiation_metadata')[0].conversation_initiation_metadata_event.agent_output_audio_format).to.equal(format);
        // Speaking: audio handed to the playback worklet, the level of what comes out above 0, the status says so.
        await until(() => statusText(el) === LABEL.speaking && agentLevel(el, watch) > 0, 'the agent is heard', 15000);
        expect(watch.events.some((e) => e.kind === 'played')).to.equal(true);
        await until(() => statusText(el) === LABEL.listening, 'listening once its audio is over', 15000);
        await endCall(el);
      });
    }

    it('shows each turn change in the status line and on the orb by themselves, with no render of the element (but for what waited to be drawn)', async function () {
      this.timeout(30000);
      const { el } = await openCall(await createAgent({ widget: { transcript_enabled: false } }));
      const proto = Object.getPrototypeOf(el) as { render(): unknown };
      let renders = 0;
      Object.defineProperty(el, 'render', { configurable: true, value: () => (renders++, proto.render.call(el)) });
      // Read right after the task that told the turn, before any render it could have asked for (a Lit update is a
      // microtask queued before this one). A turn to speaking also draws what waited to be drawn, when something did
      // (`drawPending`: a reply waiting for its voice, what the visitor said): that turn may come with that one render.
      let updates = 0;
      const requestUpdate = el.requestUpdate;
      Object.defineProperty(el, 'requestUpdate', { configurable: true, value: (...args: unknown[]) => (updates++, (requestUpdate as (...a: unknown[]) => void).apply(el, args)) });
      const drawPending = ConversationController.prototype.drawPending;
      let drew = false;
      ConversationController.prototype.drawPending = function (this: ConversationController) {
        const before = updates;
        drawPending.call(this);
        drew ||= updates > before;
      };
      const seen: { turn: string; shown: string; renders: number; mayDraw: boolean }[] = [];
      const onStatus = ({ detail }: CustomEvent<{ turn: string | null }>): void => {
        const before = renders;
        const turn = detail.turn;
        const mayDraw = drew;
        drew = false;
        if (turn) queueMicrotask(() => seen.push({ turn, shown: `${statusText(el)} / ${part(el, 'orb')?.dataset['turn']}`, renders: renders - before, mayDraw }));
      };
      el.addEventListener('voice-agent-status', onStatus as EventListener);
      const told = (): string => seen.map(({ turn, shown, renders: n, mayDraw }) => `${turn}: ${shown} / ${n} renders${mayDraw ? ' (with what waited)' : ''}`).join('; ');
      try {
        await until(() => seen.some((s) => s.turn === 'speaking') && seen.at(-1)!.turn === 'listening', 'the agent spoke and stopped', 20000)
          .catch((e) => Promise.reject(new Error(`${e.message}: ${told()}`)));
        const shown = { speaking: `${LABEL.speaking} / speaking`, listening: `${LABEL.listening} / listening` };
        expect(seen.filter((s) => s.shown !== shown[s.turn as keyof typeof shown]), `each turn shown at once (${told()})`).to.deep.equal([]);
        expect(seen.filter((s) => s.renders > (s.mayDraw ? 1 : 0)), `no render for a turn, one at most for what waited (${told()})`).to.deep.equal([]);
      } finally {
        el.removeEventListener('voice-agent-status', onStatus as EventListener);
        delete (el as { render?: unknown }).render;
        delete (el as { requestUpdate?: unknown }).requestUpdate;
        ConversationController.prototype.drawPending = drawPending;
      }
      await endCall(el);
    });
  });

  describe('a reply and its voice', () => {
    it('draws a reply to what the visitor said in the frame that shows the agent speaking it, or at VOICE_DRAW_MS without it (a reply streamed slower than STREAM_DRAW_MS shows as it streams)', async function () {
      this.timeout(40000);
      // The fake microphone speaks over the first message; the service hears it and replies, in words and voice.
      const { el } = await openCall('agent_minimal');
      // Each new agent bubble: when it first showed, what the status line said then (a MutationObserver callback comes
      // after the task's microtasks, Lit's update among them) and the event_id of the agent frame the page's session
      // got last (the bubble's), and each turn.
      const agentFrames = () => [...watch.deliveredAt('agent_chat_response_part'), ...watch.deliveredAt('agent_response')];
      const eventId = ({ frame }: { frame: Record<string, any> }): number => (frame.text_response_part ?? frame.agent_response_event).event_id;
      const shown: { status: string; at: number; eventId: number }[] = [];
      let agents = $$(el, '.message.agent').length;
      const observer = new MutationObserver(() => {
        const now = $$(el, '.message.agent').length;
        const last = agentFrames().sort((a, b) => a.at - b.at).at(-1);
        if (now > agents && last) shown.push({ status: statusText(el), at: performance.now(), eventId: eventId(last) });
        agents = now;
      });
      const speaking: number[] = [];
      const onStatus = ({ detail }: CustomEvent<{ turn: string | null }>): void => void (detail.turn === 'speaking' && speaking.push(performance.now()));
      el.addEventListener('voice-agent-status', onStatus as EventListener);
      observer.observe(el.shadowRoot!, { subtree: true, childList: true, characterData: true });
      /** When the page's session first got a frame of the reply `id` (its stream's start, or its agent_response). */
      const cameAt = (id: number): number => Math.min(...agentFrames().filter((f) => eventId(f) === id).map((f) => f.at));
      try {
        await until(() => shown.length > 0 && speaking.some((t) => t > cameAt(shown[0]!.eventId)), 'a reply drawn, then voiced', 30000).catch((e) => {
          throw new Error(`${e.message}: the service heard ${JSON.stringify(heardSeconds(el))} s; agent frames got at `
            + `${JSON.stringify(agentFrames().map((f) => [f.frame.type, eventId(f), Math.round(f.at)]))}, shown `
            + `${JSON.stringify(shown.map(({ status, at, eventId: id }) => [status, id, Math.round(at)]))}; `
            + `speaking at ${JSON.stringify(speaking.map(Math.round))}; ${watch.received('audio').length} agent audio chunks received`);
        });
        const reply = shown[0]!;
        const start = cameAt(reply.eventId);
        const response = watch.deliveredAt('agent_response').find((f) => eventId(f) === reply.eventId)?.at ?? Infinity;
        const voice = speaking.find((t) => t > start)!;
        const times = `its stream came at ${start.toFixed(0)}, its agent_response at ${response.toFixed(0)}, shown at `
          + `${reply.at.toFixed(0)} (${reply.status}), voiced at ${voice.toFixed(0)} ms`;
        if (response > reply.at) {
          // Its parts came slower than STREAM_DRAW_MS: it showed as it streamed (the voice follows its agent_response),
          // STREAM_DRAW_MS after the wait it joined began (its start, or what the visitor said just before it).
          const waitFrom = Math.min(start, ...watch.deliveredAt('user_transcript').map((f) => f.at).filter((t) => t <= start && t >= start - STREAM_DRAW_MS));
          expect(reply.status, times).to.equal(LABEL.listening);
          expect(reply.at - waitFrom, times).to.be.at.least(STREAM_DRAW_MS - 30);
          expect(voice, times).to.be.above(response);
        } else if (voice - response < VOICE_DRAW_MS - 30) {
          // Its voice came first: the reply showed with the turn, in the same task.
          expect(reply.status, times).to.equal(LABEL.speaking);
          expect(voice - reply.at, times).to.be.below(30);
        } else {
          // Its voice was late: the reply showed VOICE_DRAW_MS after its agent_response came, before the voice.
          expect(reply.status, times).to.equal(LABEL.listening);
          expect(reply.at - response, times).to.be.at.least(VOICE_DRAW_MS - 30);
        }
      } finally {
        observer.disconnect();
        el.removeEventListener('voice-agent-status', onStatus as EventListener);
      }
      await endCall(el);
    });
  });

  describe('interruption', () => {
    it('plays no audio at or below the interruption\'s event_id; the status leaves speaking; a later reply plays', async function () {
      // Chromium's fake microphone starts its speech with the call, over the first message. Firefox's and WebKit's is
      // a PulseAudio loop at any phase, which WebKit's capture (its noise suppression over a busy machine) sometimes
      // hears only in fragments for a while: they get longer to speak over a reply.
      const wait = engine === 'chromium' ? 15000 : 30000;
      this.timeout(wait + 20000);
      const { el, id } = await openCall('agent_minimal');
      // The fake microphone's speech starts over the agent: the service interrupts it.
      await until(() => watch.received('interruption').length > 0, 'an interruption', wait).catch((e) => {
        throw new Error(`${e.message}: the service heard ${JSON.stringify(heardSeconds(el))} s; ${watch.chunks().length} chunks sent; `
          + `${watch.received('audio').length} agent chunks received`);
      });
      // The worker's copy of a frame comes ahead of the frame it hands the page: wait for the page's session to have it.
      await until(() => watch.delivered('interruption').length > 0, 'the interruption handed to the page');
      const interrupted: number = watch.received('interruption')[0].interruption_event.event_id;
      expect(watch.received('audio').some((f) => f.audio_event.event_id === interrupted), 'its audio had come').to.equal(true);
      await until(() => statusText(el) === LABEL.listening, 'listening after the interruption');
      expect(watch.received('audio').every((f) => f.audio_event.event_id <= interrupted), 'no later reply yet').to.equal(true);

      // A chunk of the interrupted turn still in flight (a real service may send one) is not played.
      const before = watch.events.length;
      watch.inject({ type: 'audio', audio_event: { audio_base_64: TONE_BASE64, event_id: interrupted } });
      expect(watch.events.slice(before).filter((e) => e.kind === 'played')).to.deep.equal([]);
      await el.updateComplete;
      expect(statusText(el)).to.equal(LABEL.listening);

      // The reply to the visitor's speech has a later event_id and plays.
      await until(() => watch.events.some((e) => e.kind === 'played' && e.eventId! > interrupted), 'a later reply played', 20000);
      await until(() => statusText(el) === LABEL.speaking, 'speaking again', 10000);
      const record = await conversationRecord(id);
      // The interrupted turn: the first one in Chromium, whose fake microphone starts its file with the call; a later
      // one may be where the looping PulseAudio microphone (Firefox) happens to speak.
      expect(record.transcript.some((t) => t.role === 'agent' && t.interrupted), 'the service recorded the interruption').to.equal(true);
    });

    it('replaces the shown text with agent_response_correction (injected: the reference service never sends one)', async () => {
      const { el } = await openCall('agent_minimal');
      await until(() => $$(el, '.message.agent:not(.greeting)').some((m) => m.textContent!.includes('How can I help you today?')), "the service's first message");
      const { agent_response: original, event_id } = watch.received('agent_response')[0].agent_response_event;
      watch.inject({
        type: 'agent_response_correction',
        agent_response_correction_event: { original_agent_response: original, corrected_agent_response: 'Hello!', event_id },
      });
      await el.updateComplete;
      expect($$(el, '.message.agent').map((m) => m.textContent!.trim())).to.deep.equal(['Hello!']);
    });
  });

  describe('status', () => {
    it('says connecting_status while the call starts (the microphone asked, no socket yet), then listening', async () => {
      const { el, grant } = await callAtThePrompt(watch);
      expect(watch.sockets).to.deep.equal([]);
      grant();
      await until(() => live(el), 'listening or speaking', 10000);
    });

    it('with show_agent_status false: the status is visually hidden but still in the role=status region (announced)', async () => {
      const { el } = await openCall(await createAgent({ widget: { show_agent_status: false } }));
      const region = $(el, '[role="status"]')!;
      expect(region.getAttribute('aria-live')).to.equal('polite');
      expect([LABEL.listening, LABEL.speaking]).to.include(region.textContent!.trim());
      const text = region.querySelector('span')!;
      expect(text.getBoundingClientRect().width).to.be.at.most(1);
      expect(getComputedStyle(text).clipPath).to.equal('inset(50%)');
    });

    it('with show_agent_status true: the status is shown', async () => {
      const { el } = await openCall(await createAgent({ widget: { show_agent_status: true } }));
      const text = $(el, '[role="status"] span')!;
      expect([LABEL.listening, LABEL.speaking]).to.include(text.textContent!.trim());
      expect(text.getBoundingClientRect().width).to.be.above(10);
      expect(getComputedStyle(text).clipPath).to.equal('none');
    });
  });
});

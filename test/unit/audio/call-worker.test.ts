/**
 * The call worker (src/audio/call-worker.ts) through its page side (call-thread.ts), in a real Worker: the level rings
 * it draws, and what of the service's traffic it hands the page. Its part in whole calls: test/integration/voice*.ts.
 */
import { expect } from '@open-wc/testing';
import { CallWorker } from '../../../src/audio/call-thread.js';
import { conversationSocketUrl } from '../../../src/client/paths.js';
import { ConversationSession } from '../../../src/client/session.js';
import { meterRms, until } from '../../helpers.js';
import { serviceUrl } from '../../widget-helpers.js';
import { watchCall, type CallWatch } from '../../integration/voice-helpers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('CallWorker', () => {
  let watch: CallWatch;
  let worker: CallWorker | null;
  beforeEach(async () => {
    watch = watchCall();
    worker = await CallWorker.start();
  });
  afterEach(() => {
    worker?.close();
    watch.restore();
  });

  /** The two audio ports as the worklets would hold them: the capture side posts chunks, the playback side levels. */
  const attach = (w: CallWorker) => {
    const capture = new MessageChannel();
    const playback = new MessageChannel();
    w.attachAudio(capture.port2, playback.port2, 16000, 48000, false);
    return { capture: capture.port1, playback: playback.port1 };
  };

  it('draws the levels as a ring around an element, on the meter\'s scale, rising at once and falling back, when its edge moves by a device pixel, 10 times a second at most; nothing while hidden or still', async function () {
    this.timeout(10000);
    expect(worker, 'a worker runs on a page without a CSP').to.be.instanceOf(CallWorker);
    const element = Object.assign(document.createElement('span'), { style: 'display: block; position: relative; width: 40px; height: 40px' });
    document.body.append(element);
    try {
      const canvas = worker!.showLevels(element, 'rgb(0, 0, 255)', 40)!;
      expect(canvas.parentElement).to.equal(element);
      expect(canvas.width, 'device pixels, 1.35 times the element').to.equal(Math.ceil(40 * 1.35 * (devicePixelRatio || 1)));
      const { capture, playback } = attach(worker!);
      const draws = () => watch.events.flatMap((e) => (e.kind === 'drawn' ? [e] : []));
      const drawn = () => draws().map((e) => e.levels);
      const chunk = (rms: number) => capture.postMessage({ pcm: new Int16Array(320), level: rms });
      /** Chunks of `rms` every 20 ms for `ms`, as the capture worklet posts them. */
      const chunks = async (rms: number, ms: number) => {
        for (let t = 0; t < ms; t += 20) {
          chunk(rms);
          await sleep(20);
        }
      };
      // The ring's edge is at inner × (1 + 0.35 × level), inner = width / 2 / 1.35 device pixels.
      const pixel = 1 / (0.35 * (canvas.width / 2 / 1.35));
      await until(() => drawn().length === 1, 'the first ring (level 0)');
      expect(drawn()[0]).to.deep.equal([0, 0]);

      // A level rises at once to its place on the meter's scale (-30 dBFS is 0.5), then falls back from there.
      const sentAt = performance.now();
      chunk(meterRms(0.5));
      await until(() => drawn().length === 2, 'the microphone level drawn');
      const [{ levels: [mic, agent], at }] = draws().slice(1);
      expect(agent).to.equal(0);
      expect(mic, `drawn ${(at - sentAt).toFixed(0)} ms after the chunk`).to.be.within(0.5 * Math.exp(-(at - sentAt) / 150) - 0.01, 0.5);

      // A steady level (a chunk every 20 ms, each one lifting the meter back to 0.5) is not drawn again, unless a draw
      // came so late after a chunk (a busy machine) that it caught the meter a pixel or more below the level.
      await chunks(meterRms(0.5), 300);
      const steady = draws().length;
      await chunks(meterRms(0.5), 400);
      const redraws = draws().slice(steady);
      for (const redraw of redraws) {
        const before = draws()[draws().indexOf(redraw) - 1]!;
        expect(before.levels[0], `a steady level redrawn (a pixel is ${pixel.toFixed(3)} of the scale)`).to.be.below(0.5 - pixel + 0.01);
      }

      playback.postMessage({ level: meterRms(0.9) });
      await until(() => drawn().at(-1)![1] > 0, "the agent's level drawn");
      expect(drawn().at(-1)![1], "the agent's, the larger").to.be.within(0.8, 0.9);
      // The ring is on the canvas: its pixels, read back through the placeholder.
      await until(() => {
        const copy = Object.assign(document.createElement('canvas'), { width: canvas.width, height: canvas.height });
        const context = copy.getContext('2d')!;
        context.drawImage(canvas, 0, 0);
        const { data } = context.getImageData(0, 0, copy.width, copy.height);
        return data.some((value, i) => i % 4 === 3 && value > 0);
      }, 'ring pixels on the canvas');

      // Silence: the ring falls back over a few draws, to within a pixel of none.
      const beforeFall = draws().length;
      await chunks(0, 1000);
      const fall = draws().slice(beforeFall);
      expect(fall.length, `draws of the fall: ${fall.map((e) => Math.max(...e.levels).toFixed(2))}`).to.be.at.least(3);
      for (let i = 1; i < fall.length; i++) expect(Math.max(...fall[i]!.levels)).to.be.below(Math.max(...fall[i - 1]!.levels));
      expect(Math.max(...fall.at(-1)!.levels)).to.be.below(Math.max(2 * pixel, 0.1));

      worker!.view(false, false);
      await chunks(meterRms(0.8), 200);
      expect(drawn().length, 'nothing drawn while the page is hidden').to.equal(beforeFall + fall.length);
      worker!.view(true, true);
      await chunks(meterRms(0.8), 200);
      expect(drawn().length, 'nothing drawn under reduced motion').to.equal(beforeFall + fall.length);
      worker!.view(true, false);
      chunk(meterRms(0.8));
      await until(() => drawn().length === beforeFall + fall.length + 1, 'drawn again once shown and moving');
      expect(drawn().at(-1)![0]).to.be.within(0.6, 0.8);

      // A level that rises and falls all the time (100 ms of -10 dBFS, 100 ms of silence) is drawn 10 times a second at most.
      const before = draws().length;
      const startedAt = performance.now();
      for (let i = 0; i < 6; i++) {
        await chunks(meterRms(1), 100);
        await chunks(0, 100);
      }
      const elapsed = performance.now() - startedAt;
      const times = draws().slice(before).map((e) => e.at);
      expect(times.length, `draws in ${elapsed.toFixed(0)} ms of a moving level: ${times.length}`).to.be.within(5, Math.floor(elapsed / 100) + 1);
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      expect(Math.min(...gaps), `gaps between draws (ms): ${gaps.map((g) => g.toFixed(0))}`).to.be.at.least(95);
    } finally {
      element.remove();
    }
  });

  it('hands the page a burst of frames (a streamed reply) in one message, in order; a frame after a quiet spell soon', async function () {
    this.timeout(15000);
    const session = new ConversationSession({ url: conversationSocketUrl(serviceUrl, 'agent_text_only'), WebSocket: worker!.WebSocket });
    const types: string[] = [];
    session.addEventListener('agent_chat_response_part', (e) => types.push(`part:${e.detail.text_response_part.type}`));
    session.addEventListener('agent_response', () => types.push('agent_response'));
    // What the worker posts the page, as it posts it.
    const batches: string[][] = [];
    watch.workers[0]!.addEventListener('message', ({ data }: MessageEvent) => {
      if ('frames' in data) batches.push(data.frames.map((f: string) => JSON.parse(f).type));
    });
    await session.start();
    await sleep(200);
    const before = batches.length;
    const received = watch.events.length;
    types.length = 0;
    session.sendUserMessage('Tell me about your opening hours.');
    await until(() => types.includes('agent_response'), 'the reply');
    expect(types.slice(0, 2), 'a streamed reply').to.deep.equal(['part:start', 'part:delta']);
    const reply = batches.slice(before).flat();
    const onSocket = watch.events.slice(received).filter((e) => e.kind === 'received').map((e) => e.kind === 'received' && e.frame.type);
    expect(reply, 'every frame handed on, in order').to.deep.equal(onSocket);
    expect(types.slice(-1)).to.deep.equal(['agent_response']);
    expect(batches.length - before, `${reply.length} frames in ${batches.length - before} messages`).to.be.below(reply.length);
    // The first frame after a quiet spell waits only for the frames sent with it (BURST_MS, 8 ms), not for the
    // 100 ms that gather the rest: the reply's first message holds those received within 50 ms of its first.
    const times = watch.events.slice(received).flatMap((e) => (e.kind === 'received' ? [e.at] : []));
    const first = batches[before]!.length;
    expect(times[first - 1]! - times[0]!, `the first message's ${first} frames came within (ms)`).to.be.below(50);
    expect(first, 'the rest waited').to.be.below(reply.length);
    session.end();
    await watch.closed();
  });

  it("hands the page a conversation's first frames, its metadata and the agent's first message, in one message", async function () {
    this.timeout(15000);
    // agent_minimal greets the caller: the service sends its metadata, then at once the first message.
    const session = new ConversationSession({ url: conversationSocketUrl(serviceUrl, 'agent_minimal'), WebSocket: worker!.WebSocket });
    const batches: string[][] = [];
    watch.workers[0]!.addEventListener('message', ({ data }: MessageEvent) => {
      if ('frames' in data) batches.push(data.frames.map((f: string) => JSON.parse(f).type));
    });
    let greeted = false;
    session.addEventListener('agent_response', () => (greeted = true));
    await session.start();
    await until(() => greeted, 'the first message');
    // One task and one render on the page as the call starts, not the metadata alone and the greeting 100 ms later.
    expect(batches[0]!.slice(0, 2), `the first messages: ${JSON.stringify(batches)}`).to.deep.equal(['conversation_initiation_metadata', 'agent_response']);
    session.end();
    await watch.closed();
  });

  it("keeps the agent's audio that comes before the audio ports and plays it once they come; the page gets none of its bytes", async function () {
    this.timeout(15000);
    // agent_minimal greets the caller: its first message is spoken as soon as the conversation starts.
    const session = new ConversationSession({ url: conversationSocketUrl(serviceUrl, 'agent_minimal'), WebSocket: worker!.WebSocket });
    // The audio events the worker hands the page, as it posts them.
    const onPage: string[] = [];
    watch.workers[0]!.addEventListener('message', ({ data }: MessageEvent) => {
      for (const frame of 'frames' in data ? data.frames : []) if (JSON.parse(frame).type === 'audio') onPage.push(JSON.parse(frame).audio_event.audio_base_64);
    });
    const played = () => watch.events.flatMap((e) => (e.kind === 'played' ? [e.eventId] : []));
    await session.start();
    await until(() => watch.received('audio').length > 0, "the first message's audio at the worker");
    await sleep(300);
    const early = watch.received('audio').map((frame) => frame.audio_event.event_id as number);
    expect(played(), 'nothing played before the audio ports').to.deep.equal([]);
    expect(onPage.filter((base64) => base64 !== ''), 'no audio bytes handed to the page').to.deep.equal([]);
    attach(worker!);
    await until(() => played().length >= early.length, 'what came early played once the ports came');
    expect(played().slice(0, early.length), 'in order, each once').to.deep.equal(early);
    session.end();
    await watch.closed();
  });

  it('carries a conversation for a session, and hands it vad_score messages at most once in 2 s once the audio is attached', async function () {
    this.timeout(15000);
    const session = new ConversationSession({ url: conversationSocketUrl(serviceUrl, 'agent_minimal'), WebSocket: worker!.WebSocket });
    const scores: number[] = [];
    session.addEventListener('vad_score', () => scores.push(performance.now()));
    await session.start();
    expect(session.conversationId).to.be.a('string');
    expect(watch.sockets).to.deep.equal(watch.workers);
    const { capture } = attach(worker!);
    // 2.2 s of loud chunks: the service scores its voice activity 10 times a second.
    const loud = Int16Array.from({ length: 320 }, (_, i) => (i % 16 < 8 ? 12000 : -12000));
    for (let i = 0; i < 110; i++) {
      capture.postMessage({ pcm: loud.slice(), level: 0.4 });
      await sleep(20);
    }
    const received = watch.received('vad_score').length;
    expect(received, 'the service scored the audio').to.be.at.least(15);
    expect(scores.length, `${scores.length} of ${received} handed to the page`).to.be.within(1, 2);
    for (let i = 1; i < scores.length; i++) expect(scores[i] - scores[i - 1], '2 s apart, give or take the delivery to the page').to.be.at.least(1900);
    session.end();
    await watch.closed();
  });
});

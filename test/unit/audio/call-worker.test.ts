/**
 * The call worker (src/audio/call-worker.ts) through its page side (call-thread.ts), in a real Worker: the level rings
 * it draws, and what of the service's traffic it hands the page. Its part in whole calls: test/integration/voice*.ts.
 */
import { expect } from '@open-wc/testing';
import { CallWorker } from '../../../src/audio/call-thread.js';
import { conversationSocketUrl } from '../../../src/client/paths.js';
import { ConversationSession } from '../../../src/client/session.js';
import { until } from '../../helpers.js';
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

  it("draws the levels as a ring around an element, only when its edge moves by half a device pixel; nothing while hidden or still", async () => {
    expect(worker, 'a worker runs on a page without a CSP').to.be.instanceOf(CallWorker);
    const element = Object.assign(document.createElement('span'), { style: 'display: block; position: relative; width: 40px; height: 40px' });
    document.body.append(element);
    try {
      const canvas = worker!.showLevels(element, 'rgb(0, 0, 255)', 40)!;
      expect(canvas.parentElement).to.equal(element);
      expect(canvas.width, 'device pixels, 1.35 times the element').to.equal(Math.ceil(40 * 1.35 * (devicePixelRatio || 1)));
      const { capture, playback } = attach(worker!);
      const drawn = () => watch.events.flatMap((e) => (e.kind === 'drawn' ? [e.levels] : []));
      const chunk = (level: number) => capture.postMessage({ pcm: new Int16Array(320), level });
      await until(() => drawn().length === 1, 'the first ring (level 0)');
      chunk(0.5);
      await until(() => drawn().length === 2, 'the microphone level drawn');
      expect(drawn()[1]).to.deep.equal([0.5, 0]);
      // The ring's edge is at inner × (1 + 0.35 × level), inner = width / 2 / 1.35 device pixels.
      const halfPixel = 0.5 / (0.35 * (canvas.width / 2 / 1.35));
      const under = 0.5 + 0.8 * halfPixel;
      chunk(under);
      await sleep(150);
      expect(drawn(), 'a change that moves the edge by less than half a pixel is not drawn').to.have.length(2);
      playback.postMessage({ level: 0.5 + 1.2 * halfPixel });
      await until(() => drawn().length === 3, "the agent's level drawn");
      expect(drawn()[2]).to.deep.equal([under, 0.5 + 1.2 * halfPixel]);
      // The ring is on the canvas: its pixels, read back through the placeholder.
      await until(() => {
        const copy = Object.assign(document.createElement('canvas'), { width: canvas.width, height: canvas.height });
        const context = copy.getContext('2d')!;
        context.drawImage(canvas, 0, 0);
        const { data } = context.getImageData(0, 0, copy.width, copy.height);
        return data.some((value, i) => i % 4 === 3 && value > 0);
      }, 'ring pixels on the canvas');

      worker!.view(false, false);
      chunk(0.1);
      await sleep(150);
      expect(drawn(), 'nothing drawn while the page is hidden').to.have.length(3);
      worker!.view(true, true);
      chunk(0.3);
      await sleep(150);
      expect(drawn(), 'nothing drawn under reduced motion').to.have.length(3);
      worker!.view(true, false);
      await until(() => drawn().length === 4, 'drawn again once shown and moving');
      expect(drawn()[3]).to.deep.equal([0.3, 0.5 + 1.2 * halfPixel]);

      // A level that moves at every chunk (50 a second) is drawn 20 times a second at most.
      const draws = () => watch.events.flatMap((e) => (e.kind === 'drawn' ? [e.at] : []));
      const before = draws().length;
      for (let i = 0; i < 25; i++) {
        chunk(i % 2 ? 0.9 : 0.1);
        await sleep(20);
      }
      await sleep(100);
      const times = draws().slice(before);
      expect(times.length, `draws in 0.6 s of a moving level: ${times.length}`).to.be.within(6, 14);
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      expect(Math.min(...gaps), `gaps between draws (ms): ${gaps.map((g) => g.toFixed(0))}`).to.be.at.least(45);
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

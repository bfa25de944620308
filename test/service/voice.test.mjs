// Tests of the reference service's voice: speech synthesis and audio helpers (demo/service/speech.mjs), the energy
// VAD (demo/service/vad.mjs) and the voice conversation over a real socket: agent audio in each output format,
// listening (vad_score, user_transcript, reply) and interruption. Run: node --test test/service/
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { AUDIO_CHUNK_MS, startService } from '../../demo/service/service.mjs';
import { speechTranscript, voiceReply } from '../../demo/service/script.mjs';
import {
  chunk, decodeAudio, decodePcm16, decodeUlaw, encodeAudio, encodePcm16, encodeUlaw, parseAudioFormat, resample, rms,
  synthesize, toPlainText,
} from '../../demo/service/speech.mjs';
import { VAD, createVad } from '../../demo/service/vad.mjs';

const UTTERANCE = 'Hello! How can I help?';

/** @type {Awaited<ReturnType<typeof startService>>} fast: audio chunks all at once */
let fast;
/** @type {Awaited<ReturnType<typeof startService>>} audio at real time */
let realtime;

before(async () => {
  [fast, realtime] = await Promise.all([
    startService({ port: 0, log: () => {}, replyDelayMs: 1, pingIntervalMs: 60000, audioRealtime: false }),
    startService({ port: 0, log: () => {}, replyDelayMs: 1, pingIntervalMs: 60000 }),
  ]);
});

after(async () => {
  await Promise.all([fast?.close(), realtime?.close()]);
});

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {Awaited<ReturnType<typeof startService>>} running @param {string} path @param {string} method @param {unknown} [body] */
async function api(running, path, method = 'GET', body = undefined) {
  const response = await fetch(running.url + path, {
    method,
    headers: { 'x-api-key': running.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.equal(response.status, 200, `${method} ${path}`);
  return response.json();
}

/** A conversation socket that keeps every message and can wait for one. */
class Client {
  /** @param {Awaited<ReturnType<typeof startService>>} running @param {string} agentId */
  constructor(running, agentId) {
    this.running = running;
    this.ws = new WebSocket(`${running.url.replace(/^http:/, 'ws:')}/v1/voiceai/conversation?agent_id=${agentId}`);
    /** @type {any[]} */
    this.messages = [];
    /** @type {(() => void)[]} */
    this.listeners = [];
    this.conversationId = '';
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', resolve);
      this.ws.once('error', reject);
    });
    this.closed = new Promise((resolve) => this.ws.on('close', (code) => resolve(code)));
    this.ws.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()));
      for (const listener of [...this.listeners]) listener();
    });
  }

  /** @param {unknown} message */
  send(message) {
    this.ws.send(JSON.stringify(message));
  }

  /**
   * The first message from index `from` on that matches; waits for it (at most 3 s).
   * @param {(m: any) => boolean} predicate @param {number} [from]
   * @returns {Promise<any>}
   */
  next(predicate, from = 0) {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.messages.slice(from).find(predicate);
        if (!found) return false;
        this.listeners.splice(this.listeners.indexOf(check), 1);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        this.listeners.splice(this.listeners.indexOf(check), 1);
        reject(new Error(`no matching message; got ${this.messages.map((m) => m.type).join(', ')}`));
      }, 3000);
      this.listeners.push(check);
      check();
    });
  }

  /** @param {Record<string, unknown>} [initiation] */
  async start(initiation = {}) {
    await this.opened;
    this.send({ type: 'conversation_initiation_client_data', ...initiation });
    const metadata = await this.next((m) => m.type === 'conversation_initiation_metadata');
    this.conversationId = metadata.conversation_initiation_metadata_event.conversation_id;
    return metadata.conversation_initiation_metadata_event;
  }

  /** Sends audio as user_audio_chunks of `bytesPerChunk` bytes. @param {Buffer} bytes @param {number} bytesPerChunk */
  sendAudio(bytes, bytesPerChunk) {
    for (const piece of chunk(bytes, bytesPerChunk)) this.send({ user_audio_chunk: piece.toString('base64') });
  }

  /** @param {number} eventId */
  audioOf(eventId) {
    return this.messages.filter((m) => m.type === 'audio' && m.audio_event.event_id === eventId);
  }

  record() {
    return api(this.running, `/v1/voiceai/conversations/${this.conversationId}`);
  }

  close() {
    this.ws.close(1000);
    return this.closed;
  }
}

/** Pearson correlation of two sample arrays (over the shorter length). @param {Int16Array} a @param {Int16Array} b */
function correlation(a, b) {
  const n = Math.min(a.length, b.length);
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i];
    mb += b[i];
  }
  ma /= n;
  mb /= n;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    ab += (a[i] - ma) * (b[i] - mb);
    aa += (a[i] - ma) ** 2;
    bb += (b[i] - mb) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

/** Seconds from the first to the end of the last 20 ms frame above -40 dBFS. @param {Int16Array} samples @param {number} rate */
function speechSpan(samples, rate) {
  const frame = rate / 50;
  let first = -1;
  let last = -1;
  for (let i = 0; i + frame <= samples.length; i += frame) {
    if (rms(samples, i, i + frame) > 0.01) {
      if (first < 0) first = i;
      last = i + frame;
    }
  }
  return (last - first) / rate;
}

/** @param {number} seconds @param {number} rate */
const silence = (seconds, rate) => new Int16Array(Math.round(seconds * rate));

/** @param {Int16Array[]} parts */
function concat(...parts) {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

describe('speech', () => {
  test('synthesises non-silent PCM of plausible duration, cached by text; markdown is read as plain text', async () => {
    const started = performance.now();
    const speech = await synthesize(UTTERANCE);
    const firstMs = performance.now() - started;
    assert.equal(speech.sampleRate, 22050);
    assert.ok(speech.samples instanceof Int16Array);
    const seconds = speech.samples.length / speech.sampleRate;
    assert.ok(seconds > 1.0 && seconds < 3.5, `duration ${seconds} s`);
    assert.ok(rms(speech.samples) > 0.02, `rms ${rms(speech.samples)}`);
    assert.ok(speechSpan(speech.samples, speech.sampleRate) > 1.0);
    assert.ok(firstMs < 3000, `first synthesis took ${firstMs} ms`);
    assert.equal(await synthesize(UTTERANCE), speech, 'cached');

    assert.equal(
      toPlainText('### Title\n\n- a **bold** point\n- see [docs](https://x.example/a_(b)) and `code`\n\n```js\nconst x = 1;\n```\n<script>alert(1)</script>snake_case _it_'),
      'Title. a bold point. see docs and code. snake_case it.',
    );
    const markdown = await synthesize('**Hello!** How can I [help](https://x.example)?');
    assert.equal(markdown.samples.length, speech.samples.length, 'the same speech as the plain text');
    assert.equal((await synthesize('```\ncode only\n```')).samples.length, 0);
  });

  test('resample, PCM and μ-law round trips, chunking', () => {
    const sine = new Int16Array(16000);
    for (let i = 0; i < sine.length; i++) sine[i] = Math.round(12000 * Math.sin((2 * Math.PI * 440 * i) / 16000));
    const up = resample(sine, 16000, 44100);
    assert.equal(up.length, 44100);
    const back = resample(up, 44100, 16000);
    assert.equal(back.length, 16000);
    let worst = 0;
    for (let i = 0; i < sine.length - 2; i++) worst = Math.max(worst, Math.abs(back[i] - sine[i]));
    assert.ok(worst < 120, `resample round trip error ${worst}`);
    assert.equal(resample(sine, 22050, 8000).length, Math.round((16000 * 8000) / 22050));

    assert.deepEqual(decodePcm16(encodePcm16(sine)), sine);
    assert.equal(encodePcm16(Int16Array.of(-2)).toString('hex'), 'feff');

    assert.deepEqual([...encodeUlaw(Int16Array.of(0, 32767, -32768))], [0xff, 0x80, 0x00]);
    assert.deepEqual([...decodeUlaw(Uint8Array.of(0xff, 0x7f, 0x80, 0x00))], [0, 0, 32124, -32124]);
    const ramp = new Int16Array(65536);
    for (let i = 0; i < ramp.length; i++) ramp[i] = i - 32768;
    const decoded = decodeUlaw(encodeUlaw(ramp));
    for (let i = 0; i < ramp.length; i++) {
      const x = Math.max(-32635, Math.min(32635, ramp[i]));
      assert.ok(Math.abs(decoded[i] - x) <= Math.max(8, Math.abs(x) / 16), `μ-law ${ramp[i]} → ${decoded[i]}`);
    }
    assert.ok(correlation(decodeUlaw(encodeUlaw(sine)), sine) > 0.999);

    assert.deepEqual(parseAudioFormat('ulaw_8000'), { encoding: 'ulaw', sampleRate: 8000, bytesPerSample: 1 });
    assert.deepEqual(parseAudioFormat('pcm_44100'), { encoding: 'pcm', sampleRate: 44100, bytesPerSample: 2 });
    const pieces = chunk(Buffer.alloc(1000), 320);
    assert.deepEqual(pieces.map((p) => p.length), [320, 320, 320, 40]);
  });

  test('the energy VAD: a 1 s tone between silences is one stretch of speech; scores rise and fall', () => {
    const tone = new Int16Array(16000);
    for (let i = 0; i < tone.length; i++) tone[i] = Math.round(6000 * Math.sin((2 * Math.PI * 220 * i) / 16000));
    const vad = createVad(16000);
    /** @type {import('../../demo/service/vad.mjs').VadEvent[]} */
    const events = [];
    const audio = concat(silence(0.5, 16000), tone, silence(1, 16000));
    for (let i = 0; i < audio.length; i += 333) events.push(...vad.push(audio.subarray(i, i + 333))); // odd chunk sizes
    const marks = events.filter((e) => e.type !== 'score');
    assert.deepEqual(marks, [
      { type: 'start', timeMs: 500 + VAD.startMs },
      { type: 'end', startMs: 500, endMs: 1500, durationMs: 1000 },
    ]);
    const scores = /** @type {{score: number, timeMs: number}[]} */ (events.filter((e) => e.type === 'score'));
    assert.deepEqual(scores.slice(0, 3).map((s) => s.timeMs), [100, 200, 300]);
    assert.ok(scores.filter((s) => s.timeMs > 600 && s.timeMs <= 1500).every((s) => s.score > 0.9));
    assert.ok(scores.filter((s) => s.timeMs <= 500 || s.timeMs > 2000).every((s) => s.score < 0.05));
  });
});

describe('voice conversation', () => {
  test('agent audio in the agent output format (pcm_16000, ulaw_8000, pcm_44100), 100 ms chunks with the turn event_id', async () => {
    const { agent_id: agentId } = await api(fast, '/v1/convai/agents/create', 'POST', {
      name: 'voice formats', conversation_config: { agent: { first_message: UTTERANCE } },
    });
    const speech = await synthesize(UTTERANCE);
    for (const format of ['pcm_16000', 'ulaw_8000', 'pcm_44100']) {
      await api(fast, `/v1/convai/agents/${agentId}`, 'PATCH', { conversation_config: { tts: { agent_output_audio_format: format } } });
      const client = new Client(fast, agentId);
      const metadata = await client.start();
      assert.equal(metadata.agent_output_audio_format, format);
      const firstAudio = await client.next((m) => m.type === 'audio');
      assert.equal(firstAudio.audio_event.event_id, 1);
      const textIndex = client.messages.findIndex((m) => m.type === 'agent_response');
      assert.ok(textIndex >= 0 && textIndex < client.messages.indexOf(firstAudio), 'the text comes before the audio');
      // Everything the service sends after this message was sent after the whole turn's audio.
      const from = client.messages.length;
      client.send({ type: 'user_message', text: 'hi' });
      const { audio_event: reply } = await client.next((m) => m.type === 'audio' && m.audio_event.event_id === 2, from);
      assert.equal(Object.keys(reply).sort().join(), 'audio_base_64,event_id');

      const { sampleRate, bytesPerSample } = parseAudioFormat(format);
      const chunks = client.audioOf(1).map((m) => Buffer.from(m.audio_event.audio_base_64, 'base64'));
      const perChunk = (sampleRate * AUDIO_CHUNK_MS) / 1000 * bytesPerSample;
      assert.ok(chunks.slice(0, -1).every((c) => c.length === perChunk), `${format}: ${perChunk} bytes per chunk`);
      const decoded = decodeAudio(Buffer.concat(chunks), format);
      assert.equal(decoded.sampleRate, sampleRate);
      const expected = resample(speech.samples, speech.sampleRate, sampleRate);
      assert.equal(decoded.samples.length, expected.length, `${format}: the utterance's length at ${sampleRate} Hz`);
      assert.equal(chunks.length, Math.ceil(expected.length / (perChunk / bytesPerSample)));
      assert.ok(rms(decoded.samples) > 0.02, `${format}: not silent`);
      assert.ok(correlation(decoded.samples, expected) > 0.99, `${format}: the synthesised utterance`);
      if (format.startsWith('pcm')) assert.deepEqual(Buffer.concat(chunks), encodeAudio(speech, format));

      const data = await client.record();
      assert.equal(data.has_response_audio, true);
      assert.equal(data.has_audio, true);
      assert.equal(data.has_user_audio, false);
      await client.close();
    }
  });

  test('text-only conversations get no audio and are not listened to', async () => {
    const textOnlyAgent = new Client(fast, 'agent_text_only');
    await textOnlyAgent.start();
    await textOnlyAgent.next((m) => m.type === 'agent_response');
    const override = new Client(fast, 'agent_minimal');
    await override.start({ conversation_config_override: { conversation: { text_only: true } } });
    await override.next((m) => m.type === 'agent_response');
    for (const client of [textOnlyAgent, override]) {
      const loud = encodePcm16(resample((await synthesize(UTTERANCE)).samples, 22050, 16000));
      client.sendAudio(Buffer.concat([loud, Buffer.alloc(32000)]), 640);
      client.send({ type: 'user_message', text: 'hi' });
      await client.next((m) => m.type === 'agent_response' && m.agent_response_event.event_id === 2);
      await sleep(50);
      assert.deepEqual(client.messages.filter((m) => ['audio', 'vad_score', 'user_transcript', 'interruption'].includes(m.type)), []);
      const data = await client.record();
      assert.equal(data.has_response_audio, false);
      assert.equal(data.has_user_audio, true);
      await client.close();
    }
  });

  test('listens: vad_score during speech and silence, one user_transcript with the duration, a spoken reply', async () => {
    const speech = await synthesize(UTTERANCE);
    const utterance = resample(speech.samples, speech.sampleRate, 16000);
    const span = speechSpan(utterance, 16000);
    const lead = 0.5;
    const client = new Client(fast, 'agent_minimal');
    const metadata = await client.start({ conversation_config_override: { agent: { first_message: '' } } });
    assert.equal(metadata.user_input_audio_format, 'pcm_16000');
    const audio = concat(silence(lead, 16000), utterance, silence(1.2, 16000));
    client.sendAudio(encodePcm16(audio), 640); // 20 ms chunks at 16 kHz

    const transcript = await client.next((m) => m.type === 'user_transcript');
    const text = transcript.user_transcription_event.user_transcript;
    const match = /^\(speech, (\d+\.\d) s\)$/.exec(text);
    assert.ok(match, text);
    const heard = Number(match[1]);
    assert.ok(Math.abs(heard - span) <= 0.3, `heard ${heard} s, spoke ${span.toFixed(2)} s`);
    assert.equal(text, speechTranscript(heard));
    const eventId = transcript.user_transcription_event.event_id;
    assert.ok(Number.isInteger(eventId) && eventId >= 1);

    const answer = await client.next((m) => m.type === 'agent_response');
    assert.equal(answer.agent_response_event.agent_response, voiceReply(heard));
    assert.ok(answer.agent_response_event.event_id > eventId);
    await client.next((m) => m.type === 'audio' && m.audio_event.event_id === answer.agent_response_event.event_id);

    // The k-th vad_score covers the audio up to (k + 1) * 100 ms.
    const scores = client.messages.filter((m) => m.type === 'vad_score').map((m) => m.vad_score_event.vad_score);
    assert.equal(scores.length, Math.floor(audio.length / 1600));
    assert.ok(scores.every((s) => typeof s === 'number' && s >= 0 && s <= 1));
    const at = (/** @type {number} */ from, /** @type {number} */ to) => scores.filter((_s, k) => (k + 1) / 10 > from && (k + 1) / 10 <= to);
    const during = at(lead + 0.1, lead + span);
    assert.ok(Math.max(...during) > 0.5, `during speech: ${during}`);
    assert.ok(during.filter((s) => s > 0.5).length >= during.length / 2, `during speech: ${during}`);
    assert.ok(at(0, lead).every((s) => s < 0.2), `before: ${at(0, lead)}`);
    const tail = at(lead + span + 0.6, 99);
    assert.ok(tail.length >= 4 && tail.every((s) => s < 0.2), `after: ${tail}`);
    assert.equal(client.messages.filter((m) => m.type === 'user_transcript').length, 1);
    assert.equal(client.messages.filter((m) => m.type === 'interruption').length, 0);

    const data = await client.record();
    assert.deepEqual(data.transcript.map((/** @type {any} */ t) => [t.role, t.message, t.interrupted]), [
      ['user', text, false],
      ['agent', voiceReply(heard), false],
    ]);
    assert.equal(data.has_user_audio, true);
    assert.equal(data.has_response_audio, true);
    assert.equal(data.metadata.user_audio_bytes, audio.length * 2);
    await client.close();
  });

  test('listens to μ-law input (user_input_audio_format ulaw_8000)', async () => {
    const { agent_id: agentId } = await api(fast, '/v1/convai/agents/create', 'POST', {
      conversation_config: { asr: { user_input_audio_format: 'ulaw_8000' } },
    });
    const speech = await synthesize(UTTERANCE);
    const utterance = resample(speech.samples, speech.sampleRate, 8000);
    const client = new Client(fast, agentId);
    assert.equal((await client.start()).user_input_audio_format, 'ulaw_8000');
    client.sendAudio(encodeUlaw(concat(silence(0.3, 8000), utterance, silence(1, 8000))), 160);
    const transcript = await client.next((m) => m.type === 'user_transcript');
    const heard = Number(/^\(speech, (\d+\.\d) s\)$/.exec(transcript.user_transcription_event.user_transcript)?.[1]);
    assert.ok(Math.abs(heard - speechSpan(utterance, 8000)) <= 0.3, `heard ${heard}`);
    await client.close();
  });

  test('speaking over the agent: interruption with its event_id, no more of its audio, the turn recorded as interrupted', async () => {
    const client = new Client(realtime, 'agent_minimal'); // first message: "Hello! How can I help you today?"
    await client.start();
    const first = await client.next((m) => m.type === 'audio');
    assert.equal(first.audio_event.event_id, 1);
    await sleep(150); // a little of it played
    const speech = await synthesize(UTTERANCE);
    const words = resample(speech.samples, speech.sampleRate, 16000).subarray(0, 0.4 * 16000); // "Hello"
    client.sendAudio(encodePcm16(words), 640);
    const interruption = await client.next((m) => m.type === 'interruption');
    assert.deepEqual(interruption.interruption_event, { event_id: 1 });
    const cutAt = client.messages.indexOf(interruption);
    const sentBefore = client.audioOf(1).length;
    const total = Math.ceil((await synthesize('Hello! How can I help you today?')).samples.length / 2205);
    assert.ok(sentBefore >= 2 && sentBefore < total, `${sentBefore} of ${total} chunks before the interruption`);

    client.sendAudio(Buffer.alloc(0.8 * 16000 * 2), 640); // silence: the speech ends
    const transcript = await client.next((m) => m.type === 'user_transcript');
    assert.match(transcript.user_transcription_event.user_transcript, /^\(speech, 0\.[2-6] s\)$/);
    const answer = await client.next((m) => m.type === 'agent_response' && m.agent_response_event.event_id > 1);
    await client.next((m) => m.type === 'audio' && m.audio_event.event_id === answer.agent_response_event.event_id);
    await sleep(250);
    assert.equal(client.messages.slice(cutAt).filter((m) => m.type === 'audio' && m.audio_event.event_id === 1).length, 0);
    assert.equal(client.messages.filter((m) => m.type === 'interruption').length, 1);

    const data = await client.record();
    assert.deepEqual(data.transcript.map((/** @type {any} */ t) => [t.role, t.interrupted]), [['agent', true], ['user', false], ['agent', false]]);
    await client.close();
  });

  test('without speech synthesis the conversation goes on in text, and the failure is logged once', async () => {
    /** @type {string[]} */
    const lines = [];
    const broken = await startService({
      port: 0, replyDelayMs: 1, pingIntervalMs: 60000, audioRealtime: false, log: (line) => lines.push(line),
      synthesize: () => Promise.reject(new Error('espeak-ng is not installed')),
    });
    try {
      const client = new Client(broken, 'agent_minimal');
      await client.start();
      await client.next((m) => m.type === 'agent_response');
      client.send({ type: 'user_message', text: 'hello' });
      await client.next((m) => m.type === 'agent_response' && m.agent_response_event.event_id === 2);
      client.send({ type: 'user_message', text: 'again' });
      await client.next((m) => m.type === 'agent_response' && m.agent_response_event.event_id === 3);
      await sleep(20);
      assert.equal(client.messages.filter((m) => m.type === 'audio').length, 0);
      assert.deepEqual(lines.filter((l) => l.includes('speech synthesis failed')), [
        '[service] speech synthesis failed; conversations go on without agent audio: espeak-ng is not installed',
      ]);
      assert.equal((await client.record()).has_response_audio, false);
      await client.close();
    } finally {
      await broken.close();
    }
  });
});

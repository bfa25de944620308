import { expect } from '@open-wc/testing';
import { FakeSocket } from '../fake-socket.js';
import { ConversationSession, parseServerMessage, type SessionEnd } from '../../../src/client/index.js';
import { MIN_SILENCE_MS } from '../../../src/client/session.js';
import { until } from '../../helpers.js';

const METADATA = {
  type: 'conversation_initiation_metadata',
  conversation_initiation_metadata_event: { conversation_id: 'conv_1', agent_output_audio_format: 'pcm_24000', user_input_audio_format: 'pcm_16000' },
};

function newSession(handshakeTimeoutMs = 2000): { session: ConversationSession; socket: () => FakeSocket; ended: SessionEnd[] } {
  const session = new ConversationSession({
    url: 'ws://service.test/v1/voiceai/conversation?agent_id=a',
    initiation: { dynamic_variables: { customer_name: 'Ada' }, conversation_config_override: { conversation: { text_only: true } } },
    WebSocket: FakeSocket as unknown as typeof WebSocket,
    handshakeTimeoutMs,
  });
  // A listener, not oneEvent: the tests count the `ended` events (exactly one, also after end() twice) and read them
  // right after the synchronous call that dispatched them.
  const ended: SessionEnd[] = [];
  session.addEventListener('ended', (e) => ended.push(e.detail));
  return { session, socket: () => FakeSocket.last!, ended };
}

/**
 * A session (with `options`) whose handshake is done and that then got `pings` pings 100 ms apart; `ended` collects its
 * ends, `endedAt` when each came (performance.now(), ms).
 */
async function connectedThenPinged(options: { silenceTimeoutMs?: number }, pings: number): Promise<{ ended: SessionEnd[]; endedAt: number[] }> {
  const session = new ConversationSession({ url: 'ws://service.test/v1/voiceai/conversation?agent_id=a', WebSocket: FakeSocket as unknown as typeof WebSocket, ...options });
  const ended: SessionEnd[] = [];
  const endedAt: number[] = [];
  session.addEventListener('ended', (e) => (ended.push(e.detail), endedAt.push(performance.now())));
  const started = session.start();
  FakeSocket.last.open();
  FakeSocket.last.serverSends(METADATA);
  await started;
  for (let i = 0; i < pings; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    FakeSocket.last.serverSends({ type: 'ping', ping_event: { event_id: i + 1 } });
  }
  return { ended, endedAt };
}

describe('ConversationSession', () => {
  it('sends the initiation first, holds typed text until the metadata, then sends it (PROTOCOL.md 3)', async () => {
    const { session, socket } = newSession();
    const started = session.start();
    session.sendUserMessage('typed early');
    expect(session.sendUserAudioChunk('AAAA')).to.equal(false);
    socket().open();
    expect(socket().sent).to.have.length(1);
    expect(socket().sent[0]).to.deep.include({ type: 'conversation_initiation_client_data', dynamic_variables: { customer_name: 'Ada' } });
    expect(socket().sent[0]!['source_info']).to.deep.equal({ source: 'widget', version: '0.1.0' });
    expect(socket().sent[0]!['conversation_config_override']).to.deep.equal({ conversation: { text_only: true } });
    socket().serverSends(METADATA);
    await started;
    expect(session.status).to.equal('connected');
    expect(session.conversationId).to.equal('conv_1');
    expect(session.agentOutputAudioFormat).to.equal('pcm_24000');
    expect(socket().sent.slice(1)).to.deep.equal([{ type: 'user_message', text: 'typed early' }]);
    expect(session.sendUserAudioChunk('AAAA')).to.equal(true);
    expect(socket().sent.at(-1)).to.deep.equal({ user_audio_chunk: 'AAAA' });
  });

  it('answers each ping with a pong of the same event_id at once', async () => {
    const { session, socket } = newSession();
    const started = session.start();
    socket().open();
    socket().serverSends(METADATA);
    await started;
    socket().serverSends({ type: 'ping', ping_event: { event_id: 7, ping_ms: 30 } });
    expect(socket().sent.at(-1)).to.deep.equal({ type: 'pong', event_id: 7 });
  });

  it('dispatches typed events named after the message types, and ignores garbage and unknown types', async () => {
    const { session, socket } = newSession();
    // Listeners, not oneEvent: the test checks several events of three types, their order, and that garbage adds none.
    const seen: string[] = [];
    session.addEventListener('agent_chat_response_part', (e) => seen.push(`part:${e.detail.text_response_part.type}:${e.detail.text_response_part.text ?? ''}`));
    session.addEventListener('agent_response', (e) => seen.push(`response:${e.detail.agent_response_event.agent_response}`));
    session.addEventListener('client_tool_call', (e) => seen.push(`tool:${e.detail.client_tool_call.tool_name}`));
    const started = session.start();
    socket().open();
    socket().serverSends(METADATA);
    await started;
    socket().serverSends('not json {');
    socket().serverSends({ type: 'something_new', x: 1 });
    socket().serverSends({ type: 'agent_response', agent_response_event: { event_id: 'one', agent_response: 'bad id' } });
    socket().serverSends({ type: 'agent_chat_response_part', text_response_part: { type: 'start', text: '', event_id: 2 } });
    socket().serverSends({ type: 'agent_chat_response_part', text_response_part: { type: 'delta', text: 'Hel', event_id: 2 } });
    socket().serverSends({ type: 'agent_response', agent_response_event: { event_id: 2, agent_response: 'Hello' } });
    socket().serverSends({ type: 'client_tool_call', client_tool_call: { tool_name: 'get_page_time', tool_call_id: 'c1', parameters: {}, event_id: 3 } });
    expect(seen).to.deep.equal(['part:start:', 'part:delta:Hel', 'response:Hello', 'tool:get_page_time']);
    expect(session.ignoredFrames).to.equal(3);
  });

  it('reads a close with 1000 as the agent ending, any other code as an error', async () => {
    const agentEnds = newSession();
    const started = agentEnds.session.start();
    agentEnds.socket().open();
    agentEnds.socket().serverSends(METADATA);
    await started;
    agentEnds.socket().serverCloses(1000);
    expect(agentEnds.ended).to.have.length(1);
    expect(agentEnds.ended[0]).to.deep.include({ reason: 'agent', code: 1000, error: null });

    const fails = newSession();
    const startedToo = fails.session.start();
    fails.socket().open();
    fails.socket().serverSends(METADATA);
    await startedToo;
    fails.session.sendUserMessage('lost?');
    fails.socket().serverCloses(1011, 'internal error');
    expect(fails.ended[0]!.reason).to.equal('error');
    expect(fails.ended[0]!.code).to.equal(1011);
    expect(fails.ended[0]!.error?.message).to.contain('1011');
    expect(fails.session.sendUserMessage('after the end')).to.equal(false);
  });

  it('gives back the texts that never left when the socket fails before the handshake', async () => {
    const { session, socket, ended } = newSession();
    const started = session.start();
    session.sendUserMessage('first');
    session.sendUserMessage('second');
    socket().serverCloses(1006);
    let rejected: Error | null = null;
    await started.catch((error: Error) => (rejected = error));
    expect(rejected).to.be.instanceOf(Error);
    expect(ended[0]!.reason).to.equal('error');
    expect(ended[0]!.unsent).to.deep.equal(['first', 'second']);
  });

  it('fails when no metadata comes in time, and closes the socket', async () => {
    const { session, socket, ended } = newSession(50);
    const started = session.start();
    socket().open();
    let rejected: Error | null = null;
    await started.catch((error: Error) => (rejected = error));
    expect(rejected!.message).to.contain('no conversation_initiation_metadata within 50 ms');
    expect(ended[0]!.reason).to.equal('error');
    expect(socket().closedWith).to.equal(1000);
  });

  it("fails at once when the socket is made closed (a page's CSP refusing it: an error, never a close)", async () => {
    class RefusedSocket extends FakeSocket {
      override readyState = 3;
    }
    const session = new ConversationSession({ url: 'ws://blocked.test/v1/voiceai/conversation?agent_id=a', WebSocket: RefusedSocket as unknown as typeof WebSocket });
    const ended: SessionEnd[] = [];
    session.addEventListener('ended', (e) => ended.push(e.detail));
    let error: unknown = null;
    await session.start().catch((e) => (error = e));
    expect(session.status).to.equal('ended');
    expect(ended.map((end) => end.reason)).to.deep.equal(['error']);
    expect(String(error)).to.contain('connect-src');
  });

  it('a connected service that sends nothing for silenceTimeoutMs has lost the connection; any frame, a ping too, resets the bound', async () => {
    const { ended } = await connectedThenPinged({ silenceTimeoutMs: 150 }, 4);
    expect(ended, 'pings every 100 ms keep it alive past 150 ms').to.deep.equal([]);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(ended.map((end) => end.reason)).to.deep.equal(['error']);
    expect(ended[0]!.error!.message).to.contain('connection is lost');
    expect(FakeSocket.last.closedWith, 'the socket closed').to.equal(1000);
  });

  it('once the service pings regularly, its silence is noticed after three ping intervals, at least MIN_SILENCE_MS, not 30 s', async function () {
    this.timeout(9000);
    const { ended, endedAt } = await connectedThenPinged({}, 3);
    const silentFrom = performance.now();
    await new Promise((resolve) => setTimeout(resolve, MIN_SILENCE_MS - 300));
    expect(ended, 'not before MIN_SILENCE_MS').to.deep.equal([]);
    await until(() => ended.length === 1, 'the silence noticed', 1500);
    expect(endedAt[0]! - silentFrom).to.be.within(MIN_SILENCE_MS - 50, MIN_SILENCE_MS + 500);
  });

  it('end() closes with 1000 and reports the visitor as the one who ended it, once', async () => {
    const { session, socket, ended } = newSession();
    const started = session.start();
    socket().open();
    socket().serverSends(METADATA);
    await started;
    session.end();
    session.end();
    expect(socket().closedWith).to.equal(1000);
    expect(ended).to.have.length(1);
    expect(ended[0]!.reason).to.equal('user');
  });
});

describe('parseServerMessage', () => {
  it('refuses frames that are not objects with a string type, or miss a required field', () => {
    expect(parseServerMessage('[]')).to.equal(null);
    expect(parseServerMessage('{"type":3}')).to.equal(null);
    expect(parseServerMessage(new ArrayBuffer(4))).to.equal(null);
    expect(parseServerMessage('{"type":"agent_response","agent_response_event":{"event_id":1}}')).to.equal(null);
    expect(parseServerMessage('{"type":"ping","ping_event":{"event_id":"x"}}')).to.equal(null);
    expect(parseServerMessage('{"type":"vad_score","vad_score_event":{"vad_score":0.5}}')).to.deep.equal({ type: 'vad_score', vad_score_event: { vad_score: 0.5 } });
    expect(parseServerMessage('{"type":"toString"}')).to.deep.equal({ type: 'toString', unknown: true });
  });
});

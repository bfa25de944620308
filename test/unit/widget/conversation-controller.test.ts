import { expect, oneEvent } from '@open-wc/testing';
import type { SessionStatus } from '../../../src/client/session.js';
import { CLIENT_TOOL_TIMEOUT_MS, ConversationController, STREAM_DRAW_MS, type TranscriptEntry } from '../../../src/widget/controllers/conversation.js';
import { captureConsole, until } from '../../helpers.js';
import { FakeSocket, detach, metadata, mountHost, type TestHost } from './host.js';

const OPTIONS = { url: 'ws://service.test/v1/voiceai/conversation?agent_id=a', WebSocket: FakeSocket as unknown as typeof WebSocket };

/** A host with a conversation controller; the conversation is started and its socket opened unless `start` is false. */
async function mount(start = true): Promise<{ host: TestHost; conversation: ConversationController; socket: () => FakeSocket }> {
  const { host, made: conversation } = await mountHost((h) => new ConversationController(h));
  if (start) {
    conversation.start(OPTIONS);
    FakeSocket.last.open();
  }
  return { host, conversation, socket: () => FakeSocket.last };
}

/** Mounts, starts and completes the handshake of conversation `conv_1`. */
async function connected(): Promise<{ host: TestHost; conversation: ConversationController; socket: FakeSocket }> {
  const mounted = await mount();
  mounted.socket().serverSends(metadata('conv_1'));
  return { ...mounted, socket: mounted.socket() };
}

const agentEntries = (conversation: ConversationController): TranscriptEntry[] => conversation.transcript.filter((t) => t.role === 'agent');

describe('ConversationController: a conversation continued from an earlier page (issue 21)', () => {
  const KEPT = {
    conversationId: 'conv_old', open: true, expanded: false, mode: 'text' as const, call: false, updatedAt: Date.now(),
    messages: [{ role: 'user' as const, text: 'hello before' }, { role: 'agent' as const, text: 'Hi **there**' }],
  };

  it('restores the messages, then the divider; the next start sends the contextual_update first and reports the earlier id', async () => {
    const { host, conversation } = await mount(false);
    expect(conversation.restore(KEPT)).to.equal(true);
    expect(conversation.transcript.map((t) => t.notice ?? `${t.role}: ${t.text}`)).to.deep.equal(['user: hello before', 'agent: Hi **there**', 'earlier_in_visit']);
    expect(conversation.restore(KEPT), 'never twice').to.equal(false);
    conversation.start(OPTIONS);
    conversation.sendText('and now');
    const socket = FakeSocket.last;
    socket.open();
    const started = oneEvent(host, 'voice-agent-conversation');
    socket.serverSends(metadata('conv_new'));
    expect((await started).detail).to.deep.equal({ conversationId: 'conv_new', previousConversationId: 'conv_old' });
    const types = socket.sent.map((frame) => frame['type']);
    expect(types.slice(0, 3)).to.deep.equal(['conversation_initiation_client_data', 'contextual_update', 'user_message']);
    expect(socket.sentOfType('contextual_update')[0]!['text']).to.contain('(conv_old)').and.contain('\nuser: hello before\nagent: Hi **there**');
    expect(conversation.continued, 'continued once the handshake is done').to.equal(null);
  });

  it('a start that fails before its handshake leaves the continuation for the next start, which tells it again', async () => {
    const { conversation } = await mount(false);
    conversation.restore(KEPT);
    conversation.start(OPTIONS);
    FakeSocket.last.open();
    FakeSocket.last.serverCloses(1006);
    await until(() => conversation.status === 'ended', 'the failed start ended');
    expect(conversation.continued?.conversationId).to.equal('conv_old');
    conversation.start(OPTIONS);
    const socket = FakeSocket.last;
    socket.open();
    socket.serverSends(metadata('conv_2'));
    expect(socket.sentOfType('contextual_update')).to.have.length(1);
    expect(conversation.continued).to.equal(null);
  });

  it('a call that was on is told as ended when the page changed, before the divider', async () => {
    const { conversation } = await mount(false);
    expect(conversation.restore({ ...KEPT, messages: [], call: true })).to.equal(true);
    expect(conversation.transcript.map((t) => t.notice)).to.deep.equal(['call_ended_page_changed', 'earlier_in_visit']);
    expect(conversation.continued?.call).to.equal(true);
  });
});

describe('ConversationController', () => {
  it('reads status and conversation id from the session: idle → connecting → connected → ended, with the host events', async () => {
    const { host, conversation } = await mount(false);
    const seen: SessionStatus[] = [conversation.status];
    expect(conversation.conversationId).to.equal(null);
    expect(conversation.active).to.equal(false);

    const socketsBefore = FakeSocket.made.length;
    conversation.start(OPTIONS);
    conversation.start(OPTIONS); // a no-op while one runs
    expect(FakeSocket.made.length).to.equal(socketsBefore + 1);
    seen.push(conversation.status);
    expect(conversation.active).to.equal(true);
    const socket = FakeSocket.last;
    socket.open();
    expect(socket.sent[0]!['type']).to.equal('conversation_initiation_client_data');

    const started = oneEvent(host, 'voice-agent-conversation');
    socket.serverSends(metadata('conv_1'));
    const startEvent = await started;
    seen.push(conversation.status);
    expect(startEvent.detail).to.deep.equal({ conversationId: 'conv_1', previousConversationId: null });
    expect(startEvent.bubbles && startEvent.composed).to.equal(true);
    expect(conversation.conversationId).to.equal('conv_1');

    const ended = oneEvent(host, 'voice-agent-conversation-end');
    socket.serverCloses(1000);
    const endEvent = await ended;
    seen.push(conversation.status);
    expect(endEvent.detail).to.deep.equal({ conversationId: 'conv_1', reason: 'agent', code: 1000, message: null });
    expect(seen).to.deep.equal(['idle', 'connecting', 'connected', 'ended']);
    expect(conversation.active).to.equal(false);
    expect(conversation.conversationId).to.equal('conv_1');
    expect(conversation.transcript.at(-1)).to.deep.include({ role: 'notice', notice: 'agent' });
  });

  it('keeps text typed before the handshake pending, then marks it sent when the metadata comes', async () => {
    const { conversation, socket } = await mount();
    conversation.sendText('typed early');
    expect(conversation.transcript[0]).to.deep.include({ role: 'user', text: 'typed early', delivery: 'pending' });
    expect(socket().sentOfType('user_message')).to.deep.equal([]);

    socket().serverSends(metadata('conv_1'));
    expect(conversation.transcript[0]!.delivery).to.equal('sent');
    conversation.sendText('typed later');
    expect(conversation.transcript[1]!.delivery).to.equal('sent');
    expect(socket().sentOfType('user_message')).to.deep.equal([
      { type: 'user_message', text: 'typed early' },
      { type: 'user_message', text: 'typed later' },
    ]);
  });

  it('marks text unsent when no conversation runs', async () => {
    const { conversation } = await mount(false);
    conversation.sendText('nobody listens');
    expect(conversation.transcript).to.have.length(1);
    expect(conversation.transcript[0]!.delivery).to.equal('unsent');
  });

  it('marks pending text unsent when the socket fails before the handshake, and tells the host and the console', async () => {
    const { host, conversation, socket } = await mount();
    conversation.sendText('lost');
    const ended = oneEvent(host, 'voice-agent-conversation-end');
    const { errors, warnings } = await captureConsole(() => socket().serverCloses(1006));
    const { detail } = await ended;
    expect(detail).to.deep.include({ conversationId: null, reason: 'error', code: 1006 });
    expect(detail.message).to.contain('could not open (code 1006)');
    expect(errors).to.have.length(1);
    expect(errors[0]).to.contain('could not open (code 1006)');
    expect(warnings).to.deep.equal([]);
    expect(conversation.status).to.equal('ended');
    expect(conversation.transcript[0]!.delivery).to.equal('unsent');
    expect(conversation.transcript.at(-1)).to.deep.include({ role: 'notice', notice: 'error' });
  });

  it('builds a streamed reply from start, delta and stop, then lets agent_response replace it', async () => {
    const { conversation, socket } = await connected();
    const part = (type: 'start' | 'delta' | 'stop', text?: string): void =>
      socket.serverSends({ type: 'agent_chat_response_part', text_response_part: { type, event_id: 2, ...(text === undefined ? {} : { text }) } });
    part('start', '');
    expect(agentEntries(conversation)).to.have.length(1);
    expect(agentEntries(conversation)[0]).to.deep.include({ text: '', streaming: true, eventId: 2 });
    part('delta', 'Hel');
    part('delta', 'lo');
    expect(agentEntries(conversation)[0]).to.deep.include({ text: 'Hello', streaming: true });
    part('stop');
    expect(agentEntries(conversation)[0]).to.deep.include({ text: 'Hello', streaming: false });

    socket.serverSends({ type: 'agent_response', agent_response_event: { event_id: 2, agent_response: 'Hello, Ada.' } });
    expect(agentEntries(conversation)).to.have.length(1);
    expect(agentEntries(conversation)[0]).to.deep.include({ text: 'Hello, Ada.', streaming: false });

    socket.serverSends({ type: 'agent_response', agent_response_event: { event_id: 3, agent_response: 'Anything else?' } });
    expect(agentEntries(conversation).map((t) => t.text)).to.deep.equal(['Hello, Ada.', 'Anything else?']);
  });

  it('draws the parts of a streamed reply (start, deltas, stop) together, within STREAM_DRAW_MS; agent_response and other messages at once', async () => {
    const { host, socket, conversation } = await connected();
    let updates = 0;
    const requestUpdate = host.requestUpdate.bind(host);
    host.requestUpdate = (...args: Parameters<typeof requestUpdate>) => (updates++, requestUpdate(...args));
    const part = (type: 'start' | 'delta' | 'stop', text?: string): void =>
      socket.serverSends({ type: 'agent_chat_response_part', text_response_part: { type, event_id: 7, text } });
    part('start', '');
    expect(agentEntries(conversation).map((t) => [t.text, t.streaming]), 'the entry, made at once').to.deep.equal([['', true]]);
    // In one go: a test's own waits between them would stretch past STREAM_DRAW_MS on a busy machine (Firefox).
    for (let i = 0; i < 10; i++) part('delta', `word ${i} `);
    expect(updates, 'no draw yet for the start and the deltas').to.equal(0);
    await until(() => updates === 1, 'one draw for the start and the ten deltas', STREAM_DRAW_MS * 4);
    await new Promise((resolve) => setTimeout(resolve, STREAM_DRAW_MS * 2));
    expect(updates, 'and no more').to.equal(1);
    part('delta', 'last');
    part('stop');
    expect(updates, 'the stop waits too').to.equal(1);
    socket.serverSends({ type: 'agent_response', agent_response_event: { event_id: 7, agent_response: 'word 0 … last' } });
    expect(updates, 'agent_response: at once, with what waited').to.equal(2);
    await new Promise((resolve) => setTimeout(resolve, STREAM_DRAW_MS * 2));
    expect(updates, 'the pending draw dropped').to.equal(2);
    part('start', '');
    part('stop');
    await until(() => updates === 3, 'a stop with no agent_response after it: drawn within STREAM_DRAW_MS', STREAM_DRAW_MS * 4);
    expect(agentEntries(conversation).at(-1)!.streaming).to.equal(false);
  });

  it('draws a user_transcript with the agent_response that follows it (one draw), or alone within STREAM_DRAW_MS; the page hears of it at once', async () => {
    const { host, socket, conversation } = await connected();
    let updates = 0;
    const requestUpdate = host.requestUpdate.bind(host);
    host.requestUpdate = (...args: Parameters<typeof requestUpdate>) => (updates++, requestUpdate(...args));
    const messages: string[] = [];
    host.addEventListener('voice-agent-message', (e) => messages.push((e as unknown as { detail: { source: string } }).detail.source));
    const said = (text: string, id: number): void => socket.serverSends({ type: 'user_transcript', user_transcription_event: { user_transcript: text, event_id: id } });
    said('Where is my order?', 6);
    expect(messages, 'told to the page at once').to.deep.equal(['user']);
    expect(updates, 'not drawn yet').to.equal(0);
    socket.serverSends({ type: 'agent_response', agent_response_event: { event_id: 6, agent_response: 'On its way.' } });
    const withReply = updates;
    expect(withReply, 'drawn with the reply').to.be.at.least(1);
    expect(conversation.transcript.map((t) => t.text)).to.deep.equal(['Where is my order?', 'On its way.']);
    await new Promise((resolve) => setTimeout(resolve, STREAM_DRAW_MS * 2));
    expect(updates, 'the pending draw dropped').to.equal(withReply);
    said('Thanks.', 7);
    await until(() => updates === withReply + 1, 'with no reply after it: drawn within STREAM_DRAW_MS', STREAM_DRAW_MS * 4);
  });

  it('stops a streaming reply when the conversation ends mid-stream', async () => {
    const { conversation, socket } = await connected();
    socket.serverSends({ type: 'agent_chat_response_part', text_response_part: { type: 'delta', text: 'Half a', event_id: 4 } });
    expect(agentEntries(conversation)[0]!.streaming).to.equal(true);
    conversation.end();
    expect(agentEntries(conversation)[0]!.streaming).to.equal(false);
    expect(conversation.transcript.at(-1)).to.deep.include({ role: 'notice', notice: 'user' });
    expect(socket.closedWith).to.equal(1000);
  });

  it('replaces the text of the corrected agent turn, and ignores a correction of an unknown turn', async () => {
    const { conversation, socket } = await connected();
    socket.serverSends({ type: 'agent_response', agent_response_event: { event_id: 5, agent_response: 'The shop opens at 9.' } });
    socket.serverSends({ type: 'agent_response_correction', agent_response_correction_event: { event_id: 5, corrected_agent_response: 'The shop opens at' } });
    socket.serverSends({ type: 'agent_response_correction', agent_response_correction_event: { event_id: 99, corrected_agent_response: 'never shown' } });
    expect(agentEntries(conversation).map((t) => t.text)).to.deep.equal(['The shop opens at']);
  });

  it('tells a failure the service sends before the handshake (error, then its close) once; an error in a running conversation has its own notice', async () => {
    const { conversation, socket } = await mount();
    conversation.sendText('lost');
    await captureConsole(() => {
      socket().serverSends({ type: 'error', error_event: { code: 4004, message: 'Agent not found' } });
      socket().serverCloses(4004);
    });
    expect(conversation.transcript.map((t) => `${t.role}:${t.notice ?? t.delivery}`)).to.deep.equal(['user:unsent', 'notice:error']);
    // in a running conversation the service's error is told when it comes (the conversation goes on), its end again
    conversation.start(OPTIONS);
    FakeSocket.last.open();
    FakeSocket.last.serverSends(metadata('conv_2'));
    await captureConsole(() => {
      FakeSocket.last.serverSends({ type: 'error', error_event: { code: 1008, message: 'slow down' } });
      conversation.sendText('still here');
      FakeSocket.last.serverCloses(1011);
    });
    expect(conversation.transcript.slice(2).map((t) => `${t.role}:${t.notice ?? t.delivery}`)).to.deep.equal(['notice:error', 'user:sent', 'notice:error']);
  });

  it('adds the visitor\'s spoken words (user_transcript) as sent, and warns about a service error message', async () => {
    const { conversation, socket } = await connected();
    socket.serverSends({ type: 'user_transcript', user_transcription_event: { user_transcript: 'Where is my order?', event_id: 6 } });
    expect(conversation.transcript.at(-1)).to.deep.include({ role: 'user', text: 'Where is my order?', delivery: 'sent', eventId: 6 });
    const { warnings } = await captureConsole(() => socket.serverSends({ type: 'error', error_event: { code: 1008, message: 'slow down' } }));
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.contain('the service sent error 1008: slow down');
    expect(conversation.status).to.equal('connected');
    expect(conversation.transcript.at(-1), 'told in the widget\'s words').to.deep.include({ role: 'notice', notice: 'error' });
  });

  it('answers a client tool call through clientToolHandler: the result, or the error with is_error', async () => {
    const { conversation, socket } = await connected();
    const asked: [string, Record<string, unknown>][] = [];
    conversation.tools.handler = async (name, parameters) => {
      asked.push([name, parameters]);
      if (name === 'fail') throw new Error('the page refused');
      return 'it is 10:15';
    };
    socket.serverSends({ type: 'client_tool_call', client_tool_call: { tool_name: 'get_page_time', tool_call_id: 'c1', parameters: { zone: 'UTC' }, event_id: 7 } });
    socket.serverSends({ type: 'client_tool_call', client_tool_call: { tool_name: 'fail', tool_call_id: 'c2', event_id: 8 } });
    await until(() => socket.sentOfType('client_tool_result').length === 2, 'both tool results sent');
    expect(asked).to.deep.equal([['get_page_time', { zone: 'UTC' }], ['fail', {}]]);
    expect(socket.sentOfType('client_tool_result')).to.deep.equal([
      { type: 'client_tool_result', tool_call_id: 'c1', result: 'it is 10:15', is_error: false },
      { type: 'client_tool_result', tool_call_id: 'c2', result: 'the page refused', is_error: true },
    ]);
    expect(conversation.transcript.filter((t) => t.role === 'tool').map((t) => [t.text, t.tool])).to.deep.equal([
      ['get_page_time', 'done'],
      ['fail', 'error'],
    ]);
  });

  it('answers a tool call as unknown when the page registered no handler', async () => {
    const { conversation, socket } = await connected();
    expect(conversation.tools.handler).to.equal(null);
    socket.serverSends({ type: 'client_tool_call', client_tool_call: { tool_name: 'open_cart', tool_call_id: 'c3', parameters: {}, event_id: 9 } });
    await until(() => socket.sentOfType('client_tool_result').length === 1, 'tool result sent');
    expect(socket.sentOfType('client_tool_result')[0]).to.deep.equal({
      type: 'client_tool_result', tool_call_id: 'c3', result: 'Client tool "open_cart" is not registered on this page', is_error: true,
    });
    expect(conversation.transcript.at(-1)).to.deep.include({ role: 'tool', tool: 'error' });
  });

  it('answers from clientTools first (JSON for a non-string result), and a tool with no answer in CLIENT_TOOL_TIMEOUT_MS as an error', async () => {
    const { conversation, socket } = await connected();
    conversation.tools.handler = async () => 'from the handler';
    conversation.tools.page = { get_cart: () => ({ items: 2 }), never: () => new Promise(() => {}) };
    // The 10 s timeout is shortened for this test: only that timer's delay is changed.
    const { setTimeout: realSetTimeout } = window;
    window.setTimeout = ((handler: TimerHandler, delay?: number, ...args: unknown[]) =>
      realSetTimeout(handler, delay === CLIENT_TOOL_TIMEOUT_MS ? 20 : delay, ...args)) as typeof window.setTimeout;
    try {
      socket.serverSends({ type: 'client_tool_call', client_tool_call: { tool_name: 'get_cart', tool_call_id: 'k1', parameters: {}, event_id: 12 } });
      socket.serverSends({ type: 'client_tool_call', client_tool_call: { tool_name: 'never', tool_call_id: 'k2', parameters: {}, event_id: 13 } });
      socket.serverSends({ type: 'client_tool_call', client_tool_call: { tool_name: 'other', tool_call_id: 'k3', parameters: {}, event_id: 14 } });
      await until(() => socket.sentOfType('client_tool_result').length === 3, 'three tool results sent');
    } finally {
      window.setTimeout = realSetTimeout;
    }
    const results = Object.fromEntries(socket.sentOfType('client_tool_result').map((r) => [r['tool_call_id'], [r['result'], r['is_error']]]));
    expect(results).to.deep.equal({
      k1: ['{"items":2}', false],
      k2: [`Client tool "never" gave no answer within ${CLIENT_TOOL_TIMEOUT_MS} ms`, true],
      k3: ['from the handler', false],
    });
  });

  it('rate() sends feedback once per agent turn, and only for a turn with an event id while the conversation runs', async () => {
    const { conversation, socket } = await connected();
    socket.serverSends({ type: 'agent_response', agent_response_event: { event_id: 10, agent_response: 'Done.' } });
    const [entry] = agentEntries(conversation);
    conversation.rate(entry!, 'like');
    conversation.rate(entry!, 'dislike');
    expect(socket.sentOfType('feedback')).to.deep.equal([{ type: 'feedback', score: 'like', event_id: 10 }]);
    expect(entry!.score).to.equal('like');

    conversation.sendText('thanks');
    const userEntry = conversation.transcript.at(-1)!;
    conversation.rate(userEntry, 'like');
    expect(userEntry.score).to.equal(undefined);

    socket.serverSends({ type: 'agent_response', agent_response_event: { event_id: 11, agent_response: 'Bye.' } });
    conversation.end();
    const late = agentEntries(conversation).at(-1)!;
    conversation.rate(late, 'dislike');
    expect(late.score).to.equal(undefined);
    expect(socket.sentOfType('feedback')).to.have.length(1);
  });

  it('closes the socket and forgets the transcript and status when the host leaves the page', async () => {
    const { host, conversation, socket } = await connected();
    conversation.sendText('hello');
    expect(conversation.transcript).to.have.length(1);
    const { errors, warnings } = await captureConsole(() => detach(host));
    expect(socket.closedWith).to.equal(1000);
    expect(conversation.status).to.equal('idle');
    expect(conversation.conversationId).to.equal(null);
    expect(conversation.transcript).to.deep.equal([]);
    expect(errors).to.deep.equal([]);
    expect(warnings).to.deep.equal([]);
    // A late frame of the closed session changes nothing.
    socket.serverSends({ type: 'agent_response', agent_response_event: { event_id: 12, agent_response: 'too late' } });
    expect(conversation.transcript).to.deep.equal([]);
  });

  it('typing() sends user_activity at most once a second, and only while connected', async () => {
    const { conversation, socket } = await mount();
    const realNow = Date.now;
    let now = realNow();
    Date.now = () => now;
    try {
      conversation.typing(); // connecting: not sent, not queued
      socket().serverSends(metadata('conv_1'));
      conversation.typing();
      now += 500;
      conversation.typing();
      now += 499;
      conversation.typing();
      expect(socket().sentOfType('user_activity')).to.have.length(1);
      now += 1;
      conversation.typing();
      expect(socket().sentOfType('user_activity')).to.have.length(2);
    } finally {
      Date.now = realNow;
    }
  });
});

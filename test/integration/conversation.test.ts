/**
 * The real element against the reference service (demo/service) over real HTTP and WebSocket on 127.0.0.1.
 */
import { expect, oneEvent } from '@open-wc/testing';
import { apiKey } from '/__service__.js';
import { captureConsole, until } from '../helpers.js';
import { $, $$, button, messages, mountWidget, openPanel, sendText, serviceUrl } from '../widget-helpers.js';
import type { VoiceAgentConversationEndEvent, VoiceAgentConversationEvent } from '../../src/events/index.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';
import { service, setFaults } from './voice-helpers.js';

async function lastAgentText(el: VoiceAgentWidget, includes: string): Promise<HTMLElement> {
  await until(() => $$(el, '.message.agent').some((m) => m.textContent!.includes(includes) && m.getAttribute('aria-busy') === 'false'), `agent reply with "${includes}"`);
  return $$(el, '.message.agent').filter((m) => m.textContent!.includes(includes)).at(-1)!;
}

async function record(conversationId: string): Promise<any> {
  const response = await fetch(`${serviceUrl}/v1/voiceai/conversations/${conversationId}`, { headers: { 'x-api-key': apiKey } });
  expect(response.status).to.equal(200);
  return response.json();
}

describe('conversation with the reference service', () => {
  afterEach(() => service('DELETE', '/v1/dev/faults'));

  it('applies the fetched configuration: labels and colours of the full agent', async () => {
    const el = await mountWidget('agent_demo_support');
    expect($(el, '.launcher')!.textContent!.trim()).to.equal('Need help?');
    await openPanel(el);
    const start = button(el, 'Message')!;
    expect(start, 'start_chat button').to.exist;
    expect(getComputedStyle(start).backgroundColor).to.equal('rgb(109, 40, 217)');
    expect(getComputedStyle($(el, '[part~="panel"]')!).borderTopLeftRadius).to.equal('24px');
    expect($<HTMLInputElement>(el, 'input')!.getAttribute('aria-label')).to.equal('Text message input');
    expect($<HTMLInputElement>(el, 'input')!.placeholder).to.equal('Send a message...');
  });

  it('shows the first message as a greeting with dynamic variables, through the handshake, then once from the service', async () => {
    const el = await mountWidget('agent_demo_support', { 'dynamic-variables': '{"customer_name":"Ada"}' });
    await openPanel(el);
    expect(messages(el)).to.deep.equal([{ role: 'agent', text: "Hi Ada! I'm the Acme assistant. How can I help?" }]);
    // The number of agent messages at each change of the panel, from the press to the service's first message.
    const shown: number[] = [];
    const observer = new MutationObserver(() => shown.push($$(el, '.message.agent').length));
    observer.observe(el.shadowRoot!, { subtree: true, childList: true });
    button(el, 'Message')!.click();
    await until(() => $(el, '[part~="status"]')!.textContent === 'Chatting with AI agent', 'connected');
    await until(() => $(el, '.message.agent:not(.greeting)'), "the service's first message");
    observer.disconnect();
    await lastAgentText(el, 'Hi Ada!');
    expect(messages(el).filter((m) => m.text.includes('Hi Ada!'))).to.have.length(1);
    expect(shown.length, 'the panel changed').to.be.above(0);
    expect(Math.min(...shown), 'the greeting stays while the conversation connects, until the service says it').to.equal(1);
  });

  it('holds a text conversation: Enter sends, the reply streams in parts and ends as the whole markdown text', async () => {
    // Parts 50 ms apart, as a real service streams them (the test service's own 5 ms would all be drawn together:
    // deltas within STREAM_DRAW_MS are).
    await setFaults({ socket: { agent_id: 'agent_demo_support', part_delay_ms: 50, times: 1 } });
    const el = await mountWidget('agent_demo_support');
    await openPanel(el);
    const seen = new Set<string>();
    const observer = new MutationObserver(() => $$(el, '.message.agent').forEach((m) => seen.add(m.textContent!.trim())));
    observer.observe(el.shadowRoot!, { subtree: true, childList: true, characterData: true });
    const started = oneEvent<VoiceAgentConversationEvent>(el, 'voice-agent-conversation');
    // Typed before any conversation: it starts one, waits for the handshake, and is not lost.
    await sendText(el, 'hello <b>there</b> & welcome');
    const { conversationId } = (await started).detail;
    const reply = await lastAgentText(el, 'You said:');
    observer.disconnect();
    expect(reply.querySelector('strong')!.textContent).to.equal('hello there & welcome');
    expect(reply.querySelector('b'), 'raw <b> from user text went through the sanitiser and kept').to.exist;
    const partials = [...seen].filter((t) => t.startsWith('You said') && t !== reply.textContent!.trim());
    expect(partials.length, 'partial texts seen while streaming').to.be.greaterThan(1);
    const user = $$(el, '.message.user')[0]!;
    expect(user.textContent!.trim()).to.equal('hello <b>there</b> & welcome');
    expect(user.querySelector('b'), 'user text is never HTML').to.equal(null);
    expect(conversationId).to.match(/^conv_/);
    const saved = await record(conversationId);
    expect(saved.status).to.equal('in-progress');
    expect(saved.transcript.map((t: any) => t.role)).to.deep.equal(['agent', 'user', 'agent']);
    expect(saved.transcript[1].message).to.equal('hello <b>there</b> & welcome');
    expect(saved.conversation_initiation_client_data.conversation_config_override.conversation.text_only).to.equal(true);
    expect(saved.metadata.pongs_received, 'pong answered').to.be.greaterThan(0);
  });

  it('keeps every message readable when the panel is closed and opened again', async () => {
    const el = await mountWidget('agent_minimal');
    await openPanel(el);
    await sendText(el, 'remember me');
    await lastAgentText(el, 'You said: remember me');
    const before = messages(el);
    button(el, 'Collapse')!.click();
    await until(() => !$(el, '[part~="panel"]'), 'closed');
    await openPanel(el);
    expect(messages(el)).to.deep.equal(before);
    expect(before.every((m) => m.text.length > 0)).to.equal(true);
  });

  it("applies the link policy to the agent's real reply", async () => {
    const el = await mountWidget('agent_demo_support');
    await openPanel(el);
    await sendText(el, 'show me links');
    const reply = await lastAgentText(el, 'Here are some links');
    const links = [...reply.querySelectorAll('a')];
    expect(links.map((a) => a.textContent)).to.deep.equal(['pricing', 'docs', 'www']);
    expect(links.map((a) => a.href)).to.deep.equal(['https://acme.example/pricing', 'https://docs.acme.example/start', 'https://www.acme.example/about']);
    for (const a of links) {
      expect(a.target).to.equal('_blank');
      expect(a.rel).to.equal('noopener noreferrer');
    }
    for (const text of ['phish', 'plain http', 'run', 'sub', 'cover']) expect(reply.textContent, text).to.contain(text);
    expect(reply.querySelector('script, img, [onerror], [style]')).to.equal(null);
  });

  it('ends the conversation from the End button and tells the visitor; the record is done', async () => {
    const el = await mountWidget('agent_demo_support');
    await openPanel(el);
    const started = oneEvent<VoiceAgentConversationEvent>(el, 'voice-agent-conversation');
    button(el, 'Message')!.click();
    const { conversationId } = (await started).detail;
    const ended = oneEvent<VoiceAgentConversationEndEvent>(el, 'voice-agent-conversation-end');
    button(el, 'End')!.click();
    expect((await ended).detail.reason).to.equal('user');
    await el.updateComplete;
    expect($(el, '[part~="notice"]')!.textContent).to.equal('You ended the conversation');
    expect($<HTMLInputElement>(el, 'input')!.placeholder).to.equal('Start a new conversation');
    expect(button(el, 'End')).to.equal(undefined);
    let saved: any;
    await until(async () => {
      saved = await record(conversationId);
      return saved.status === 'done';
    }, 'record done');
    expect(saved.metadata.termination_reason).to.equal('client_ended');
  });

  it('shows when the agent ends the conversation, and a new message starts a new one', async () => {
    const el = await mountWidget('agent_minimal');
    await openPanel(el);
    await sendText(el, 'ok bye');
    await until(() => $(el, '[part~="notice"]')?.textContent === 'The agent ended the conversation', 'agent ended notice');
    await sendText(el, 'hello again');
    await lastAgentText(el, 'You said: hello again');
    expect($$(el, '[part~="notice"]')).to.have.length(1);
  });

  it('answers a client tool call with the page handler, and an unknown tool with is_error', async () => {
    const el = await mountWidget('agent_minimal');
    el.clientToolHandler = async (name) => (name === 'get_page_time' ? 'twelve o’clock' : Promise.reject(new Error('no such tool')));
    await openPanel(el);
    await sendText(el, 'what time is it');
    await lastAgentText(el, 'The page answered: twelve o’clock');
    expect($$(el, '[part~="tool-status"]').map((p) => p.textContent)).to.deep.equal(['Completed']);
    el.clientToolHandler = null;
    await sendText(el, 'use a tool');
    await lastAgentText(el, 'The tool failed:');
    expect($$(el, '[part~="tool-status"]').map((p) => p.textContent)).to.deep.equal(['Completed', 'Error occurred']);
  });

  it('uses the text-contents attribute over the configuration, and survives bad dynamic-variables', async () => {
    const { result: el, errors } = await captureConsole(() =>
      mountWidget('agent_demo_support', { 'text-contents': '{"main_label":"Ask Acme","send_message":"Go"}', 'dynamic-variables': '{not json' }),
    );
    expect(errors.some((e) => e.includes('dynamic-variables is not JSON'))).to.equal(true);
    expect($(el, '.launcher')!.textContent!.trim()).to.equal('Ask Acme');
    await openPanel(el);
    expect(button(el, 'Go')).to.exist;
    await sendText(el, 'hi');
    await lastAgentText(el, 'You said: hi');
  });

  it('closes the socket when the element is removed mid-conversation; re-added, it shows what the tab kept (issue 21)', async () => {
    const el = await mountWidget('agent_minimal');
    await openPanel(el);
    const started = oneEvent<VoiceAgentConversationEvent>(el, 'voice-agent-conversation');
    await sendText(el, 'hello');
    const { conversationId } = (await started).detail;
    await lastAgentText(el, 'You said: hello');
    const before = messages(el);
    const parent = el.parentElement!;
    el.remove();
    await until(async () => (await record(conversationId)).status === 'done', 'the service saw the socket close');
    parent.append(el);
    await el.updateComplete;
    // The panel open as it was, the earlier messages above their divider, no conversation running until the visitor goes on.
    await until(() => $(el, '[part~="earlier-divider"]'), 'the kept conversation shown');
    expect(messages(el)).to.deep.equal(before);
    expect(button(el, 'Start a chat'), 'a new conversation can start').to.exist;
    expect(button(el, 'End')).to.equal(undefined);
  });

  it('runs two widgets side by side, each with its own conversation', async () => {
    // Two fixtures on purpose: the subject is two widgets on one page, neither seeing the other's conversation.
    const [a, b] = await Promise.all([mountWidget('agent_minimal'), mountWidget('agent_text_only')]);
    await openPanel(a);
    await openPanel(b);
    await sendText(a, 'first widget');
    await sendText(b, 'second widget');
    await lastAgentText(a, 'You said: first widget');
    await lastAgentText(b, 'You said: second widget');
    expect(messages(a).some((m) => m.text.includes('second widget'))).to.equal(false);
    expect(messages(b).some((m) => m.text.includes('first widget'))).to.equal(false);
  });

  it('shows a small error state and names the cause in the console for an unknown agent (404)', async () => {
    const { result: el, errors } = await captureConsole(() => mountWidget('no_such_agent'));
    const error = $(el, '[part~="error"]')!;
    expect(error.getAttribute('role')).to.equal('alert');
    expect(error.textContent!.trim()).to.equal('An error occurred');
    expect(errors.some((e) => e.includes('no_such_agent') && e.includes('404'))).to.equal(true);
  });

  it('shows the error state for a bad server-url, without throwing', async () => {
    const bad = await captureConsole(() => mountWidget('agent_minimal', { 'server-url': 'javascript:alert(1)' }));
    await bad.result.updateComplete;
    expect($(bad.result, '[part~="error"]')).to.exist;
    expect(bad.errors.some((e) => e.includes('server-url'))).to.equal(true);
  });

  it('shows the error state for a missing agent-id, without throwing', async () => {
    const missing = await captureConsole(() => mountWidget(''));
    expect($(missing.result, '[part~="error"]')).to.exist;
    expect(missing.errors.some((e) => e.includes('agent-id'))).to.equal(true);
  });
});

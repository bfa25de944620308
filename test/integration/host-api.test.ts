/**
 * A host page that uses only the documented API of `<voice-agent-widget>` (custom-elements.json: attributes, methods,
 * events), against the reference service over real sockets: a registered client tool, a cancelled start, a dynamic
 * variable added before the start, every event listened to, and the widget steered through each method.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { captureConsole, until } from '../helpers.js';
import { FULL_TERMS_KEY, serviceUrl } from '../widget-helpers.js';
import '../../src/define.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';

/** Mounts the widget and returns at once, before its configuration is read: the methods must work from the start. */
async function mount(agentId: string): Promise<VoiceAgentWidget> {
  localStorage.setItem(FULL_TERMS_KEY, 'accepted');
  return fixture<VoiceAgentWidget>(html`<voice-agent-widget agent-id=${agentId} server-url=${serviceUrl}></voice-agent-widget>`);
}

const EVENTS = ['voice-agent-before-start', 'voice-agent-conversation', 'voice-agent-status', 'voice-agent-message', 'voice-agent-error', 'voice-agent-conversation-end'] as const;

describe('a host page using the documented API', () => {
  it('adds a dynamic variable before the start, runs a registered tool, hears every event, and steers the widget by its methods', async function () {
    this.timeout(20000);
    const el = await mount('agent_demo_support');
    // Listeners, not oneEvent: the page keeps a log of every event, as the demo page does.
    const seen: { type: string; detail: any }[] = [];
    for (const type of EVENTS) el.addEventListener(type, (e) => seen.push({ type, detail: (e as CustomEvent).detail }));
    el.addEventListener('voice-agent-before-start', (e) => {
      e.detail.dynamicVariables['customer_name'] = 'Grace';
    });
    const calls: unknown[] = [];
    el.registerClientTool('get_page_time', (parameters) => (calls.push(parameters), 'noon'));

    el.open(); // before the configuration is read
    const conversationId = await el.startConversation(); // waits for the configuration, then the handshake
    expect(conversationId).to.match(/^conv_/);
    expect(el.shadowRoot!.querySelector('[part~="panel"]'), 'opened once the configuration came').to.exist;
    await until(() => seen.some((s) => s.type === 'voice-agent-message' && s.detail.source === 'agent'), 'the first message');
    expect(seen.find((s) => s.type === 'voice-agent-message')!.detail.text, 'the page\'s dynamic variable in the first message').to.contain('Hi Grace!');

    await el.sendUserMessage('what time is it?');
    await until(() => seen.some((s) => s.type === 'voice-agent-message' && s.detail.text.includes('The page answered: noon')), 'the tool\'s answer in the reply');
    expect(calls).to.deep.equal([{ format: 'iso' }]);
    expect(seen.some((s) => s.type === 'voice-agent-message' && s.detail.source === 'user' && s.detail.text === 'what time is it?')).to.equal(true);
    await el.sendContextualUpdate('The visitor is on the pricing page.');

    el.expand();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part~="panel"]')!.classList.contains('expanded')).to.equal(true);
    el.collapse();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part~="panel"]')!.classList.contains('expanded')).to.equal(false);

    const ended = oneEvent(el, 'voice-agent-conversation-end');
    el.endConversation();
    expect((await ended).detail).to.include({ conversationId, reason: 'user' });
    el.close();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part~="panel"]'), 'closed').to.equal(null);

    expect(seen.filter((s) => s.type === 'voice-agent-status').map((s) => s.detail.status)).to.deep.equal(['connecting', 'connected', 'ended']);
    expect(seen.filter((s) => s.type === 'voice-agent-conversation').map((s) => s.detail.conversationId)).to.deep.equal([conversationId]);
    expect(seen.filter((s) => s.type === 'voice-agent-before-start').map((s) => s.detail.mode)).to.deep.equal(['text']);
    expect(seen.filter((s) => s.type === 'voice-agent-error')).to.deep.equal([]);
  });

  it('starts and ends a voice call through the API; the status events carry the turn', async function () {
    this.timeout(15000);
    const el = await mount('agent_minimal');
    const statuses: { status: string; turn: string | null }[] = [];
    el.addEventListener('voice-agent-status', (e) => statuses.push(e.detail));
    const modes: string[] = [];
    el.addEventListener('voice-agent-before-start', (e) => modes.push(e.detail.mode));
    const id = await el.startConversation({ mode: 'voice' });
    expect(id).to.match(/^conv_/);
    expect(modes).to.deep.equal(['voice']);
    await until(() => statuses.some((s) => s.status === 'connected' && s.turn !== null), 'a turn reported', 8000);
    const ended = oneEvent(el, 'voice-agent-conversation-end');
    el.endConversation();
    expect((await ended).detail.reason).to.equal('user');
    expect(statuses.at(-1)).to.deep.equal({ status: 'ended', turn: null });
  });

  it('cancels a start in voice-agent-before-start: nothing opens, startConversation rejects, sendUserMessage too', async () => {
    const el = await mount('agent_minimal');
    const statuses: unknown[] = [];
    el.addEventListener('voice-agent-status', (e) => statuses.push(e.detail));
    el.addEventListener('voice-agent-before-start', (e) => e.preventDefault());
    let error: unknown = null;
    await el.startConversation().catch((e) => (error = e));
    expect(String(error)).to.contain('did not start');
    let sendError: unknown = null;
    await el.sendUserMessage('hello').catch((e) => (sendError = e));
    expect(String(sendError)).to.contain('did not start');
    expect(statuses, 'no conversation opened').to.deep.equal([]);
  });

  it('a failing tool and an unknown tool are answered as errors, and told (voice-agent-error, client-tool)', async () => {
    const el = await mount('agent_minimal');
    el.clientTools = { get_page_time: () => Promise.reject(new Error('the clock is broken')) };
    const replies: string[] = [];
    el.addEventListener('voice-agent-message', (e) => e.detail.source === 'agent' && replies.push(e.detail.text));
    const failed = oneEvent(el, 'voice-agent-error');
    await el.sendUserMessage('tool please');
    expect((await failed).detail).to.include({ code: 'client-tool', message: 'the clock is broken' });
    await until(() => replies.some((r) => r.includes('The tool failed: the clock is broken')), 'the agent told of the failure');

    el.clientTools = {};
    const unknown = oneEvent(el, 'voice-agent-error');
    await el.sendUserMessage('the time?');
    expect((await unknown).detail.message).to.contain('is not registered');
    await until(() => replies.some((r) => r.includes('is not registered')), 'the agent told of the unknown tool');
  });

  it('before the configuration: a read that fails rejects startConversation with a clear error', async () => {
    const { result: error } = await captureConsole(async () => {
      const el = await mount('no_such_agent_for_the_host_api');
      return el.startConversation().then(() => null, (e: unknown) => e);
    });
    expect(String(error)).to.contain('could not read the widget configuration');
  });
});

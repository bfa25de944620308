/**
 * A conversation that survives the visitor's next click (issue 21), in the page: the real element against the reference
 * service over real sockets. An element moved in the document keeps its conversation, socket and call; an element that
 * left and one mounted in its place (what a framework does on another route) shows the conversation the tab kept
 * (sessionStorage, src/client/continuation.ts), and the next conversation tells the agent the earlier turns first.
 * Real page loads and reloads are tested in test/continuation/ (node --test, the built widget).
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { VoiceAgentConversationEvent } from '../../src/events/conversation.js';
import { CONTINUATION_OPT_OUT, continuationKey } from '../../src/client/continuation.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';
import { typeText, until } from '../helpers.js';
import { $, $$, mountWidget, openPanel, serviceUrl } from '../widget-helpers.js';
import { live, part, service, startCall } from './voice-helpers.js';

const AGENT = 'agent_minimal';
const KEY = continuationKey(serviceUrl, AGENT);

/** A visitor's text sent from the panel's input (the panel open), and the agent's reply to it shown. */
async function say(el: VoiceAgentWidget, text: string): Promise<void> {
  const replies = $$(el, '.message.agent:not(.greeting)').length;
  $<HTMLInputElement>(el, 'input')!.focus();
  await typeText(text);
  await sendKeys({ press: 'Enter' });
  await until(() => $$(el, '.message.agent:not(.greeting)[aria-busy="false"]').length > replies, `the reply to "${text}"`, 10000);
}

/** A second element of `agentId` mounted as a returning page would (no store emptied, unlike `mountWidget`). */
async function mountAgain(agentId = AGENT): Promise<VoiceAgentWidget> {
  const el = await fixture<VoiceAgentWidget>(html`<voice-agent-widget agent-id=${agentId} server-url=${serviceUrl}></voice-agent-widget>`);
  await until(() => el.shadowRoot?.querySelector('.launcher:not([disabled])'), 'the launcher');
  return el;
}

/** The texts of the transcript's messages and notices, in order. */
const lines = (el: VoiceAgentWidget): string[] =>
  $$(el, '.lines .message, .lines .notice').map((line) => line.textContent!.replace(/\s+/g, ' ').trim());

/** The service's transcript of a conversation, with its contextual updates (`source`). */
const recorded = (id: string): Promise<{ transcript: { role: string; message: string; source?: string }[] }> =>
  service('GET', `/v1/voiceai/conversations/${id}`);

/**
 * Moves `el` in one task into a new section at the end of the page, and counts the conversations it starts from then
 * on. `done()` removes both (moved out of its fixture, the element would stay in the page, holding its agent's key).
 */
function moveAway(el: VoiceAgentWidget): { other: HTMLElement; started: () => number; done: () => void } {
  let started = 0;
  el.addEventListener('voice-agent-conversation', () => started++);
  const other = document.createElement('section');
  document.body.append(other);
  other.append(el);
  return { other, started: () => started, done: () => (el.remove(), other.remove()) };
}

describe('a conversation kept across the pages of a visit', () => {
  it('nothing is kept before a conversation starts; from then on, the messages, not in localStorage', async () => {
    const el = await mountWidget(AGENT);
    await openPanel(el);
    expect(sessionStorage.getItem(KEY), 'the panel open, nothing said').to.equal(null);
    const id = await el.startConversation({ mode: 'text' });
    await say(el, 'kept text 1');
    const kept = JSON.parse(sessionStorage.getItem(KEY)!);
    expect(kept.messages.map((m: { role: string }) => m.role)).to.include.members(['agent', 'user']);
    expect(kept.messages.some((m: { text: string }) => m.text === 'kept text 1')).to.equal(true);
    expect(kept.open).to.equal(true);
    expect(kept.conversationId).to.equal(id);
    expect(Object.values(localStorage).some((value) => value.includes('kept text 1')), 'conversation text in localStorage').to.equal(false);
  });

  it('an element moved in the page in one task keeps its conversation and socket; moveBefore too', async () => {
    const el = await mountWidget(AGENT);
    await openPanel(el);
    const id = await el.startConversation({ mode: 'text' });
    await say(el, 'before the move');
    const moved = moveAway(el);
    try {
      await el.updateComplete;
      await new Promise((resolve) => setTimeout(resolve, 50));
      // The running conversation answers a start: the same one.
      expect(await el.startConversation({ mode: 'text' })).to.equal(id);
      expect(part(el, 'panel'), 'the panel stays open').to.exist;
      if ('moveBefore' in Element.prototype) {
        (document.body as HTMLElement & { moveBefore(node: Node, child: Node | null): void }).moveBefore(el, moved.other);
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(await el.startConversation({ mode: 'text' })).to.equal(id);
      }
      await say(el, 'after the move');
      expect(moved.started(), 'no new conversation').to.equal(0);
      expect(lines(el).filter((line) => line.endsWith('the move'))).to.deep.equal(['before the move', 'after the move']);
      const record = await recorded(id);
      expect(record.transcript.filter((t) => t.role === 'user').map((t) => t.message)).to.deep.equal(['before the move', 'after the move']);
    } finally {
      moved.done();
    }
  });

  it('a voice call goes on through a move in one task: still live, the same conversation', async function () {
    this.timeout(30000);
    const el = await mountWidget(AGENT);
    await openPanel(el);
    const id = await startCall(el);
    const moved = moveAway(el);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(live(el), 'the call is live after the move').to.equal(true);
      expect($(el, '.root.live'), 'its audio runs').to.exist;
      expect(await el.startConversation({ mode: 'voice' })).to.equal(id);
      expect(moved.started(), 'no new conversation').to.equal(0);
    } finally {
      moved.done();
    }
  });

  it('an element mounted after one left shows the kept conversation; the next one tells the agent first', async () => {
    const first = await mountWidget(AGENT);
    await openPanel(first);
    const firstId = await first.startConversation({ mode: 'text' });
    await say(first, 'hello from before');
    const before = lines(first);
    first.remove();
    await Promise.resolve();

    const el = await mountAgain();
    await until(() => part(el, 'panel') && $(el, '.divider'), 'the panel open with the earlier messages');
    expect(lines(el)).to.deep.equal([...before, 'Earlier in this visit']);
    expect($(el, '.divider')!.getAttribute('part')).to.equal('notice earlier-divider');
    await expect(el).to.be.accessible();
    expect(part(el, 'end-button'), 'no conversation runs until the visitor goes on').to.equal(null);

    const started = oneEvent<VoiceAgentConversationEvent>(el, 'voice-agent-conversation');
    await say(el, 'and now');
    const { detail } = await started;
    expect(detail.previousConversationId).to.equal(firstId);
    const record = await recorded(detail.conversationId);
    const user = record.transcript.filter((t) => t.role === 'user');
    expect(user[0]!.source, 'the contextual update first').to.equal('contextual_update');
    expect(user[0]!.message).to.contain(`(${firstId})`).and.contain('user: hello from before').and.contain('\nagent: ');
    expect(user[0]!.message).to.contain(`(${location.pathname})`).and.not.contain(location.search || '?');
    expect(user[1]!.message).to.equal('and now');
  });

  it('a second element of the same agent does not show the conversation twice', async () => {
    const first = await mountWidget(AGENT);
    await openPanel(first);
    await first.startConversation({ mode: 'text' });
    await say(first, 'only once');
    first.remove();
    await Promise.resolve();
    const a = await mountAgain();
    const b = await mountAgain();
    await until(() => $(a, '.divider'), 'the first restores');
    await new Promise((resolve) => setTimeout(resolve, 200));
    b.open();
    await until(() => part(b, 'panel') && !$(b, '.placeholder'), 'the second panel');
    expect($(b, '.divider'), 'the second element starts clean').to.equal(null);
    expect(lines(b).some((line) => line === 'only once')).to.equal(false);
  });

  it('ending the conversation forgets it', async () => {
    const el = await mountWidget(AGENT);
    await openPanel(el);
    await el.startConversation({ mode: 'text' });
    await say(el, 'to be forgotten');
    expect(sessionStorage.getItem(KEY)).to.not.equal(null);
    el.endConversation();
    await until(() => sessionStorage.getItem(KEY) === null, 'the continuation removed');
    el.remove();
    const again = await mountAgain();
    again.open();
    await until(() => part(again, 'panel') && !$(again, '.placeholder'), 'the panel');
    expect($(again, '.divider')).to.equal(null);
  });

  it('<html data-voice-agent-no-storage> keeps nothing and restores nothing', async () => {
    document.documentElement.setAttribute(CONTINUATION_OPT_OUT, '');
    try {
      const el = await mountWidget(AGENT);
      await openPanel(el);
      await el.startConversation({ mode: 'text' });
      await say(el, 'not kept');
      expect(sessionStorage.getItem(KEY)).to.equal(null);
      el.remove();
      sessionStorage.setItem(KEY, JSON.stringify({ v: 1, updatedAt: Date.now(), open: true, messages: [{ role: 'user', text: 'planted' }] }));
      const again = await mountAgain();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(part(again, 'panel'), 'not opened by a continuation').to.equal(null);
      again.open();
      await until(() => part(again, 'panel') && !$(again, '.placeholder'), 'the panel');
      expect(lines(again).includes('planted')).to.equal(false);
    } finally {
      document.documentElement.removeAttribute(CONTINUATION_OPT_OUT);
    }
  });

  it('a tampered store runs nothing: hostile markdown shown safely, wrong types dropped, 5 MB dropped', async () => {
    const win = window as typeof window & { __pwned?: number };
    const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>[x](javascript:window.__pwned=3) **bold**';
    sessionStorage.setItem(KEY, JSON.stringify({
      v: 1, updatedAt: Date.now(), open: true, conversationId: '"><img src=x onerror=alert(1)>',
      messages: [{ role: 'agent', text: hostile }, { role: 'user', text: hostile }, { role: 'system', text: 'x' }, { role: 'agent', text: 42 }, null],
    }));
    const el = await mountAgain();
    await until(() => $(el, '.divider'), 'restored');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(win.__pwned).to.equal(undefined);
    const agent = $(el, '.message.agent:not(.greeting)')!;
    // The link policy keeps a picture of the page's own origin (PROTOCOL.md section 2), without its handler.
    expect(agent.querySelector('script')?.outerHTML ?? null).to.equal(null);
    expect(agent.querySelector('[onerror]')?.outerHTML ?? null).to.equal(null);
    expect(agent.querySelector('a')?.outerHTML ?? null, 'no javascript: link').to.equal(null);
    expect(agent.querySelector('strong')!.textContent).to.equal('bold');
    expect($(el, '.message.user')!.textContent).to.contain('<img src=x');
    expect(lines(el), 'the wrong entries dropped').to.deep.equal(['x bold', hostile, 'Earlier in this visit']);
    el.remove();

    // As large as the engines let a page store (sessionStorage holds about 5 MB an origin: 10 MB is refused by the
    // browser itself); the 10 MB read is in test/unit/client/continuation.test.ts.
    sessionStorage.setItem(KEY, JSON.stringify({ v: 1, updatedAt: Date.now(), open: true, messages: [{ role: 'user', text: 'x'.repeat(2_400_000) }] }));
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warned.push(args.join(' '));
    try {
      const big = await mountAgain();
      await until(() => sessionStorage.getItem(KEY) === null, 'the 10 MB entry removed');
      expect(warned.some((line) => line.includes('dropped'))).to.equal(true);
      expect(part(big, 'panel'), 'nothing restored').to.equal(null);
    } finally {
      console.warn = warn;
    }
  });

  it('a call cannot outlive its element: the next one says it ended when the page changed, and offers a new call', async function () {
    this.timeout(30000);
    const el = await mountWidget(AGENT);
    await openPanel(el);
    await startCall(el);
    await until(() => $(el, '.message.agent:not(.greeting)[aria-busy="false"]'), "the agent's first message");
    await until(() => JSON.parse(sessionStorage.getItem(KEY)!).messages.length === 1, 'the first message kept');
    expect(JSON.parse(sessionStorage.getItem(KEY)!).call).to.equal(true);
    el.remove();
    await Promise.resolve();
    const again = await mountAgain();
    await until(() => $(again, '.divider'), 'restored');
    expect(lines(again).slice(-2)).to.deep.equal(['The call ended when the page changed.', 'Earlier in this visit']);
    expect(part(again, 'start-call-button')!.textContent!.trim()).to.equal('New call');
    expect(live(again)).to.equal(false);
    await expect(again).to.be.accessible();
  });
});

/**
 * A conversation across the routes of a single-page app (issue 21 item 3), alike for the React and Vue apps of
 * test/frameworks/apps/ (their routed app, `mountRoutes`: a root layout, two routes switched by state), against the
 * BUILT package and the reference service, in the real engines:
 * - the widget in the root layout: a route change re-renders the app around the same element, its socket open, its
 *   conversation and transcript untouched, no new conversation;
 * - the widget in a route's view: leaving the route unmounts it (its socket closes), coming back mounts a new element
 *   that shows the conversation the tab kept (the earlier messages, the "Earlier in this visit" divider, the panel
 *   open); the visitor's next message starts a conversation that continues it (`previousConversationId`, and the
 *   earlier turns told to the agent in a `contextual_update` before the message);
 * - the element moved in one task (the framework moving a keyed element; the page re-parenting it; `moveBefore` where
 *   the engine has it): the same conversation, the same open socket.
 * The tab's sessionStorage is emptied before and after each; no console error or warning (the frameworks' development
 * builds) throughout.
 */
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { apiKey } from '/__service__.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';
import { typeText, until } from '../helpers.js';
import type { MountedRoutedApp, MountRoutes, RoutedAppProps } from './apps/types.js';
import { AGENT_ID, countSockets, loadApp, serviceUrl, TERMS_KEY, watchConsole } from './scenario.js';

/** What a routed test works with. */
interface RoutedRun {
  label: string;
  app: MountedRoutedApp;
  container: HTMLElement;
  /** Every WebSocket the page opened since the mount. */
  sockets: WebSocket[];
  /** Every `voice-agent-conversation` detail, through the framework's event binding. */
  conversations: { conversationId: string; previousConversationId: string | null }[];
  /** The widget element in the app now, or null. */
  widget: () => VoiceAgentWidget | null;
  /** Runs when the test ends, passed or not (nodes it put in the page). */
  cleanup: (() => void)[];
}

/** Mounts app `name`'s routed app with the widget at `placement` on route `home`, runs `body`, unmounts it. */
async function withRoutedApp(name: string, placement: RoutedAppProps['placement'], body: (run: RoutedRun) => Promise<void>): Promise<void> {
  sessionStorage.clear();
  localStorage.setItem(TERMS_KEY, 'accepted');
  const { mountRoutes } = await loadApp<{ mountRoutes: MountRoutes }>(name);
  const label = `${name}-${placement}`;
  const { sockets, restore } = countSockets();
  const consoleLines = watchConsole();
  const container = document.createElement('div');
  document.body.append(container);
  const cleanup: (() => void)[] = [];
  let app: MountedRoutedApp | null = null;
  try {
    const conversations: RoutedRun['conversations'] = [];
    app = await mountRoutes(container, {
      serverUrl: serviceUrl,
      agentId: AGENT_ID,
      customerName: 'Grace',
      variant: 'compact',
      placement,
      route: 'home',
      widgetLast: false,
      onMessage: () => {},
      onConversation: (detail) => conversations.push({ conversationId: detail.conversationId, previousConversationId: detail.previousConversationId ?? null }),
    });
    await body({ label, app, container, sockets, conversations, widget: () => container.querySelector<VoiceAgentWidget>('voice-agent-widget'), cleanup });
    const mounted = app;
    app = null;
    mounted.unmount();
    await until(() => sockets.every((s) => s.readyState === WebSocket.CLOSED), `${label}: every socket closed after the unmount`);
    expect(consoleLines.lines, 'no console error or warning').to.deep.equal([]);
  } finally {
    // A failed test leaves nothing running for the next: the app unmounted (its sockets close), the page as it was.
    try {
      app?.unmount();
    } finally {
      for (const step of cleanup) step();
      restore();
      consoleLines.stop();
      container.remove();
      sessionStorage.clear();
    }
  }
}

const $ = <T extends Element = HTMLElement>(el: VoiceAgentWidget, selector: string): T | null => el.shadowRoot!.querySelector<T>(selector);

/** The texts of the transcript's messages and notices, in order. */
const lines = (el: VoiceAgentWidget): string[] =>
  [...el.shadowRoot!.querySelectorAll('.lines .message, .lines .notice')].map((line) => line.textContent!.replace(/\s+/g, ' ').trim());

/** The agent's complete replies shown. */
const replies = (el: VoiceAgentWidget): number => el.shadowRoot!.querySelectorAll('.lines .message.agent[aria-busy="false"]').length;

/** The panel is open and ready (not its loading placeholder). */
const panelOpen = (el: VoiceAgentWidget): boolean => !!$(el, '[part~="panel"]') && !$(el, '.placeholder');

/** A visitor's text typed in the panel's input and sent with Enter, and the agent's answer to it shown. */
async function say(run: RoutedRun, el: VoiceAgentWidget, text: string): Promise<void> {
  const before = replies(el);
  await until(() => $(el, 'input[part~="input"]'), `${run.label}: the composer`);
  $<HTMLInputElement>(el, 'input[part~="input"]')!.focus();
  await typeText(text);
  await sendKeys({ press: 'Enter' });
  await until(() => replies(el) > before && lines(el).some((line) => line.includes(`You said: ${text}`)), `${run.label}: the answer to "${text}"`, 10000);
}

/** As a visitor: the launcher, the panel's start button, the greeting ("Hi Grace!"), one message answered. */
async function talk(run: RoutedRun, el: VoiceAgentWidget): Promise<string> {
  await until(() => $(el, '.launcher:not([disabled])'), `${run.label}: the launcher ready (the configuration read)`);
  $<HTMLButtonElement>(el, '.launcher')!.click();
  await until(() => panelOpen(el) && $(el, '.start'), `${run.label}: the panel open`);
  $<HTMLButtonElement>(el, '.start')!.click();
  await until(() => run.conversations.length === 1, `${run.label}: voice-agent-conversation`);
  await until(() => lines(el).some((line) => line.includes('Hi Grace!')), `${run.label}: the greeting`);
  await say(run, el, `hello from ${run.label}`);
  return run.conversations[0]!.conversationId;
}

/** What the visitor's side of conversation `id` was at the reference service (its record), contextual updates included. */
async function userTurns(id: string): Promise<{ message: string; source?: string }[]> {
  const response = await fetch(`${serviceUrl}/v1/voiceai/conversations/${id}`, { headers: { 'x-api-key': apiKey } });
  expect(response.status, `the service's record of ${id}`).to.equal(200);
  const record = (await response.json()) as { transcript: { role: string; message: string; source?: string }[] };
  return record.transcript.filter((t) => t.role === 'user');
}

/** Lets whatever a change scheduled run (microtasks, a render, a timer): what a teardown would do has been done. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 100));

/**
 * The element `el` kept all it had: its conversation (`id`, the only one told) on its one socket, still open, the
 * transcript `shown` and the panel open.
 */
async function expectKept(run: RoutedRun, el: VoiceAgentWidget, id: string, shown: string[], step: string): Promise<void> {
  await settle();
  expect(el.isConnected, `${step}: the element in the page`).to.equal(true);
  expect(run.sockets.length, `${step}: no new socket`).to.equal(1);
  expect(run.sockets[0]!.readyState, `${step}: the socket open`).to.equal(WebSocket.OPEN);
  expect(run.conversations.map((c) => c.conversationId), `${step}: no new conversation`).to.deep.equal([id]);
  expect(lines(el), `${step}: the transcript unchanged`).to.deep.equal(shown);
  expect(panelOpen(el), `${step}: the panel open`).to.equal(true);
}

/** The widget in the app's root layout: route changes re-render the app around the same element, conversation untouched. */
async function layoutKeepsConversation(name: string): Promise<void> {
  await withRoutedApp(name, 'layout', async (run) => {
    const el = run.widget()!;
    expect(el, 'the widget rendered in the layout').to.exist;
    const id = await talk(run, el);
    const shown = lines(el);
    for (const route of ['pricing', 'home', 'pricing'] as const) {
      await run.app.update({ route });
      expect(run.container.querySelector('.route h2')!.textContent, 'the route rendered').to.equal(route === 'home' ? 'Home' : 'Pricing');
      // Compared as a boolean: on a failure chai would print the live elements, which hangs the page.
      expect(run.widget() === el, `route ${route}: the same element`).to.equal(true);
      await expectKept(run, el, id, shown, `route ${route}`);
    }
    // The conversation goes on where it was, on the same socket.
    await say(run, el, `still here ${run.label}`);
    expect(run.conversations.map((c) => c.conversationId), 'the same conversation').to.deep.equal([id]);
    expect(run.sockets.length, 'the same socket').to.equal(1);
    expect((await userTurns(id)).map((t) => t.message), 'both messages in the one conversation at the service')
      .to.deep.equal([`hello from ${run.label}`, `still here ${run.label}`]);
  });
}

/**
 * The widget in a route's view: leaving the route unmounts it, coming back mounts a new element that restores the
 * conversation from the tab's store; the next message continues it in a new conversation.
 */
async function routeRestoresConversation(name: string): Promise<void> {
  await withRoutedApp(name, 'route', async (run) => {
    const first = run.widget()!;
    expect(first, 'the widget rendered in the home view').to.exist;
    const firstId = await talk(run, first);
    const shown = lines(first);
    const said = `hello from ${run.label}`;
    await until(() => Object.values(sessionStorage).some((kept) => kept.includes(said) && kept.includes('You said')), `${run.label}: the conversation kept in sessionStorage`);

    await run.app.update({ route: 'pricing' });
    expect(run.widget(), 'another route: the widget unmounted').to.equal(null);
    expect(first.isConnected).to.equal(false);
    await until(() => run.sockets[0]!.readyState === WebSocket.CLOSED, `${run.label}: the unmounted element's socket closed`);

    await run.app.update({ route: 'home' });
    const el = run.widget()!;
    expect(el, 'back home: a widget again').to.exist;
    expect(el === first, 'a new element').to.equal(false);
    await until(() => panelOpen(el) && $(el, '[part~="earlier-divider"]'), `${run.label}: the panel open with the earlier messages`);
    expect(lines(el), 'the earlier messages, then the divider').to.deep.equal([...shown, 'Earlier in this visit']);
    expect(lines(el).some((line) => line === said), "the visitor's earlier text").to.equal(true);
    expect(lines(el).some((line) => line.includes(`You said: ${said}`)), "the agent's earlier reply").to.equal(true);
    expect($(el, '[part~="earlier-divider"]')!.getAttribute('part')).to.equal('notice earlier-divider');
    expect(run.sockets.length, 'no socket opened by the restore').to.equal(1);
    expect(run.conversations.length, 'no conversation started by the restore').to.equal(1);

    // The next message starts a conversation that continues the first.
    await say(run, el, `and now ${run.label}`);
    expect(run.conversations.length, 'a second conversation').to.equal(2);
    const second = run.conversations[1]!;
    expect(second.conversationId).to.not.equal(firstId);
    expect(second.previousConversationId, 'previousConversationId: the first conversation').to.equal(firstId);
    expect(run.sockets.length).to.equal(2);
    expect(run.sockets[1]!.readyState).to.equal(WebSocket.OPEN);
    // The agent was told the earlier turns before the visitor's message (the service's record of the conversation).
    const user = await userTurns(second.conversationId);
    expect(user[0]!.source, 'the contextual update first').to.equal('contextual_update');
    expect(user[0]!.message).to.contain(`user: ${said}`).and.contain('\nagent: ');
    expect(user[1]!.message).to.equal(`and now ${run.label}`);
  });
}

/**
 * The element moved in one task: by the framework (a keyed reorder: the widget put after its two siblings), by the page
 * (`el.remove()` then `other.append(el)`), and back with `moveBefore` where the engine has it: the same conversation,
 * on the same open socket.
 */
async function moveKeepsConversation(name: string): Promise<void> {
  await withRoutedApp(name, 'layout', async (run) => {
    const el = run.widget()!;
    const footer = el.parentElement!;
    expect(footer.localName).to.equal('footer');
    const id = await talk(run, el);
    const shown = lines(el);

    // The framework moves the element: a record of it leaving the footer shows it was removed and inserted again.
    const records: MutationRecord[] = [];
    const observer = new MutationObserver((delivered) => records.push(...delivered));
    observer.observe(footer, { childList: true });
    await run.app.update({ widgetLast: true });
    records.push(...observer.takeRecords());
    observer.disconnect();
    const removed = records.some((record) => [...record.removedNodes].includes(el));
    expect(removed, 'the framework moved the widget (removed and inserted it)').to.equal(true);
    expect(run.widget() === el && footer.lastElementChild === el, 'the same element, now last').to.equal(true);
    await expectKept(run, el, id, shown, 'moved by the framework');

    // The page re-parents it in one task.
    const other = document.createElement('aside');
    document.body.append(other);
    run.cleanup.push(() => other.remove());
    el.remove();
    other.append(el);
    await expectKept(run, el, id, shown, 'remove() then append() elsewhere');

    // And back where the framework has it (last in the footer): with moveBefore where the engine has it.
    const move = (footer as Element & { moveBefore?: (node: Node, child: Node | null) => void }).moveBefore;
    if (move) move.call(footer, el, null);
    else footer.append(el);
    expect(footer.lastElementChild === el, 'back in the footer').to.equal(true);
    await expectKept(run, el, id, shown, move ? 'moveBefore' : 'append() back');

    await say(run, el, `after the moves ${run.label}`);
    expect(run.conversations.map((c) => c.conversationId), 'the same conversation').to.deep.equal([id]);
    expect(run.sockets.length, 'the same socket').to.equal(1);
    expect((await userTurns(id)).map((t) => t.message), 'both messages in the one conversation at the service')
      .to.deep.equal([`hello from ${run.label}`, `after the moves ${run.label}`]);
  });
}

/**
 * The routed-app tests of `name`'s app (`describe`d as `title`): the widget in the root layout, in a route's view, and
 * moved in one task. Each test a first visit: the tab's store holds no earlier conversation.
 */
export function describeRoutes(name: 'react' | 'vue', title: string): void {
  describe(title, () => {
    beforeEach(() => sessionStorage.clear());

    it('the widget in the root layout: route changes keep the same element, socket and conversation', async function () {
      this.timeout(30000);
      await layoutKeepsConversation(name);
    });

    it("the widget in a route's view: mounted again, it restores the conversation; the next message continues it", async function () {
      this.timeout(30000);
      await routeRestoresConversation(name);
    });

    it('the widget moved in one task (a keyed reorder, remove() + append(), moveBefore): the same conversation and socket', async function () {
      this.timeout(30000);
      await moveKeepsConversation(name);
    });
  });
}

/**
 * `startConversation()` always settles (issue 16): removing the element while a start waits (the terms dialog, the
 * page's `voice-agent-before-start`, the handshake, the microphone) rejects the promise with a clear error within the
 * task of the removal, opens nothing after it, and leaves no listener on the element. Against the reference service
 * over real sockets.
 */
import { expect } from '@open-wc/testing';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';
import { until } from '../helpers.js';
import { $, mountWidget } from '../widget-helpers.js';

/**
 * Counts the listeners the widget itself adds to its element from now on (added minus removed, by type and callback),
 * so a test can tell that a settled start left none behind; the page's own (added through `page`) are not counted.
 */
function countListeners(el: VoiceAgentWidget): { left: () => string[]; page: (type: string, listener: (event: Event) => void) => void } {
  const added = new Map<EventListenerOrEventListenerObject, string>();
  const { addEventListener: add, removeEventListener: remove } = el;
  let own = false;
  el.addEventListener = function (this: VoiceAgentWidget, type: string, listener: EventListenerOrEventListenerObject, options?: unknown) {
    if (listener && !own) added.set(listener, type);
    return add.call(this, type, listener, options as AddEventListenerOptions);
  } as typeof el.addEventListener;
  el.removeEventListener = function (this: VoiceAgentWidget, type: string, listener: EventListenerOrEventListenerObject, options?: unknown) {
    if (listener) added.delete(listener);
    return remove.call(this, type, listener, options as EventListenerOptions);
  } as typeof el.removeEventListener;
  return {
    left: () => [...added.values()],
    page: (type, listener) => {
      own = true;
      el.addEventListener(type, listener);
      own = false;
    },
  };
}

/** How a start stands: settled with its outcome, or pending. Its handlers are attached at once (no unhandled rejection). */
interface Outcome {
  settled: boolean;
  value?: string;
  error?: Error;
}

/** Follows `promise` from now on. */
function track(promise: Promise<string>): Outcome {
  const state: Outcome = { settled: false };
  promise.then((value) => Object.assign(state, { settled: true, value }), (error: Error) => Object.assign(state, { settled: true, error }));
  return state;
}

/** `outcome` after the current task and one more (a `setTimeout` 0): what "within one task" of a removal allows. */
async function afterOneTask(outcome: Outcome): Promise<Outcome> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  return outcome;
}

/** The `voice-agent-status` events from now on (a page listener): any means something was opened. */
function statuses(watch: ReturnType<typeof countListeners>): string[] {
  const seen: string[] = [];
  watch.page('voice-agent-status', (e) => seen.push((e as CustomEvent).detail.status));
  return seen;
}

/** What a case of `startThenRemove` is given: the element, the page's listeners, and the removal to make. */
interface Removal {
  el: VoiceAgentWidget;
  watch: ReturnType<typeof countListeners>;
  /** The statuses seen so far. */
  seen: string[];
  /** Removes the element, noting the start's outcome one task later. */
  remove: () => void;
}

/**
 * Starts a conversation in `mode` on a fresh widget of `agentId` and removes the element where `arrange` says (it runs
 * before the start, to add page listeners; what it returns runs after the start, to wait for a moment), then checks
 * what every case must: the start settled within one task of the removal, saying the element left the page, and no
 * listener is left on the element.
 * @returns the statuses seen until 300 ms after the removal (what was opened)
 */
async function startThenRemove(mode: 'text' | 'voice', arrange: (removal: Removal) => (() => Promise<void>) | void, agentId = 'agent_minimal', askTerms = false): Promise<string[]> {
  const el = await mountWidget(agentId, {}, askTerms);
  const watch = countListeners(el);
  const seen = statuses(watch);
  let started!: Outcome;
  let afterRemoval: Promise<Outcome> | null = null;
  const remove = (): void => {
    expect(started.settled, 'pending until the removal').to.equal(false);
    el.remove();
    afterRemoval = afterOneTask(started);
  };
  const after = arrange({ el, watch, seen, remove });
  started = track(el.startConversation({ mode }));
  await after?.();
  await until(() => afterRemoval, 'the element removed');
  const state = { ...(await afterRemoval!) };
  expect(state.settled, 'settled within one task of the removal').to.equal(true);
  expect(state.error?.message).to.match(/left the page/);
  expect(watch.left(), 'no listener left on the element').to.deep.equal([]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  return seen;
}

describe('startConversation() settles when the element is removed', () => {
  it('during the handshake: rejects within the task and nothing connects after it', async () => {
    const seen = await startThenRemove('text', ({ seen, remove }) => async () => {
      // The socket is opening (status connecting): the handshake needs the service's answer, a task away at least.
      await until(() => seen.includes('connecting'), 'the socket opening');
      expect(seen, 'not connected yet').to.deep.equal(['connecting']);
      remove();
    });
    expect(seen, 'no handshake after the removal').to.deep.equal(['connecting']);
  });

  it('during the terms dialog: rejects within the task and opens nothing', async () => {
    const seen = await startThenRemove('text', ({ el, remove }) => {
      el.open();
      return async () => {
        await until(() => $<HTMLDialogElement>(el, 'dialog[part~="terms"]')?.open, 'the terms dialog open');
        remove();
      };
    }, 'agent_demo_support', true);
    expect(seen, 'no conversation opened').to.deep.equal([]);
  });

  it('during voice-agent-before-start (the page removes it in its listener): rejects within the task and opens nothing', async () => {
    const seen = await startThenRemove('text', ({ watch, remove }) => watch.page('voice-agent-before-start', remove));
    expect(seen, 'no socket opened after the removal').to.deep.equal([]);
  });

  it('while a call asks for the microphone: rejects within the task and opens no conversation', async () => {
    // The microphone is asked right after the page's before-start: remove the element before the answer comes.
    const seen = await startThenRemove('voice', ({ watch, remove }) => watch.page('voice-agent-before-start', () => queueMicrotask(remove)));
    expect(seen, 'no conversation opened').to.deep.equal([]);
  });

  it('a start that is not cut short still resolves to the conversation id, and a second start gets the same one', async () => {
    const el = await mountWidget('agent_minimal');
    const first = el.startConversation({ mode: 'text' });
    const second = el.startConversation({ mode: 'text' });
    const [a, b] = await Promise.all([first, second]);
    expect(a).to.match(/^conv_/);
    expect(b).to.equal(a);
    expect(await el.startConversation()).to.equal(a);
    el.endConversation();
  });
});

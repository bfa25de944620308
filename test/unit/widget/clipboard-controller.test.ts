import { expect } from '@open-wc/testing';
import { html } from 'lit';
import { COPIED_MS, ClipboardController } from '../../../src/widget/controllers/clipboard.js';
import { captureConsole } from '../../helpers.js';
import { detach, mountHost, type TestHost } from './host.js';

/** The `COPIED_MS` timers the controller set (held, not run: the test runs them) and the timers it cleared. */
const timers = { held: [] as { id: number; run: () => void }[], cleared: [] as unknown[] };
const realSetTimeout = window.setTimeout;
const realClearTimeout = window.clearTimeout;
let written: string[] = [];
let refuse: Error | null = null;

beforeEach(() => {
  timers.held = [];
  timers.cleared = [];
  written = [];
  refuse = null;
  let nextId = 1e6;
  window.setTimeout = ((run: () => void, ms?: number, ...rest: unknown[]) => {
    if (ms !== COPIED_MS) return realSetTimeout(run, ms, ...rest);
    const id = nextId++;
    timers.held.push({ id, run });
    return id;
  }) as typeof window.setTimeout;
  window.clearTimeout = ((id?: number) => {
    timers.cleared.push(id);
    realClearTimeout(id);
  }) as typeof window.clearTimeout;
  Object.defineProperty(navigator.clipboard, 'writeText', {
    configurable: true,
    value: async (text: string) => {
      if (refuse) throw refuse;
      written.push(text);
    },
  });
});
afterEach(() => {
  window.setTimeout = realSetTimeout;
  window.clearTimeout = realClearTimeout;
  delete (navigator.clipboard as { writeText?: unknown }).writeText;
});

/** A host rendering the copy button's label from the controller. */
async function mountClipboard(): Promise<{ host: TestHost; clipboard: ClipboardController }> {
  const { host, made: clipboard } = await mountHost((h) => {
    const made = new ClipboardController(h);
    h.content = () => html`<button>${made.copied ? 'Copied!' : 'Copy ID'}</button>`;
    return made;
  });
  return { host, clipboard };
}
const label = (host: TestHost): string => host.shadowRoot!.querySelector('button')!.textContent!;

describe('ClipboardController', () => {
  it('copies, says so for COPIED_MS, then not any more', async () => {
    const { host, clipboard } = await mountClipboard();
    expect(clipboard.copied).to.equal(false);
    await clipboard.copy('conv_1', 'conversation id');
    await host.updateComplete;
    expect(written).to.deep.equal(['conv_1']);
    expect(clipboard.copied).to.equal(true);
    expect(label(host)).to.equal('Copied!');
    expect(timers.held).to.have.length(1);

    timers.held[0]!.run();
    await host.updateComplete;
    expect(clipboard.copied).to.equal(false);
    expect(label(host)).to.equal('Copy ID');
  });

  it('restarts the timer on a second copy', async () => {
    const { clipboard } = await mountClipboard();
    await clipboard.copy('one', 'conversation id');
    await clipboard.copy('two', 'conversation id');
    expect(timers.held).to.have.length(2);
    expect(timers.cleared).to.include(timers.held[0]!.id);
  });

  it('clears its timer and the copied flag when the host leaves', async () => {
    const { host, clipboard } = await mountClipboard();
    await clipboard.copy('conv_1', 'conversation id');
    detach(host);
    expect(timers.cleared).to.include(timers.held[0]!.id);
    expect(clipboard.copied).to.equal(false);
  });

  it('warns when the copy is refused, and does not say copied', async () => {
    const { host, clipboard } = await mountClipboard();
    refuse = new DOMException('Write permission denied.', 'NotAllowedError');
    const { warnings, errors } = await captureConsole(() => clipboard.copy('conv_1', 'conversation id'));
    await host.updateComplete;
    expect(warnings).to.deep.equal(['[voice-agent-widget] could not copy the conversation id: Write permission denied.']);
    expect(errors).to.deep.equal([]);
    expect(clipboard.copied).to.equal(false);
    expect(label(host)).to.equal('Copy ID');
    expect(timers.held).to.deep.equal([]);
  });
});

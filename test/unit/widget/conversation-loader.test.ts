/**
 * ConversationLoaderController (src/widget/controllers/conversation-loader.ts) with a fake `import()` and a fake
 * conversation module (DESIGN.md rule 11: one module, faked around): when it loads (idle, intent), that the page loads
 * it once, a failure told and tried again, and the idle wait released on removal.
 */
import { expect } from '@open-wc/testing';
import { ClientToolStore } from '../../../src/widget/client-tools.js';
import type { ConversationPanel, PanelShell } from '../../../src/widget/conversation-panel.js';
import { ConversationLoaderController, type ImportConversation } from '../../../src/widget/controllers/conversation-loader.js';
import { detach, mountHost, type TestHost } from './host.js';

/** A fake `import()`: counts calls; each answers with a module whose panel records its shell, or fails when told. */
function fakeImport(fail: () => boolean = () => false): { importModule: ImportConversation; calls: () => number; made: PanelShell[] } {
  let calls = 0;
  const made: PanelShell[] = [];
  class FakePanel {
    constructor(shell: PanelShell) {
      made.push(shell);
    }
  }
  const importModule = (async () => {
    calls += 1;
    if (fail()) throw new TypeError('Failed to fetch dynamically imported module: x.js');
    return { ConversationPanel: FakePanel };
  }) as unknown as ImportConversation;
  return { importModule, calls: () => calls, made };
}

const shellOf = (host: TestHost): PanelShell => ({
  host, tools: new ClientToolStore(), attributes: () => ({}) as never, toggle: () => {}, onKeydown: () => {}, chooseLanguage: () => {}, value: () => null,
  expanded: () => false, setExpanded: () => {},
});

/** Holds `requestIdleCallback` so a test decides when the browser is idle. */
function holdIdle(): { run: () => void; pending: () => number; restore: () => void } {
  const callbacks = new Map<number, IdleRequestCallback>();
  let next = 1;
  const { requestIdleCallback: request, cancelIdleCallback: cancel } = window;
  window.requestIdleCallback = (callback) => (callbacks.set(next, callback), next++);
  window.cancelIdleCallback = (id) => void callbacks.delete(id);
  return {
    run: () => {
      for (const [id, callback] of [...callbacks]) (callbacks.delete(id), callback({ didTimeout: false, timeRemaining: () => 50 }));
    },
    pending: () => callbacks.size,
    restore: () => Object.assign(window, { requestIdleCallback: request, cancelIdleCallback: cancel }),
  };
}

describe('ConversationLoaderController', () => {
  it('loads when the browser goes idle once asked (the launcher usable), with no intent, and makes the panel with the element\'s shell', async () => {
    const idle = holdIdle();
    try {
      const fake = fakeImport();
      const ready: unknown[] = [];
      const { host, made: loader } = await mountHost((h) => new ConversationLoaderController(h, shellOf(h), (panel) => ready.push(panel), fake.importModule));
      expect(idle.pending(), 'no idle wait before the launcher is usable').to.equal(0);
      loader.preloadWhenIdle();
      loader.preloadWhenIdle();
      expect(fake.calls(), 'nothing before idle').to.equal(0);
      expect(loader.status).to.equal('idle');
      expect(idle.pending(), 'one idle wait').to.equal(1);
      idle.run();
      expect(loader.status).to.equal('loading');
      await loader.load();
      expect(fake.calls()).to.equal(1);
      expect(loader.status).to.equal('ready');
      expect(fake.made).to.have.length(1);
      expect(fake.made[0]!.host).to.equal(host);
      expect(ready).to.deep.equal([loader.panel]);
    } finally {
      idle.restore();
    }
  });

  it('where the build can preload (the script-tag build\'s modulepreload), only preloads at idle: the module runs on intent', async () => {
    const idle = holdIdle();
    try {
      const fake = fakeImport();
      let preloads = 0;
      const { made: loader } = await mountHost((h) => new ConversationLoaderController(h, shellOf(h), () => {}, fake.importModule, () => (preloads++, true)));
      loader.preloadWhenIdle();
      idle.run();
      expect([preloads, fake.calls(), loader.status], 'preloaded, not imported').to.deep.equal([1, 0, 'idle']);
      loader.preloadWhenIdle();
      expect(idle.pending(), 'no second idle wait').to.equal(0);
      await loader.load();
      expect([preloads, fake.calls(), loader.status]).to.deep.equal([1, 1, 'ready']);
    } finally {
      idle.restore();
    }
  });

  it('after a preload, a failed import is tried once more before it is told (the preload\'s failure kept in the module map)', async () => {
    const idle = holdIdle();
    try {
      let failures = 1;
      const fake = fakeImport(() => failures-- > 0);
      const { made: loader } = await mountHost((h) => new ConversationLoaderController(h, shellOf(h), () => {}, fake.importModule, () => true));
      loader.preloadWhenIdle();
      idle.run();
      await loader.load();
      expect([fake.calls(), loader.status]).to.deep.equal([2, 'ready']);
    } finally {
      idle.restore();
    }
  });

  it('imports once for every element of the page; a later element makes its panel at once', async () => {
    const fake = fakeImport();
    const first = await mountHost((h) => new ConversationLoaderController(h, shellOf(h), () => {}, fake.importModule));
    const second = await mountHost((h) => new ConversationLoaderController(h, shellOf(h), () => {}, fake.importModule));
    const [a, b] = await Promise.all([first.made.load(), second.made.load()]);
    expect(fake.calls()).to.equal(1);
    expect(a).to.not.equal(b);
    const third = await mountHost((h) => new ConversationLoaderController(h, shellOf(h), () => {}, fake.importModule));
    third.made.createIfLoaded();
    expect(third.made.panel, 'made synchronously').to.not.equal(null);
    expect(fake.calls()).to.equal(1);
  });

  it('tells a failed load (status failed, console), rejects, and loads again on the next intent', async () => {
    let failing = true;
    const fake = fakeImport(() => failing);
    const { host, made: loader } = await mountHost((h) => new ConversationLoaderController(h, shellOf(h), () => {}, fake.importModule));
    const events: { code: string; message: string }[] = [];
    host.addEventListener('voice-agent-error', (e) => events.push((e as CustomEvent).detail));
    const logged: string[] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => void logged.push(args.map(String).join(' '));
    let error: Error | null = null;
    try {
      await loader.load().catch((e: Error) => (error = e));
    } finally {
      console.error = consoleError;
    }
    expect(String(error)).to.contain('the conversation part could not be loaded: Failed to fetch dynamically imported module');
    expect(loader.status).to.equal('failed');
    expect(loader.panel).to.equal(null);
    expect(logged.some((line) => line.includes('beside voice-agent-widget.js'))).to.equal(true);
    expect(events.map((e) => e.code)).to.deep.equal(['load']);
    failing = false;
    const panel: ConversationPanel = await loader.load();
    expect(panel).to.equal(loader.panel);
    expect(loader.status).to.equal('ready');
    expect(fake.calls()).to.equal(2);
  });

  it('releases the idle wait when the element leaves the page (nothing loads for a removed element)', async () => {
    const idle = holdIdle();
    try {
      const fake = fakeImport();
      const { host, made: loader } = await mountHost((h) => new ConversationLoaderController(h, shellOf(h), () => {}, fake.importModule));
      loader.preloadWhenIdle();
      expect(idle.pending()).to.equal(1);
      const putBack = detach(host);
      expect(idle.pending(), 'idle callback cancelled').to.equal(0);
      idle.run();
      expect(fake.calls()).to.equal(0);
      await putBack();
      expect(idle.pending(), 'waiting again once back in the page').to.equal(1);
    } finally {
      idle.restore();
    }
  });
});

/**
 * The built script-tag build loaded from the service's origin into a page of another origin, as a site owner embeds it:
 * no server-url, so the widget talks to the script's origin. dist/voice-agent-widget.js is a classic script (the
 * launcher); the conversation is a module chunk beside it, loaded on intent (vite.config.ts, scripts/classic-entry.mjs).
 * The test server also serves the folder as a slow host (/slow/<ms>/: chunks late), a broken one (/no-chunks/) and a
 * flaky one (/flaky/: each chunk's first request fails).
 */
import { expect, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { serviceUrl } from '/__service__.js';
import { typeText, until } from '../helpers.js';

// Each test a first visit: a srcdoc frame shares this page's sessionStorage, where an earlier test's conversation is
// kept for the next page (src/client/continuation.ts) and would be shown again, its chunk loaded at once.
beforeEach(() => sessionStorage.clear());

async function embed(body: string): Promise<{ frame: HTMLIFrameElement; win: Window & typeof globalThis; errors: string[] }> {
  const frame = document.createElement('iframe');
  frame.style.cssText = 'width: 800px; height: 700px; border: 0';
  const errors: string[] = [];
  frame.srcdoc = `<!doctype html><html lang="en"><head><title>embed</title></head><body>${body}</body></html>`;
  const loaded = oneEvent(frame, 'load');
  document.body.append(frame);
  await loaded;
  const win = frame.contentWindow as Window & typeof globalThis;
  win.addEventListener('error', (e) => errors.push(e.message));
  return { frame, win, errors };
}

/** Opens the embedded widget's panel once its configuration is read, and sends `text` from its input as a visitor. */
async function sendFromPanel(root: () => ShadowRoot, text: string): Promise<void> {
  await until(() => root().querySelector('.launcher:not([disabled])'), 'config read from the script origin');
  (root().querySelector('.launcher') as HTMLButtonElement).click();
  await until(() => root().querySelector('input'), 'panel');
  const input = root().querySelector('input') as HTMLInputElement;
  input.focus();
  // Keys go to the focused frame: type only once the input holds focus in a frame that has it (a WebKit CI run lost
  // the first key, "ello"; a frame not yet focused is one way that happens).
  await until(() => root().activeElement === input && input.ownerDocument.hasFocus(), 'the input focused');
  await typeText(text);
  await sendKeys({ press: 'Enter' });
}

describe('script-tag bundle from another origin', () => {
  it('registers the element once, even loaded twice, and holds a conversation with the script origin', async () => {
    const script = `<script src="${serviceUrl}/voice-agent-widget.js"></script>`;
    const { frame, win, errors } = await embed(`${script}${script}<voice-agent-widget agent-id="agent_text_only"></voice-agent-widget>`);
    try {
      expect(new URL(serviceUrl).origin).to.not.equal(location.origin);
      expect(win.customElements.get('voice-agent-widget')).to.be.a('function');
      const el = win.document.querySelector('voice-agent-widget')!;
      const root = () => el.shadowRoot!;
      await sendFromPanel(root, 'hello from an embed');
      await until(
        () => [...root().querySelectorAll('.message.agent')].some((m) => m.textContent!.includes('You said: hello from an embed')),
        'the agent answered over the socket',
      );
      expect(errors).to.deep.equal([]);
      expect(typeof (win as unknown as Record<string, unknown>)['VoiceAgentWidget']).to.equal('undefined');
    } finally {
      frame.remove();
    }
  });

  // The build minifies the templates' whitespace: the mark keeps its space in its text, not in the template.
  it('marks a message that did not reach the agent as "<text> (An error occurred)", after one error notice', async () => {
    const socket = `${serviceUrl.replace(/^http/, 'ws')}/v1/voiceai/conversation?agent_id=no_such_agent&amp;conversation_signature=embed`;
    const { frame, win, errors } = await embed(
      `<script src="${serviceUrl}/voice-agent-widget.js"></script><voice-agent-widget agent-id="agent_text_only" signed-url="${socket}"></voice-agent-widget>`,
    );
    try {
      const root = () => win.document.querySelector('voice-agent-widget')!.shadowRoot!;
      await sendFromPanel(root, 'hello');
      await until(() => root().querySelector('.message.user.unsent'), 'the message marked unsent');
      expect(root().querySelector('.message.user.unsent')!.textContent!.trim()).to.equal('hello (An error occurred)');
      expect([...root().querySelectorAll('[part="notice"]')].map((n) => n.textContent!.trim())).to.deep.equal(['An error occurred']);
      expect(errors).to.deep.equal([]);
    } finally {
      frame.remove();
    }
  });
});

/**
 * axe-core run in the frame's own document (axe checks the document it is loaded in): the ids and first targets of the
 * violations found in `el`.
 */
async function axeViolations(win: Window, el: Element): Promise<string[]> {
  type Axe = { run(context: Element): Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> };
  const frame = win as Window & { axe?: Axe };
  if (!frame.axe) {
    const script = win.document.createElement('script');
    script.src = new URL('/node_modules/axe-core/axe.min.js', location.href).href;
    const loaded = new Promise((resolve, reject) => ((script.onload = resolve), (script.onerror = reject)));
    win.document.head.append(script);
    await loaded;
  }
  const { violations } = await frame.axe!.run(el);
  return violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes[0]?.target)}`);
}

/** The widget's chunk requests (`voice-agent-widget-*.js`) the frame's page made, as resource timing lists them. */
const chunkRequests = (win: Window): PerformanceResourceTiming[] =>
  (win.performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => /\/voice-agent-widget-[^/]+\.js$/.test(e.name));

/**
 * Counts the reads of the script-tag build's shared global (scripts/classic-entry.mjs), which the conversation chunk
 * reads as it runs (its imports from the first script): 0 while the chunk is only fetched and compiled.
 */
function countChunkRuns(win: Window): () => number {
  const key = Object.getOwnPropertySymbols(win).find((symbol) => symbol.description?.startsWith('voice-agent-widget:'));
  if (!key) throw new Error('no shared global of the script-tag build');
  const value = (win as unknown as Record<symbol, unknown>)[key];
  let reads = 0;
  Object.defineProperty(win, key, { configurable: true, get: () => (reads++, value) });
  return () => reads;
}

/**
 * Watches the page's head for `modulepreload` links (added from the moment the frame has loaded: the preload waits for
 * idle after it): `idle()` resolves once one was added and is gone again (its chunk loaded or failed), and the page is idle.
 */
function watchPreloads(win: Window & typeof globalThis): { linked: string[]; idle: () => Promise<void> } {
  const linked: string[] = [];
  let removed = 0;
  new win.MutationObserver((records) => records.forEach((r) => {
    r.addedNodes.forEach((n) => n instanceof win.HTMLLinkElement && linked.push(`${n.rel} ${n.href}`));
    r.removedNodes.forEach((n) => n instanceof win.HTMLLinkElement && removed++);
  })).observe(win.document.head, { childList: true });
  return {
    linked,
    idle: async () => {
      await until(() => linked.length > 0 && removed === linked.length, 'the chunk preloaded at idle', 10000);
      await new Promise((resolve) => win.requestIdleCallback ? win.requestIdleCallback(resolve, { timeout: 1000 }) : win.setTimeout(resolve, 200));
    },
  };
}

describe('script-tag build: the launcher first, the conversation on intent', () => {
  it('fetches the conversation chunk at idle without running it (a prefetch in Chromium, else a modulepreload); a press runs it with no second request', async function () {
    this.timeout(20000);
    // A folder of its own (/slow/1/: chunks 1 ms late), so that no other test's request or cached copy counts here.
    const { frame, win, errors } = await embed(`<script src="${serviceUrl}/slow/1/voice-agent-widget.js"></script><voice-agent-widget agent-id="agent_text_only"></voice-agent-widget>`);
    try {
      const el = win.document.querySelector('voice-agent-widget')!;
      const root = () => el.shadowRoot!;
      const preloads = watchPreloads(win);
      await until(() => root()?.querySelector('.launcher:not([disabled])'), 'launcher usable');
      const runs = countChunkRuns(win);
      await preloads.idle();
      const chunk = chunkRequests(win).map((e) => e.name);
      expect(chunk.map((url) => url.replace(/.*\//, '').replace(/-[0-9a-f]{10}\.js$/, '')), 'the conversation chunk, fetched').to.deep.equal(['voice-agent-widget-conversation-panel']);
      const requested = async (): Promise<number> => (await fetch(`${serviceUrl}/requested${new URL(chunk[0]).pathname}`)).json();
      expect(await requested(), 'one request').to.equal(1);
      // A prefetch in Chromium; elsewhere a modulepreload (Safari has none; Firefox judges it by default-src).
      const rel = 'userAgentData' in navigator ? 'prefetch' : 'modulepreload';
      expect(preloads.linked, 'one link for that chunk, removed once loaded').to.deep.equal([`${rel} ${chunk[0]}`]);
      expect(runs(), 'the chunk has not run').to.equal(0);
      root().querySelector<HTMLButtonElement>('.launcher')!.click();
      await until(() => root().querySelector('.composer input'), 'the panel');
      expect(runs(), 'the press ran the chunk').to.be.greaterThan(0);
      expect(await requested(), 'no second request').to.equal(1);
      expect(errors).to.deep.equal([]);
    } finally {
      frame.remove();
    }
  });

  it('loads the chunk at the first press when its preload at idle failed (a flaky host), with no failure shown', async function () {
    this.timeout(20000);
    const { frame, win, errors } = await embed(`<script src="${serviceUrl}/flaky/1/voice-agent-widget.js"></script><voice-agent-widget agent-id="agent_text_only"></voice-agent-widget>`);
    try {
      const el = win.document.querySelector('voice-agent-widget')!;
      const root = () => el.shadowRoot!;
      const preloads = watchPreloads(win);
      await until(() => root()?.querySelector('.launcher:not([disabled])'), 'launcher usable');
      await preloads.idle();
      root().querySelector<HTMLButtonElement>('.launcher')!.click();
      await until(() => root().querySelector('.composer input, [part~="retry-button"]'), 'the panel or its failure');
      expect(!!root().querySelector('[part~="retry-button"]'), 'no failure shown').to.equal(false);
      expect(errors).to.deep.equal([]);
    } finally {
      frame.remove();
    }
  });

  it('paints a usable launcher before the conversation chunk has arrived; a press opens the loading panel at once, then the panel, same box, focus in the input', async function () {
    this.timeout(20000);
    const { frame, win, errors } = await embed(`<script src="${serviceUrl}/slow/2500/voice-agent-widget.js" async></script><voice-agent-widget agent-id="agent_text_only"></voice-agent-widget>`);
    try {
      const el = win.document.querySelector('voice-agent-widget')!;
      const root = () => el.shadowRoot!;
      await until(() => root()?.querySelector('.launcher:not([disabled])'), 'launcher usable');
      // The chunk is asked for (idle after load, or now) and held by the slow host: nothing of it has arrived.
      expect(chunkRequests(win), 'no chunk arrived before the launcher was usable').to.deep.equal([]);
      const launcher = root().querySelector<HTMLButtonElement>('.launcher')!;
      launcher.focus();
      launcher.click();
      await (el as unknown as { updateComplete: Promise<unknown> }).updateComplete;
      const placeholder = root().querySelector('[part~="panel"] .placeholder');
      expect(placeholder, 'the loading panel, at once').to.not.equal(null);
      expect(placeholder!.getAttribute('role')).to.equal('status');
      expect(placeholder!.textContent).to.contain('Loading');
      expect(launcher.getAttribute('aria-expanded')).to.equal('true');
      expect(await axeViolations(win, el), 'the loading state passes axe').to.deep.equal([]);
      const box = root().querySelector('[part~="panel"]')!.getBoundingClientRect();
      await until(() => root().querySelector('.composer input'), 'the panel, once the chunk arrived', 10000);
      const after = root().querySelector('[part~="panel"]')!.getBoundingClientRect();
      expect([after.x, after.y, after.width, after.height], 'no layout jump').to.deep.equal([box.x, box.y, box.width, box.height]);
      await until(() => root().activeElement === root().querySelector('.composer input'), 'focus in the text input');
      expect(chunkRequests(win).map((e) => e.name)).to.have.length(1);
      expect(errors).to.deep.equal([]);
    } finally {
      frame.remove();
    }
  });

  it('tells a chunk that cannot be loaded in the panel and in the console, and rejects startConversation clearly', async () => {
    const { frame, win, errors } = await embed(`<script src="${serviceUrl}/no-chunks/voice-agent-widget.js"></script><voice-agent-widget agent-id="agent_text_only"></voice-agent-widget>`);
    const logged: string[] = [];
    const consoleError = win.console.error;
    win.console.error = (...args: unknown[]) => void logged.push(args.map(String).join(' '));
    try {
      const el = win.document.querySelector('voice-agent-widget') as HTMLElement & { startConversation(): Promise<string> };
      const root = () => el.shadowRoot!;
      await until(() => root()?.querySelector('.launcher:not([disabled])'), 'launcher usable');
      root().querySelector<HTMLButtonElement>('.launcher')!.click();
      await until(() => root().querySelector('[part~="panel"] [role="alert"]'), 'the failure in the panel');
      expect(root().querySelector('[part~="panel"] [role="alert"]')!.textContent).to.equal('The conversation could not be loaded.');
      expect(root().querySelector('[part~="retry-button"]')!.textContent).to.equal('Try again');
      expect(await axeViolations(win, el), 'the failed state passes axe').to.deep.equal([]);
      expect(logged.some((line) => line.includes('the conversation part could not be loaded') && line.includes('voice-agent-widget-')), logged.join('\n')).to.equal(true);
      let rejected: Error | null = null;
      await el.startConversation().catch((error: Error) => (rejected = error));
      expect(String(rejected)).to.contain('the conversation part could not be loaded');
      expect(errors, 'nothing escapes').to.deep.equal([]);
    } finally {
      win.console.error = consoleError;
      frame.remove();
    }
  });

  // Firefox keeps a module whose fetch failed as failed for the page's life (the HTML module map's older rule), so a
  // second import() of the same URL fails without a request: a retry asks for `?retry=N` (scripts/classic-entry.mjs).
  it('loads the chunk again when the visitor tries again after a failed load (a flaky host)', async () => {
    const { frame, win, errors } = await embed(`<script src="${serviceUrl}/flaky/voice-agent-widget.js"></script><voice-agent-widget agent-id="agent_text_only"></voice-agent-widget>`);
    try {
      const el = win.document.querySelector('voice-agent-widget')!;
      const root = () => el.shadowRoot!;
      await until(() => root()?.querySelector('.launcher:not([disabled])'), 'launcher usable');
      root().querySelector<HTMLButtonElement>('.launcher')!.click();
      await until(() => root().querySelector('[part~="retry-button"]'), 'the failure in the panel');
      root().querySelector<HTMLButtonElement>('[part~="retry-button"]')!.click();
      await until(() => root().querySelector('.composer input'), 'the panel after trying again');
      expect(errors).to.deep.equal([]);
    } finally {
      frame.remove();
    }
  });
});

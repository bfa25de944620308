/**
 * What every framework app goes through (test/frameworks/*.test.ts), in real Chromium against the reference service:
 * the app (bundled against the built package by bundle-apps.mjs) renders `<voice-agent-widget>` with the object
 * property `dynamicVariables`; a text conversation whose first message is filled from it ("Hi Grace!") and a typed
 * message answered, every message seen through the framework's own event binding; a re-render with a new variant and
 * a new dynamic variable, taking effect on the same element (the next conversation says "Hi Ada!"); the unmount closes
 * every socket. No console error or warning (the frameworks' development builds) throughout.
 *
 * Nothing from src/ is imported here but types: the element is the one the app's bundle registered.
 */
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { serviceUrl } from '/__service__.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';
import { typeText, until } from '../helpers.js';
import type { AppProps, MountedApp } from './apps/types.js';

export { serviceUrl };

/** The full fixture agent: first message `Hi {{customer_name}}! I'm the Acme assistant. How can I help?`. */
export const AGENT_ID = 'agent_demo_support';

/** The terms of `agent_demo_support` count as accepted (a returning visitor), as in test/widget-helpers.ts. */
export const TERMS_KEY = 'acme_terms_v3';

export type MountApp = (container: HTMLElement, props: AppProps) => Promise<MountedApp>;

/** Loads the bundle of app `name` (react, vue, svelte, angular), served by bundle-apps.mjs; importing it registers the widget. */
export async function loadApp<T = { mount: MountApp }>(name: string): Promise<T> {
  const url = `/__frameworks__/${name}/app.js`;
  return (await import(url)) as T;
}

/** Counts the page's WebSockets by wrapping window.WebSocket (as test/integration/lifecycle.test.ts); `restore` undoes it. */
export function countSockets(): { sockets: WebSocket[]; restore: () => void } {
  const sockets: WebSocket[] = [];
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      sockets.push(this);
    }
  };
  return { sockets, restore: () => void (window.WebSocket = NativeWebSocket) };
}

/** Collects console.error and console.warn lines until `stop`. */
export function watchConsole(): { lines: string[]; stop: () => void } {
  const lines: string[] = [];
  const { error, warn } = console;
  console.error = (...args: unknown[]) => (lines.push(`error: ${args.map(String).join(' ')}`), error.apply(console, args));
  console.warn = (...args: unknown[]) => (lines.push(`warn: ${args.map(String).join(' ')}`), warn.apply(console, args));
  return { lines, stop: () => Object.assign(console, { error, warn }) };
}

/**
 * Runs the scenario with `mountApp` (an app's `mount`, or the React hydration). `before`, when given, runs once the
 * container is in the page and before `mountApp` (the server-rendered markup goes in there).
 */
export async function runScenario(
  mountApp: () => Promise<MountApp>,
  options: { label: string; before?: (container: HTMLElement) => void | Promise<void>; dynamicVariablesAs?: 'property' | 'attribute' },
): Promise<void> {
  const asAttribute = options.dynamicVariablesAs === 'attribute';
  localStorage.setItem(TERMS_KEY, 'accepted');
  const { sockets, restore } = countSockets();
  const consoleLines = watchConsole();
  const container = document.createElement('div');
  document.body.append(container);
  try {
    await options.before?.(container);
    const mount = await mountApp();
    const messages: { source: string; text: string }[] = [];
    const conversations: string[] = [];
    const app = await mount(container, {
      serverUrl: serviceUrl,
      agentId: AGENT_ID,
      customerName: 'Grace',
      variant: 'compact',
      onMessage: (detail) => messages.push({ source: detail.source, text: detail.text }),
      onConversation: (detail) => conversations.push(detail.conversationId),
    });

    // Rendered, registered by the built package, the object given as a property (no attribute; or, server-rendered,
    // as its JSON attribute), strings as attributes or properties, whichever the framework chose.
    const el = container.querySelector<VoiceAgentWidget>('voice-agent-widget')!;
    expect(el, 'the widget rendered').to.exist;
    expect(el).to.be.instanceOf(customElements.get('voice-agent-widget')!);
    expect(el.dynamicVariables, 'dynamicVariables, an object').to.deep.equal({ customer_name: 'Grace' });
    expect(el.getAttribute('dynamic-variables'), 'no "[object Object]" attribute').to.equal(asAttribute ? '{"customer_name":"Grace"}' : null);
    expect(el.agentId).to.equal(AGENT_ID);
    expect(el.serverUrl).to.equal(serviceUrl);
    expect(el.variant).to.equal('compact');
    await until(() => el.shadowRoot?.querySelector('.launcher:not([disabled])'), `${options.label}: the widget ready`);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part~="root"]')!.classList.contains('compact'), 'the variant property took effect').to.equal(true);

    // A text conversation: the first message filled from the object property, a typed message answered; both seen
    // through the framework's event binding.
    // As a visitor: the launcher, then the panel's start button.
    const root = el.shadowRoot!;
    root.querySelector<HTMLButtonElement>('.launcher')!.click();
    await until(() => root.querySelector('[part~="panel"]') && !root.querySelector('.placeholder') && root.querySelector('.start'), `${options.label}: the panel open`);
    root.querySelector<HTMLButtonElement>('.start')!.click();
    await until(() => conversations.length === 1, `${options.label}: voice-agent-conversation through the framework's event binding`);
    const firstId = conversations[0];
    expect(firstId).to.match(/^conv_/);
    await until(() => messages.some((m) => m.source === 'agent' && m.text.includes('Hi Grace!')), `${options.label}: "Hi Grace!" through the framework's event binding`);
    await until(() => root.querySelector('input[part~="input"]'), `${options.label}: the composer`);
    root.querySelector<HTMLInputElement>('input[part~="input"]')!.focus();
    await typeText(`hello from ${options.label}`);
    await sendKeys({ press: 'Enter' });
    await until(() => messages.some((m) => m.source === 'agent' && m.text.includes(`You said: **hello from ${options.label}**`)), `${options.label}: the agent's answer`);
    expect(messages.filter((m) => m.source === 'user').map((m) => m.text)).to.deep.equal([`hello from ${options.label}`]);
    expect(conversations).to.deep.equal([firstId]);
    expect([...root.querySelectorAll('.message')].map((m) => m.textContent!.trim()).join('\n')).to.contain('Hi Grace!');

    // A re-render with new values: the same element, the variant property in effect (and reflected), the new dynamic
    // variable used by the next conversation.
    await app.update({ variant: 'tiny', customerName: 'Ada' });
    await el.updateComplete;
    expect(container.querySelector('voice-agent-widget') === el, 'the same element, updated in place').to.equal(true);
    expect(el.variant).to.equal('tiny');
    expect(el.getAttribute('variant')).to.equal('tiny');
    expect(root.querySelector('[part~="root"]')!.classList.contains('tiny'), 'the new variant took effect').to.equal(true);
    expect(el.dynamicVariables).to.deep.equal({ customer_name: 'Ada' });
    if (asAttribute) expect(el.getAttribute('dynamic-variables')).to.equal('{"customer_name":"Ada"}');
    el.endConversation();
    const secondId = await el.startConversation();
    await until(() => messages.some((m) => m.source === 'agent' && m.text.includes('Hi Ada!')), `${options.label}: "Hi Ada!" after the re-render`);
    expect(conversations).to.deep.equal([firstId, secondId]);

    // Unmount: the element leaves the page and every socket it opened closes.
    app.unmount();
    expect(container.querySelector('voice-agent-widget'), 'unmounted').to.equal(null);
    await until(() => sockets.every((s) => s.readyState === WebSocket.CLOSED), `${options.label}: every socket closed after the unmount`);
    expect(sockets, 'one socket per conversation').to.have.length(2);
    expect(consoleLines.lines, 'no console error or warning').to.deep.equal([]);
  } finally {
    restore();
    consoleLines.stop();
    container.remove();
  }
}

/** What one server-rendering test gives `runServerRenderedScenario`. */
export interface ServerRendering<M> {
  /** The app's name in bundle-apps.mjs: its server markup is `/__frameworks__/<app>-ssr/markup.js`. */
  app: string;
  /** How the page gives the dynamic variables (see `runScenario`). */
  dynamicVariablesAs?: 'property' | 'attribute';
  /** The checks of the server's HTML (what the framework's server writes). */
  checkMarkup: (markup: string) => void;
  /** Hydrates the server markup in `container` with the client bundle's module, and checks the framework's own report. */
  hydrate: (module: M, container: HTMLElement, props: AppProps) => Promise<MountedApp>;
  /** Checks once hydrated, beside the same-element check. */
  afterHydrate?: (serverElement: Element) => void;
}

/**
 * Server rendering, alike for every framework: the app's server markup (rendered in Node by bundle-apps.mjs, where the
 * widget's define.js registers nothing) is put in the page before the widget is defined, as a server's HTML arrives;
 * then the client bundle loads (it defines the element: the server-rendered `<voice-agent-widget agent-id>` upgrades)
 * and `hydrate` takes the markup over, keeping the same element; then the common scenario (`runScenario`).
 */
export async function runServerRenderedScenario<M>({ app, dynamicVariablesAs, checkMarkup, hydrate, afterHydrate }: ServerRendering<M>): Promise<void> {
  let serverElement: Element | null = null;
  await runScenario(
    async () => {
      expect(customElements.get('voice-agent-widget'), 'not defined before the client bundle').to.equal(undefined);
      const module = await loadApp<M>(app);
      expect(serverElement!.matches(':defined'), 'the server-rendered element upgraded once the bundle defined it').to.equal(true);
      return async (container, props) => {
        const mounted = await hydrate(module, container, props);
        // Compared as a boolean: on a failure, chai would print the two (live, connected) widgets, which hangs the page.
        expect(container.querySelector('voice-agent-widget') === serverElement, 'hydration kept the server-rendered element').to.equal(true);
        afterHydrate?.(serverElement!);
        return mounted;
      };
    },
    {
      label: `${app}-ssr`,
      ...(dynamicVariablesAs ? { dynamicVariablesAs } : {}),
      async before(container) {
        const markupUrl = `/__frameworks__/${app}-ssr/markup.js?serverUrl=${encodeURIComponent(serviceUrl)}`;
        const { markup } = (await import(markupUrl)) as { markup: string };
        expect(markup).to.contain(`<voice-agent-widget agent-id="${AGENT_ID}"`);
        expect(markup).to.contain('variant="compact"');
        checkMarkup(markup);
        container.innerHTML = markup;
        serverElement = container.querySelector('voice-agent-widget');
        expect(serverElement!.matches(':defined'), 'not upgraded yet').to.equal(false);
      },
    },
  );
}

/**
 * WidgetConfigController with the configuration cache (src/config/cache.ts) and the early read (src/client/prefetch.ts),
 * through a fake fetch: a cached configuration is `ready` at once while the service is asked (stale-while-revalidate);
 * the answer replaces it whole or changes nothing; a failed revalidation keeps it; a prefetch is taken over once.
 * Every test starts with an empty cache (localStorage of this test page).
 */
import { aTimeout, expect } from '@open-wc/testing';
import { html } from 'lit';
import { prefetchWidgetConfig } from '../../../src/client/prefetch.js';
import {
  CONFIG_CACHE_OPT_OUT, CONFIG_CACHE_PREFIX, clearWidgetConfigCache, readCachedWidgetConfig, storeWidgetConfig,
} from '../../../src/config/cache.js';
import { WidgetConfigController, type WidgetConfigArgs } from '../../../src/widget/controllers/widget-config.js';
import { captureConsole, itExcept, until } from '../../helpers.js';
import { FakeFetch, detach, mountHost, type TestHost } from './host.js';

const SERVER = 'https://service.test';

/** What each render of the host saw: the status and, when ready, the variant and main label of one value. */
type Seen = [string, string?, string?];

/** A host whose config controller reads `args` through a fake fetch; `seen` logs every render. */
async function mountConfig(
  args: Partial<WidgetConfigArgs> = {},
  network = new FakeFetch(),
): Promise<{ host: TestHost; controller: WidgetConfigController; network: FakeFetch; seen: Seen[]; errors: Event[] }> {
  const current: WidgetConfigArgs = { agentId: 'agent_1', serverUrl: SERVER, signedUrl: null, dynamicVariables: '', textContents: '', attributes: {}, ...args };
  const seen: Seen[] = [];
  const errors: Event[] = [];
  const { host, made: controller } = await mountHost((h) => {
    const made = new WidgetConfigController(h, () => current, { fetch: network.fetch });
    h.addEventListener('voice-agent-error', (event) => errors.push(event));
    h.content = () => {
      const value = made.value;
      seen.push(value ? [made.status, value.config.variant, value.texts.main_label] : [made.status]);
      return html`<p>${made.status}</p>`;
    };
    return made;
  });
  return { host, controller, network, seen, errors };
}

const OLD = { variant: 'tiny', text_contents: { main_label: 'Old label' } };
const NEW = { variant: 'full', text_contents: { main_label: 'New label' } };
const cached = (): string | null => localStorage.getItem(`${CONFIG_CACHE_PREFIX}${SERVER} agent_1`);

describe('WidgetConfigController with the configuration cache', () => {
  beforeEach(() => clearWidgetConfigCache());
  afterEach(() => {
    document.documentElement.removeAttribute(CONFIG_CACHE_OPT_OUT);
    clearWidgetConfigCache();
  });

  it('a first visit reads from the service and keeps the widget_config; the next element is ready from it at once', async () => {
    const first = await mountConfig();
    expect(first.controller.status).to.equal('loading');
    first.network.last.respond(200, { agent_id: 'agent_1', widget_config: OLD });
    await until(() => first.controller.status === 'ready', 'ready');
    expect(first.controller.fromCache).to.equal(false);
    expect(cached(), 'only the widget_config, as the service sent it').to.equal(JSON.stringify(OLD));

    const second = await mountConfig();
    expect(second.seen[0], 'its first render shows the cached configuration').to.deep.equal(['ready', 'tiny', 'Old label']);
    expect(second.controller.fromCache).to.equal(true);
    expect(second.network.calls, 'and the service is asked meanwhile').to.have.length(1);
    expect((await second.controller.settled()).config, 'settled() resolves with the cached value').to.equal(second.controller.value!.config);
  });

  it('the same answer: the value stays the same object and nothing renders again', async () => {
    storeWidgetConfig(SERVER, 'agent_1', JSON.stringify(OLD));
    const { host, controller, network, seen } = await mountConfig();
    await host.updateComplete;
    await aTimeout(0);
    const before = controller.value!;
    const renders = seen.length;
    network.last.respond(200, { agent_id: 'agent_1', widget_config: OLD });
    await until(() => !controller.fromCache, 'revalidated');
    await aTimeout(20);
    expect(seen.length, 'no render for an unchanged configuration').to.equal(renders);
    expect(host.isUpdatePending).to.equal(false);
    expect(controller.value!.config, 'the same validated configuration').to.equal(before.config);
    expect(controller.value!.texts).to.equal(before.texts);
  });

  it('a changed answer replaces the whole value at once (never a mix of old and new), and the cache with it', async () => {
    storeWidgetConfig(SERVER, 'agent_1', JSON.stringify(OLD));
    const { host, controller, network, seen } = await mountConfig();
    const { warnings, errors } = await captureConsole(async () => {
      network.last.respond(200, { agent_id: 'agent_1', widget_config: NEW });
      await until(() => !controller.fromCache, 'revalidated');
      await host.updateComplete;
    });
    expect([...warnings, ...errors]).to.deep.equal([]);
    expect(seen.at(-1)).to.deep.equal(['ready', 'full', 'New label']);
    expect(seen.every(([, variant, label]) => (variant === 'tiny' && label === 'Old label') || (variant === 'full' && label === 'New label')), JSON.stringify(seen)).to.equal(true);
    expect(seen.every(([status]) => status === 'ready'), 'never loading in between').to.equal(true);
    expect(cached()).to.equal(JSON.stringify(NEW));
  });

  it('a failed revalidation (503 on every try) keeps the cached configuration: warnings, no error state, no error event', async () => {
    storeWidgetConfig(SERVER, 'agent_1', JSON.stringify(OLD));
    const { controller, network, seen, errors: events } = await mountConfig();
    const answered = new Set<unknown>();
    const { warnings, errors } = await captureConsole(async () => {
      await until(() => {
        for (const call of network.calls.filter((c) => !answered.has(c))) answered.add(call) && call.respond(503, 'busy');
        return answered.size === 4;
      }, 'every try answered', 8000);
      await aTimeout(20);
    });
    expect(controller.status).to.equal('ready');
    expect(controller.fromCache).to.equal(true);
    expect(controller.value!.config.variant).to.equal('tiny');
    expect(seen.every(([status]) => status === 'ready')).to.equal(true);
    expect(errors, 'no console error').to.deep.equal([]);
    expect(events, 'no voice-agent-error').to.deep.equal([]);
    expect(warnings.filter((w) => w.includes('trying again')), 'the retries, as warnings').to.have.length(3);
    expect(warnings.filter((w) => w.includes('keeping the cached configuration'))).to.have.length(1);
    expect(cached(), 'the entry stays for the next visit').to.equal(JSON.stringify(OLD));
  });

  it('a final refusal (404) keeps the configuration for this page view and removes the stored entry', async () => {
    storeWidgetConfig(SERVER, 'agent_1', JSON.stringify(OLD));
    const { controller, network } = await mountConfig();
    const { warnings, errors } = await captureConsole(async () => {
      network.last.respond(404, { detail: 'agent not found' });
      await aTimeout(30);
    });
    expect(controller.status).to.equal('ready');
    expect(controller.value!.config.variant).to.equal('tiny');
    expect(errors).to.deep.equal([]);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.contain('HTTP 404').and.contain('keeping the cached configuration');
    expect(cached()).to.equal(null);
  });

  it('a cached entry is validated like an answer: a bad field warns and falls back to its default', async () => {
    storeWidgetConfig(SERVER, 'agent_1', JSON.stringify({ variant: 'huge', styles: { accent: 'red; background: url(x)' } }));
    const { result, warnings } = await captureConsole(async () => {
      const mounted = await mountConfig();
      return { mounted, value: mounted.controller.value };
    });
    expect(result.value!.config.variant).to.equal('compact');
    expect(warnings.some((w) => w.includes('widget_config.variant'))).to.equal(true);
    expect(warnings.some((w) => w.includes('widget_config.styles.accent'))).to.equal(true);
  });

  it('a corrupt entry is dropped with a console warning and the read starts from loading', async () => {
    localStorage.setItem(`${CONFIG_CACHE_PREFIX}${SERVER} agent_1`, '{"variant":');
    const { result, warnings } = await captureConsole(() => mountConfig());
    expect(result.controller.status).to.equal('loading');
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.contain('unreadable and is dropped');
    result.network.last.respond(200, { agent_id: 'agent_1', widget_config: OLD });
    await until(() => result.controller.status === 'ready', 'ready');
    expect(cached()).to.equal(JSON.stringify(OLD));
  });

  it('a private agent (signed-url) is never read from or written to the cache', async () => {
    const signedUrl = 'wss://service.test/v1/voiceai/conversation?agent_id=agent_1&conversation_signature=secret';
    storeWidgetConfig(SERVER, 'agent_1', JSON.stringify(OLD));
    const { controller, network } = await mountConfig({ agentId: '', serverUrl: '', signedUrl });
    expect(controller.status, 'not ready from the public entry').to.equal('loading');
    network.last.respond(200, { agent_id: 'agent_1', widget_config: NEW });
    await until(() => controller.status === 'ready', 'ready');
    expect(controller.value!.config.variant).to.equal('full');
    expect(cached(), 'the private answer is not stored').to.equal(JSON.stringify(OLD));
    expect(Object.keys(localStorage).filter((key) => key.includes('secret') || (localStorage.getItem(key) ?? '').includes('secret'))).to.deep.equal([]);
  });

  it('without storage (opted out with the <html> attribute) it reads as without a cache', async () => {
    storeWidgetConfig(SERVER, 'agent_1', JSON.stringify(OLD));
    document.documentElement.setAttribute(CONFIG_CACHE_OPT_OUT, '');
    const optedOut = await mountConfig();
    expect(optedOut.controller.status).to.equal('loading');
    optedOut.network.last.respond(200, { agent_id: 'agent_1', widget_config: NEW });
    await until(() => optedOut.controller.status === 'ready', 'ready');
    expect(cached(), 'not written while opted out').to.equal(JSON.stringify(OLD));
    document.documentElement.removeAttribute(CONFIG_CACHE_OPT_OUT);
  });

  // WebKit: with window.localStorage redefined to throw, a fresh read in the test throws, but the cache module's read,
  // already optimised by JavaScriptCore after the folder's other files, still returns the original storage (a probe
  // showed: window.localStorage and globalThis.localStorage throw in the test, readCachedWidgetConfig still hits).
  // A real disabled storage throws from the native getter itself, which no optimised read can skip; only this way of
  // simulating it is blind in WebKit, so this half skips WebKit.
  itExcept(['webkit'], "JavaScriptCore's optimised read keeps the original localStorage after window.localStorage is redefined")('without storage (localStorage throwing) it reads as without a cache', async () => {
    storeWidgetConfig(SERVER, 'agent_1', JSON.stringify(OLD));
    const own = Object.getOwnPropertyDescriptor(window, 'localStorage');
    Object.defineProperty(window, 'localStorage', { configurable: true, get: () => { throw new DOMException('denied', 'SecurityError'); } });
    try {
      const { result, warnings, errors } = await captureConsole(async () => {
        const mounted = await mountConfig();
        expect(mounted.controller.status).to.equal('loading');
        mounted.network.last.respond(200, { agent_id: 'agent_1', widget_config: NEW });
        await until(() => mounted.controller.status === 'ready', 'ready');
        return mounted;
      });
      expect(result.controller.value!.config.variant).to.equal('full');
      expect([...warnings, ...errors]).to.deep.equal([]);
    } finally {
      if (own) Object.defineProperty(window, 'localStorage', own);
      else delete (window as { localStorage?: Storage }).localStorage;
    }
    expect(readCachedWidgetConfig(SERVER, 'agent_1')!.json).to.equal(JSON.stringify(OLD));
  });

  it('a changed agent-id shows that agent\'s cached configuration at once, or loading when it has none', async () => {
    storeWidgetConfig(SERVER, 'agent_2', JSON.stringify(NEW));
    const current: WidgetConfigArgs = { agentId: 'agent_1', serverUrl: SERVER, signedUrl: null, dynamicVariables: '', textContents: '', attributes: {} };
    const network = new FakeFetch();
    const { host, made: controller } = await mountHost((h) => new WidgetConfigController(h, () => current, { fetch: network.fetch }));
    expect(controller.status).to.equal('loading');
    current.agentId = 'agent_2';
    host.requestUpdate();
    await host.updateComplete;
    expect(controller.status).to.equal('ready');
    expect(controller.value!.config.variant).to.equal('full');
    expect(controller.value!.endpoint.agentId).to.equal('agent_2');
    current.agentId = 'agent_3';
    host.requestUpdate();
    await host.updateComplete;
    expect(controller.status).to.equal('loading');
    expect(controller.fromCache).to.equal(false);
  });

  it('a host that leaves during the revalidation reads again when it comes back', async () => {
    storeWidgetConfig(SERVER, 'agent_1', JSON.stringify(OLD));
    const { host, controller, network } = await mountConfig();
    const pending = network.last;
    const reattach = detach(host);
    expect(pending.signal.aborted).to.equal(true);
    expect(controller.status, 'still showing the cached configuration').to.equal('ready');
    await reattach();
    expect(network.calls).to.have.length(2);
    network.last.respond(200, { agent_id: 'agent_1', widget_config: NEW });
    await until(() => !controller.fromCache, 'revalidated');
    expect(controller.value!.config.variant).to.equal('full');
  });
});

describe('WidgetConfigController taking over a prefetch', () => {
  beforeEach(() => clearWidgetConfigCache());
  afterEach(() => clearWidgetConfigCache());

  it('takes the read under way instead of making its own, once', async () => {
    const early = new FakeFetch();
    prefetchWidgetConfig(`${SERVER}/`, 'agent_1', '', { fetch: early.fetch });
    prefetchWidgetConfig(SERVER, 'agent_1', '', { fetch: early.fetch });
    expect(early.calls, 'one read per endpoint').to.have.length(1);
    expect(early.last.url).to.equal(`${SERVER}/v1/convai/agents/agent_1/widget`);

    const { controller, network } = await mountConfig();
    expect(network.calls, 'no read of its own').to.deep.equal([]);
    expect(controller.status).to.equal('loading');
    early.last.respond(200, { agent_id: 'agent_1', widget_config: NEW });
    await until(() => controller.status === 'ready', 'ready');
    expect(controller.value!.config.variant).to.equal('full');

    clearWidgetConfigCache();
    const second = await mountConfig();
    expect(second.network.calls, 'taken once: the next element reads itself').to.have.length(1);
  });

  it('a failed prefetch is the first try: retried as usual', async () => {
    const early = new FakeFetch();
    prefetchWidgetConfig(SERVER, 'agent_1', '', { fetch: early.fetch });
    const { controller, network } = await mountConfig();
    const { warnings, errors } = await captureConsole(async () => {
      early.last.respond(503, 'busy');
      await until(() => network.calls.length === 1, 'the retry, its own read', 3000);
      network.last.respond(200, { agent_id: 'agent_1', widget_config: OLD });
      await until(() => controller.status === 'ready', 'ready');
    });
    expect(errors).to.deep.equal([]);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.contain('HTTP 503').and.contain('try 2 of 4');
  });

  it('a taken prefetch is aborted when the host leaves; one for a private agent is kept apart from the public one', async () => {
    const early = new FakeFetch();
    prefetchWidgetConfig(SERVER, 'agent_1', 'sig', { fetch: early.fetch });
    prefetchWidgetConfig(SERVER, 'agent_1', '', { fetch: early.fetch });
    expect(early.calls).to.have.length(2);
    expect(early.calls[0]!.url).to.equal(`${SERVER}/v1/convai/agents/agent_1/widget?conversation_signature=sig`);
    const { host, network } = await mountConfig();
    expect(network.calls).to.deep.equal([]);
    const { errors } = await captureConsole(async () => {
      host.remove();
      await aTimeout(10);
    });
    expect(errors).to.deep.equal([]);
    expect(early.calls[1]!.signal.aborted, 'the taken one follows the abort').to.equal(true);
    expect(early.calls[0]!.signal.aborted, 'the one nobody took runs on').to.equal(false);
    early.calls[0]!.respond(200, { agent_id: 'agent_1', widget_config: OLD });
  });
});

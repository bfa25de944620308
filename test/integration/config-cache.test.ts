/**
 * The configuration, early and remembered, with the real element against the reference service:
 * a returning visitor's launcher paints from the cached configuration before the service answers; a configuration
 * changed on the service replaces the cached one whole; a failed revalidation keeps it; and the script-tag bundle takes
 * over the read it started before the element upgraded. The service's answers are delayed or failed with its fault
 * switches (`PUT /v1/dev/faults`, demo/service/README.md); each test serves its own agent through the dev switch
 * (`PUT /v1/dev/agents/{id}/widget`), so no shared agent changes. The cache is emptied before each test
 * (widget-helpers.ts), so the first mount of a test is a first visit.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { apiKey } from '/__service__.js';
import { CONFIG_CACHE_OPT_OUT, CONFIG_CACHE_PREFIX } from '../../src/config/cache.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';
import { captureConsole, until } from '../helpers.js';
import { $, mountWidget, serviceUrl } from '../widget-helpers.js';

/** A fresh agent id for one test. */
let counter = 0;
const newAgentId = (): string => `agent_cache_${Date.now().toString(36)}_${(counter += 1)}`;

async function service(method: string, path: string, body?: unknown): Promise<void> {
  const response = await fetch(`${serviceUrl}${path}`, {
    method, headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).to.equal(200);
}

/** Serves `widgetConfig` as the agent's configuration (the dev switch; the agent is created when unknown). */
const putWidget = (agentId: string, widgetConfig: Record<string, unknown>): Promise<void> => service('PUT', `/v1/dev/agents/${agentId}/widget`, widgetConfig);
const setFaults = (faults: Record<string, unknown>): Promise<void> => service('PUT', '/v1/dev/faults', faults);
const clearFaults = (): Promise<void> => service('DELETE', '/v1/dev/faults');

/** Mounts the element without waiting for anything but its first update (what a visitor sees first). */
const mount = (agentId: string): Promise<VoiceAgentWidget> =>
  fixture<VoiceAgentWidget>(html`<voice-agent-widget agent-id=${agentId} server-url=${serviceUrl}></voice-agent-widget>`);

/** What the launcher shows: its variant and placement classes, its label, the base colour, and whether it is busy. */
function shown(el: VoiceAgentWidget): { root: string; label: string; base: string; busy: string | null } {
  const root = $(el, '.root');
  return {
    root: root ? [...root.classList].filter((c) => /^(tiny|compact|full|top|bottom)/.test(c)).sort().join(' ') : '',
    label: $(el, '.launcher .label')?.textContent?.trim() ?? '',
    base: root ? getComputedStyle(root).getPropertyValue('--_base').trim() : '',
    busy: $(el, '.launcher')?.getAttribute('aria-busy') ?? null,
  };
}

const OLD = { variant: 'compact', placement: 'top-left', text_contents: { main_label: 'Old label' }, styles: { base: '#fefae0' } };
const OLD_SHOWN = { root: 'compact top-left', label: 'Old label', base: '#fefae0', busy: 'false' };
// No `styles` and no `placement`: the defaults, not the old values, must follow.
const NEW = { variant: 'full', text_contents: { main_label: 'New label' } };
const NEW_SHOWN = { root: 'bottom-right full', label: 'New label', base: '#ffffff', busy: 'false' };

/** The first visit: the agent's configuration read from the service, kept in the cache; the element removed. */
async function firstVisit(agentId: string): Promise<void> {
  const el = await mountWidget(agentId);
  expect(shown(el)).to.deep.equal(OLD_SHOWN);
  expect(localStorage.getItem(`${CONFIG_CACHE_PREFIX}${serviceUrl} ${agentId}`), 'cached').to.equal(JSON.stringify(OLD));
  el.remove();
}

describe('the configuration cache with the reference service', () => {
  afterEach(async () => {
    document.documentElement.removeAttribute(CONFIG_CACHE_OPT_OUT);
    await clearFaults();
  });

  it('a returning visitor: the launcher paints from the cache in its first update, while the service has not answered', async () => {
    const agentId = newAgentId();
    await putWidget(agentId, OLD);
    await firstVisit(agentId);

    await setFaults({ widget: { agent_id: agentId, hang: true } });
    const el = await mount(agentId);
    expect(shown(el), 'usable at once, from the cache').to.deep.equal(OLD_SHOWN);
    expect($<HTMLButtonElement>(el, '.launcher')!.disabled).to.equal(false);
    await expect(el).to.be.accessible();
    await clearFaults(); // the held read is answered now: the same configuration, nothing changes
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(shown(el)).to.deep.equal(OLD_SHOWN);
  });

  it('without the cache (a first visit, or <html data-voice-agent-no-config-cache>) the launcher waits for the service', async () => {
    const agentId = newAgentId();
    await putWidget(agentId, OLD);
    await firstVisit(agentId);
    document.documentElement.setAttribute(CONFIG_CACHE_OPT_OUT, '');
    await setFaults({ widget: { agent_id: agentId, delay_ms: 400 } });
    const el = await mount(agentId);
    expect(shown(el).busy, 'opted out: loading').to.equal('true');
    await until(() => shown(el).busy === 'false', 'read from the service');
    expect(shown(el)).to.deep.equal(OLD_SHOWN);
  });

  it('a configuration changed on the service replaces the cached one whole, in one render, and in the cache', async () => {
    const agentId = newAgentId();
    await putWidget(agentId, OLD);
    await firstVisit(agentId);
    await putWidget(agentId, NEW);

    await setFaults({ widget: { agent_id: agentId, delay_ms: 300 } });
    const el = await mount(agentId);
    const seen = [JSON.stringify(shown(el))];
    // Every state the shadow root passes through (each render commits at once; the observer sees each).
    const observer = new MutationObserver(() => seen.push(JSON.stringify(shown(el))));
    observer.observe(el.shadowRoot!, { subtree: true, childList: true, attributes: true, characterData: true });
    try {
      expect(shown(el), 'first, the cached configuration').to.deep.equal(OLD_SHOWN);
      await until(() => shown(el).label === 'New label', 'the service answered', 3000);
      await el.updateComplete;
      expect(shown(el)).to.deep.equal(NEW_SHOWN);
    } finally {
      observer.disconnect();
    }
    const states = [...new Set(seen)];
    expect(states, 'only the old and the new configuration, never a mix').to.deep.equal([JSON.stringify(OLD_SHOWN), JSON.stringify(NEW_SHOWN)]);
    expect(localStorage.getItem(`${CONFIG_CACHE_PREFIX}${serviceUrl} ${agentId}`)).to.equal(JSON.stringify(NEW));
  });

  it('a failed revalidation (HTTP 500 on every try) keeps the cached configuration: warnings, no error state, no error event', async () => {
    const agentId = newAgentId();
    await putWidget(agentId, OLD);
    await firstVisit(agentId);

    await setFaults({ widget: { agent_id: agentId, status: 500 } });
    const events: unknown[] = [];
    let gaveUp = false;
    const { warnings, errors } = await captureConsole(async () => {
      const captured = console.warn;
      console.warn = (...args: unknown[]) => ((gaveUp ||= String(args[0]).includes('keeping the cached configuration')), captured(...args));
      const el = await mount(agentId);
      el.addEventListener('voice-agent-error', (event) => events.push(event.detail));
      expect(shown(el)).to.deep.equal(OLD_SHOWN);
      await until(() => gaveUp, 'the revalidation gave up', 8000);
      await el.updateComplete;
      expect(shown(el)).to.deep.equal(OLD_SHOWN);
      expect($(el, '[part~="error"]')).to.equal(null);
    });
    expect(errors).to.deep.equal([]);
    expect(events).to.deep.equal([]);
    expect(warnings.filter((w) => w.includes('HTTP 500') && w.includes('trying again')), 'the retries').to.have.length(3);
    expect(localStorage.getItem(`${CONFIG_CACHE_PREFIX}${serviceUrl} ${agentId}`), 'kept for the next visit').to.equal(JSON.stringify(OLD));
  });

  it('the script-tag bundle takes over the read it started before the element upgraded (one request, not two)', async () => {
    const agentId = newAgentId();
    await putWidget(agentId, NEW);
    // Only the first read of this agent gets this answer; a second request would get NEW.
    const early = { ...OLD, text_contents: { main_label: 'From the first request' } };
    await setFaults({ widget: { agent_id: agentId, status: 200, times: 1, body: JSON.stringify({ agent_id: agentId, widget_config: early }) } });
    const frame = document.createElement('iframe');
    frame.srcdoc = `<!doctype html><html lang="en"><head><title>early</title></head><body>
      <voice-agent-widget agent-id="${agentId}"></voice-agent-widget>
      <script src="${serviceUrl}/voice-agent-widget.js"></script></body></html>`;
    const loaded = oneEvent(frame, 'load');
    document.body.append(frame);
    try {
      await loaded;
      const el = frame.contentDocument!.querySelector('voice-agent-widget')!;
      const label = (): string => el.shadowRoot?.querySelector('.launcher:not([disabled]) .label')?.textContent?.trim() ?? '';
      await until(() => label(), 'ready');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(label(), 'the element used the early request').to.equal('From the first request');
    } finally {
      frame.remove();
    }
  });
});

/**
 * Properties are the API (what frameworks set): every attribute has a typed property that works when set directly on
 * a live element; the JSON attributes are objects; attribute and property stay in step (the look properties reflect);
 * bad values go to the console and the default, never a throw. The real element against the reference service.
 */
import { expect } from '@open-wc/testing';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';
import { captureConsole, until } from '../helpers.js';
import { $, mountWidget, openPanel } from '../widget-helpers.js';

/** The element with any value in any property, as a framework or a careless page may set it. */
type Loose = VoiceAgentWidget & Record<string, unknown>;

describe('properties are the API', () => {
  it('sets the look on a live element through properties, and reflects them to attributes', async () => {
    const el = await mountWidget('agent_demo_support');
    el.variant = 'tiny';
    el.placement = 'top-left';
    el.dismissible = true;
    await el.updateComplete;
    expect($(el, '.root')!.classList.contains('tiny')).to.equal(true);
    expect($(el, '.root')!.classList.contains('top-left')).to.equal(true);
    expect($(el, '[part~="dismiss-button"]'), 'dismissible: true').to.not.equal(null);
    expect([el.getAttribute('variant'), el.getAttribute('placement'), el.getAttribute('dismissible')]).to.deep.equal(['tiny', 'top-left', '']);
    el.dismissible = false;
    await el.updateComplete;
    expect(el.getAttribute('dismissible')).to.equal('false');
    expect($(el, '[part~="dismiss-button"]')).to.equal(null);
    el.variant = null;
    await el.updateComplete;
    expect(el.hasAttribute('variant')).to.equal(false);
    expect($(el, '.root')!.classList.contains('tiny'), 'back to the configuration').to.equal(false);
  });

  it('reads attributes into typed properties: booleans as booleans, JSON as objects', async () => {
    const el = await mountWidget('agent_demo_support', { 'default-expanded': 'false', transcript: '', 'dynamic-variables': '{"customer_name":"Ada","n":2}', 'text-contents': '{"main_label":"Ask us"}' });
    expect(el.defaultExpanded).to.equal(false);
    expect(el.transcript).to.equal(true);
    expect(el.dynamicVariables).to.deep.equal({ customer_name: 'Ada', n: 2 });
    expect(el.textContents).to.deep.equal({ main_label: 'Ask us' });
    expect(el.getAttribute('dynamic-variables'), 'the attribute form kept').to.equal('{"customer_name":"Ada","n":2}');
  });

  it('takes dynamicVariables and textContents as objects, also after the first render', async () => {
    const el = await mountWidget('agent_demo_support');
    el.textContents = { main_label: 'Talk to Acme' };
    await el.updateComplete;
    expect($(el, '.launcher')!.textContent!.trim()).to.equal('Talk to Acme');
    el.dynamicVariables = { customer_name: 'Grace' };
    await openPanel(el);
    await until(() => $(el, '.message.agent')?.textContent?.includes('Hi Grace!'), 'the greeting filled from the object');
  });

  it('reports a value of the wrong type once, uses the default, and never throws', async () => {
    const el = (await mountWidget('agent_demo_support')) as Loose;
    const look = $(el, '.root')!.className;
    const cyclic: Record<string, unknown> = { customer_name: 'Ada' };
    cyclic['self'] = cyclic;
    const huge = Object.fromEntries(Array.from({ length: 10000 }, (_, i) => [`k${i}`, i]));
    const hostile = Object.defineProperty({}, 'boom', { enumerable: true, get: () => { throw new Error('getter'); } });
    const uncaught: string[] = [];
    const onError = (e: ErrorEvent): void => void uncaught.push(e.message);
    window.addEventListener('error', onError);
    try {
      const { warnings, errors } = await captureConsole(async () => {
        el['variant'] = 42 as never;
        el['dismissible'] = 'maybe' as never;
        el['language'] = (() => 'de') as never;
        el['dynamicVariables'] = cyclic as never;
        await el.updateComplete;
        el.requestUpdate();
        await el.updateComplete;
        el['textContents'] = huge as never;
        await el.updateComplete;
        el['textContents'] = hostile as never;
        await el.updateComplete;
        el['dynamicVariables'] = 7 as never;
        await el.updateComplete;
      });
      const variant = warnings.filter((w) => w.includes('property variant must be a string or null (got 42)'));
      expect(variant, warnings.join('\n')).to.have.length(1);
      expect(warnings.some((w) => w.includes('attribute dismissible="maybe" is not true or false'))).to.equal(true);
      expect(warnings.some((w) => w.includes('property language must be a string or null'))).to.equal(true);
      expect(warnings.some((w) => w.includes('dynamic-variables.self must be a string'))).to.equal(true);
      expect(errors.some((e) => e.includes('text-contents has 10000 keys, more than 200'))).to.equal(true);
      expect(errors.some((e) => e.includes('text-contents cannot be read (getter)'))).to.equal(true);
      expect(errors.some((e) => e.includes('dynamic-variables must be an object or its JSON (got 7)'))).to.equal(true);
      expect(uncaught).to.deep.equal([]);
      // The widget still works, on the configuration's values.
      expect($(el, '.root')!.className, 'the configuration\'s variant and placement').to.equal(look);
      expect(el.hasAttribute('variant'), 'a number is not reflected').to.equal(false);
      expect($(el, '.launcher')!.textContent!.trim()).to.equal('Need help?');
    } finally {
      window.removeEventListener('error', onError);
    }
  });
});

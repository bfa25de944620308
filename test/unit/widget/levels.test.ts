/**
 * The levels of a voice call on screen (src/widget/controllers/levels.ts), in each engine with its real
 * requestAnimationFrame and CSS.registerProperty: on the meter's scale, at most one write per frame, only visible
 * changes, none while the page is hidden or under reduced motion, and properties that a level element's children do
 * not inherit.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { meterLevel } from '../../../src/audio/level-meter.js';
import { LEVEL_STEP, LevelMeter, registerLevelProperties } from '../../../src/widget/controllers/levels.js';
import { meterRms } from '../../helpers.js';

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

/** A level element with a child, and the writes made to its style (one record per property set). */
async function target() {
  const element = await fixture<HTMLElement>(html`<span><i></i></span>`);
  const writes: string[] = [];
  new MutationObserver((records) => records.forEach(() => writes.push(element.style.getPropertyValue('--_mic-level')))).observe(element, { attributes: true, attributeFilter: ['style'] });
  return { element, child: element.firstElementChild as HTMLElement, writes };
}
const settled = () => new Promise<void>((resolve) => setTimeout(resolve)); // MutationObserver records delivered

describe('LevelMeter', () => {
  it('draws 50 levels given within one frame once, with the latest values', async () => {
    const { element, writes } = await target();
    const meter = new LevelMeter({ matches: false });
    meter.add(element);
    await frame();
    for (let i = 1; i <= 50; i++) meter.set(i / 500, 0.025);
    expect(writes, 'nothing before the frame').to.deep.equal([]);
    await frame();
    await settled();
    // Two properties set: two records of the one draw, on the meter's scale (RMS 0.1 is -20 dBFS: 0.75).
    expect(writes).to.have.length(2);
    expect(element.style.getPropertyValue('--_mic-level')).to.equal('0.750');
    expect(element.style.getPropertyValue('--_agent-level')).to.equal(meterLevel(0.025).toFixed(3));
  });

  it('leaves a change smaller than LEVEL_STEP undrawn, and draws the next visible one', async () => {
    const { element, writes } = await target();
    const meter = new LevelMeter({ matches: false });
    meter.add(element);
    meter.set(meterRms(0.3), 0);
    await frame();
    await settled();
    expect(element.style.getPropertyValue('--_mic-level')).to.equal('0.300');
    writes.length = 0;
    meter.set(meterRms(0.3 + LEVEL_STEP / 2), meterRms(LEVEL_STEP / 2));
    await frame();
    await frame();
    await settled();
    expect(writes, 'an invisible change').to.deep.equal([]);
    meter.set(meterRms(0.3 + 1.2 * LEVEL_STEP), 0);
    await frame();
    await settled();
    expect(element.style.getPropertyValue('--_mic-level')).to.equal((0.3 + 1.2 * LEVEL_STEP).toFixed(3));
  });

  it('draws nothing under reduced motion, and nothing while the page is hidden; reset() still puts 0 at once', async () => {
    const { element, writes } = await target();
    const reduced = { matches: true };
    const meter = new LevelMeter(reduced);
    meter.add(element);
    meter.set(0.8, 0.8);
    await frame();
    await frame();
    await settled();
    expect(writes, 'reduced motion').to.deep.equal([]);

    reduced.matches = false;
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    try {
      meter.set(0.9, 0.9);
      await frame();
      await frame();
      await settled();
      expect(writes, 'hidden').to.deep.equal([]);
    } finally {
      delete (document as { hidden?: boolean }).hidden;
    }
    expect(document.hidden).to.equal(false);
    meter.set(0.7, 0);
    meter.reset();
    await settled();
    expect(element.style.getPropertyValue('--_mic-level'), 'reset writes at once').to.equal('0.000');
    await frame();
    await frame();
    expect(element.style.getPropertyValue('--_mic-level'), 'the pending frame was cancelled').to.equal('0.000');
  });

  it('registers the levels as non-inherited numbers: the element has them, its child does not', async () => {
    registerLevelProperties();
    registerLevelProperties(); // twice is harmless
    const { element, child } = await target();
    const meter = new LevelMeter({ matches: false });
    meter.add(element);
    meter.set(meterRms(0.5), meterRms(0.4));
    await frame();
    expect(Number(getComputedStyle(element).getPropertyValue('--_mic-level'))).to.equal(0.5);
    expect(Number(getComputedStyle(child).getPropertyValue('--_mic-level')), 'not inherited').to.equal(0);
    expect(Number(getComputedStyle(child).getPropertyValue('--_agent-level')), 'not inherited').to.equal(0);
  });

  it('drops an element no longer in the document', async () => {
    const { element } = await target();
    const meter = new LevelMeter({ matches: false });
    meter.add(element);
    element.remove();
    meter.set(0.5, 0.5);
    await frame();
    expect(element.style.getPropertyValue('--_mic-level')).to.equal('');
  });
});

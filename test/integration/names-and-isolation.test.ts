/**
 * What the reading of the reshaped widget found, each against the reference service over real sockets: internal CSS
 * variables a page cannot reach, the dismiss / like / dislike / star buttons' own names and parts, and focus going
 * back to what opened the terms.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { until } from '../helpers.js';
import { $, $$, button, mountWidget, openPanel, sendText, serviceUrl } from '../widget-helpers.js';

const focused = (el: Element): Element | null => el.shadowRoot!.activeElement;

describe('internal CSS variables', () => {
  it("a page's --launcher, --w or --h on the element changes nothing inside", async () => {
    const el = await mountWidget('agent_demo_support');
    await openPanel(el);
    const panel = $(el, '[part~="panel"]')!;
    const before = panel.getBoundingClientRect();
    el.style.setProperty('--launcher', '400px');
    el.style.setProperty('--w', '120px');
    el.style.setProperty('--h', '120px');
    await new Promise(requestAnimationFrame);
    const after = panel.getBoundingClientRect();
    expect([after.width, after.height], 'the panel keeps its size').to.deep.equal([before.width, before.height]);
    el.style.setProperty('--voice-agent-sheet-radius', '3px');
    await new Promise(requestAnimationFrame);
    expect(getComputedStyle(panel).borderTopLeftRadius, 'a documented token still reaches inside').to.equal('3px');
  });
});

describe('no footprint in the page', () => {
  it("a theme's margins and max-width on the content's children add no space around the widget", async () => {
    const page = await fixture<HTMLElement>(html`<div class="entry-content">
      <style>
        .entry-content > * { margin: 40px 0; padding: 10px; max-width: 600px; border: 2px solid; }
      </style>
      <p id="before">before</p>
      <voice-agent-widget agent-id="agent_minimal" server-url=${serviceUrl}></voice-agent-widget>
      <p id="after">after</p>
    </div>`);
    const el = page.querySelector('voice-agent-widget')!;
    const gap = (): number => page.querySelector('#after')!.getBoundingClientRect().top - page.querySelector('#before')!.getBoundingClientRect().bottom;
    await until(() => el.shadowRoot?.querySelector('.launcher:not([disabled])'), 'ready');
    const withWidget = gap();
    el.remove();
    expect(withWidget, 'the paragraphs lie as if the widget were not there').to.equal(gap());
    expect(withWidget).to.equal(40); // the collapsed margin between the two paragraphs alone
  });
});

describe('buttons named by their own labels', () => {
  it('the dismiss button is named `dismiss`, not the terms decline label, and the page can rename it', async () => {
    const el = await mountWidget('agent_demo_support', { 'text-contents': '{"dismiss":"Ausblenden"}' });
    const dismiss = $(el, '[part~="dismiss-button"]')!;
    expect(dismiss.getAttribute('aria-label')).to.equal('Ausblenden');
    expect(button(el, 'Cancel'), 'no button is named like the terms decline button').to.equal(undefined);
    await expect(el).to.be.accessible();
  });

  it('like and dislike buttons have names and parts of their own', async () => {
    const el = await mountWidget('agent_text_only', { 'text-contents': '{"like":"Hilfreich"}' });
    const started = oneEvent(el, 'voice-agent-conversation');
    await openPanel(el);
    await sendText(el, 'hello');
    await started;
    await until(() => $(el, '[part~="like-button"]'), 'rating buttons under the reply');
    const like = $$(el, '[part~="like-button"]').at(-1)!;
    const dislike = $$(el, '[part~="dislike-button"]').at(-1)!;
    expect(like.getAttribute('aria-label')).to.equal('Hilfreich');
    expect(dislike.getAttribute('aria-label')).to.equal('Dislike');
    expect(like.closest('[part~="rating"]'), 'inside the rating part').to.not.equal(null);
    await expect(el).to.be.accessible();
  });

  it('the five star buttons of the end-of-call rating each have a name and the star-button part', async () => {
    const el = await mountWidget('agent_demo_support');
    const started = oneEvent(el, 'voice-agent-conversation');
    await openPanel(el);
    await sendText(el, 'hello');
    await started;
    const ended = oneEvent(el, 'voice-agent-conversation-end');
    button(el, 'End')!.click();
    await ended;
    await until(() => $(el, '[part~="feedback"]'), 'feedback sheet');
    const stars = $$(el, '[part~="star-button"]');
    expect(stars.map((s) => s.getAttribute('aria-label'))).to.deep.equal(['1 out of 5 stars', '2 out of 5 stars', '3 out of 5 stars', '4 out of 5 stars', '5 out of 5 stars']);
  });
});

describe('the terms dialog gives focus back', () => {
  it('declining returns focus to the start button that opened it', async () => {
    const el = await mountWidget('agent_demo_support', {}, true);
    await openPanel(el);
    const start = $<HTMLButtonElement>(el, '[part~="start-button"]')!;
    start.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => $<HTMLDialogElement>(el, 'dialog')?.open, 'terms open');
    await sendKeys({ press: 'Escape' });
    await until(() => !$(el, 'dialog'), 'terms closed');
    await until(() => focused(el) === start, 'focus back on the start button');
  });

  it('accepting after typing returns focus to the input, and the text is sent', async () => {
    const el = await mountWidget('agent_demo_support', {}, true);
    await openPanel(el);
    await sendText(el, 'hello');
    await until(() => $<HTMLDialogElement>(el, 'dialog')?.open, 'terms open');
    const started = oneEvent(el, 'voice-agent-conversation');
    $<HTMLButtonElement>(el, '[part~="accept-terms-button"]')!.click();
    await started;
    await until(() => focused(el)?.matches('input[part~="input"]'), 'focus back on the input');
  });
});

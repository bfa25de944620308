import { expect } from '@open-wc/testing';
import { html, nothing } from 'lit';
import type { Terms } from '../../../src/config/texts.js';
import { TermsController } from '../../../src/widget/controllers/terms.js';
import { elementRef } from '../../../src/widget/parts/element-ref.js';
import { captureConsole, until } from '../../helpers.js';
import { detach, mountHost, type TestHost } from './host.js';

const KEY = 'unit_terms_v1';
const TERMS: Terms = { html: '', text: 'You agree to be recorded.', key: KEY };
const UNKEYED: Terms = { html: '', text: 'No key.', key: '' };

/** A host with an opener button (removable), a fallback button and the terms dialog while the controller says open. */
async function mountTerms(): Promise<{ host: TestHost; terms: TermsController; $: (selector: string) => HTMLElement | null; dropOpener: () => Promise<void> }> {
  let withOpener = true;
  const { host, made: terms } = await mountHost((h) => {
    const made = new TermsController(h, () => h.renderRoot.querySelector<HTMLElement>('.fallback'));
    h.content = () => html`
      ${withOpener ? html`<button class="opener">Start</button>` : nothing}
      <button class="fallback">Type</button>
      ${made.open ? html`<dialog class="terms" ${elementRef(made.modal.dialogRef)}><p>${TERMS.text}</p><button class="accept">Accept</button></dialog>` : nothing}
    `;
    return made;
  });
  const $ = (selector: string): HTMLElement | null => host.shadowRoot!.querySelector<HTMLElement>(selector);
  const dropOpener = async (): Promise<void> => {
    withOpener = false;
    host.requestUpdate();
    await host.updateComplete;
  };
  return { host, terms, $, dropOpener };
}

/** Focuses the opener and asks for the terms before `start`; returns how often `start` ran. */
async function runFromOpener(mounted: Awaited<ReturnType<typeof mountTerms>>, terms: Terms | null = TERMS): Promise<{ starts: () => number }> {
  let starts = 0;
  mounted.$('.opener')!.focus();
  mounted.terms.run(terms, () => starts++);
  await mounted.host.updateComplete;
  return { starts: () => starts };
}

const focused = (host: TestHost): Element | null => host.shadowRoot!.activeElement;

afterEach(() => localStorage.removeItem(KEY));

describe('TermsController', () => {
  it('pending: terms to accept unless none, accepted in this page view, or remembered under their key', async () => {
    const { terms } = await mountTerms();
    expect(terms.pending(null)).to.equal(false);
    expect(terms.pending(TERMS)).to.equal(true);
    expect(terms.pending(UNKEYED)).to.equal(true);
    localStorage.setItem(KEY, 'accepted');
    expect(terms.pending(TERMS)).to.equal(false);
    expect(terms.pending(UNKEYED)).to.equal(true);
    localStorage.setItem(KEY, 'something else');
    expect(terms.pending(TERMS)).to.equal(true);
  });

  it('runs at once when nothing is to accept, without opening the dialog', async () => {
    const mounted = await mountTerms();
    localStorage.setItem(KEY, 'accepted');
    const { starts } = await runFromOpener(mounted);
    expect(starts()).to.equal(1);
    expect(mounted.terms.open).to.equal(false);
    expect(mounted.$('dialog')).to.equal(null);
  });

  it('opens the dialog as a modal; accept remembers, closes, runs what waited once and puts focus on what it started (the fallback, not the opener)', async () => {
    const mounted = await mountTerms();
    const { host, terms, $ } = mounted;
    const { starts } = await runFromOpener(mounted);
    expect(starts()).to.equal(0);
    expect(terms.open).to.equal(true);
    const dialog = $('dialog') as HTMLDialogElement;
    expect(dialog.open).to.equal(true);
    expect(dialog.matches(':modal')).to.equal(true);

    terms.accept(TERMS);
    expect(starts()).to.equal(1);
    expect(terms.open).to.equal(false);
    expect(localStorage.getItem(KEY)).to.equal('accepted');
    await host.updateComplete;
    expect($('dialog')).to.equal(null);
    await until(() => focused(host) === $('.fallback'), 'focus on the panel\'s first control');
    expect(terms.pending(UNKEYED), 'accepted for this page view').to.equal(false);
    terms.accept(TERMS);
    expect(starts(), 'accept again runs nothing more').to.equal(1);
  });

  it('declining (close) runs nothing, remembers nothing and returns focus to the opener', async () => {
    const mounted = await mountTerms();
    const { host, terms, $ } = mounted;
    const { starts } = await runFromOpener(mounted);
    terms.close();
    await host.updateComplete;
    expect(starts()).to.equal(0);
    expect(terms.open).to.equal(false);
    expect(localStorage.getItem(KEY)).to.equal(null);
    expect(terms.pending(TERMS)).to.equal(true);
    await until(() => focused(host) === $('.opener'), 'focus back on the opener');
  });

  it('returns focus to the fallback when the opener is gone', async () => {
    const mounted = await mountTerms();
    const { host, terms, $ } = mounted;
    await runFromOpener(mounted);
    await mounted.dropOpener();
    expect($('.opener')).to.equal(null);
    terms.close();
    await until(() => focused(host) === $('.fallback'), 'focus on the fallback');
  });

  it('keeps the acceptance for the page view when localStorage refuses it, with a warning', async () => {
    const mounted = await mountTerms();
    const { starts } = await runFromOpener(mounted);
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    try {
      const { warnings } = await captureConsole(() => mounted.terms.accept(TERMS));
      expect(warnings).to.deep.equal(['[voice-agent-widget] no localStorage: terms acceptance kept for this page view only.']);
    } finally {
      Storage.prototype.setItem = setItem;
    }
    expect(starts()).to.equal(1);
    expect(mounted.terms.pending(TERMS)).to.equal(false);
    expect(localStorage.getItem(KEY)).to.equal(null);
  });

  it('forgets what waited and closes when the host leaves', async () => {
    const mounted = await mountTerms();
    const { starts } = await runFromOpener(mounted);
    const reattach = detach(mounted.host);
    expect(mounted.terms.open).to.equal(false);
    await reattach();
    mounted.terms.accept(TERMS);
    expect(starts(), 'nothing runs after the element left').to.equal(0);
  });
});

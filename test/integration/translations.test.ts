/**
 * The widget's own labels in the conversation language (issue 19, item 4; src/config/translations/), against the
 * reference service: loaded once the language is known, the launcher's and the panel's; the `text-contents` attribute
 * still wins; a regional tag takes its language's labels; a language with none stays English, with no request.
 */
import { expect } from '@open-wc/testing';
import { WIDGET_LABELS } from '../../src/config/defaults.js';
import { PANEL_LABELS } from '../../src/config/panel-labels.js';
import de from '../../src/config/translations/de.js';
import ptBr from '../../src/config/translations/pt-br.js';
import { captureConsole, until } from '../helpers.js';
import { $, mountWidget, openPanel } from '../widget-helpers.js';
import { part, watchEachCall } from './voice-helpers.js';

const dismissLabel = (el: HTMLElement & { shadowRoot: ShadowRoot | null }): string | null | undefined =>
  el.shadowRoot?.querySelector('[part~="dismiss-button"]')?.getAttribute('aria-label');

describe('translations of the widget\'s own labels', () => {
  it('language="de": the launcher\'s dismiss button and the panel\'s transcript are named in German', async () => {
    const el = await mountWidget('agent_minimal', { language: 'de', dismissible: 'true' });
    await until(() => dismissLabel(el) === de.dismiss, `the dismiss button named "${de.dismiss}" (is "${dismissLabel(el)}")`);
    await openPanel(el);
    await until(() => $(el, '[part~="transcript"]')?.getAttribute('aria-label') === de.transcript, 'the transcript named in German');
  });

  it('the text-contents attribute wins over the translation', async () => {
    const el = await mountWidget('agent_minimal', { language: 'de', dismissible: 'true', 'text-contents': JSON.stringify({ dismiss: 'Weg damit' }) });
    await openPanel(el);
    await until(() => $(el, '[part~="transcript"]')?.getAttribute('aria-label') === de.transcript, 'the translation loaded');
    $<HTMLButtonElement>(el, '.launcher')!.click();
    await until(() => dismissLabel(el), 'the panel closed, the dismiss button back');
    expect(dismissLabel(el)).to.equal('Weg damit');
  });

  describe('a voice call\'s failure', () => {
    const watch = watchEachCall();
    it('language="de": a microphone in use by another app is told in German, with the German way forward and retry', async () => {
      watch.answerGetUserMedia(() => Promise.reject(new DOMException('injected NotReadableError', 'NotReadableError')));
      const el = await mountWidget('agent_minimal', { language: 'de' });
      await openPanel(el);
      await until(() => $(el, '[part~="transcript"]')?.getAttribute('aria-label') === de.transcript, 'the translation loaded');
      const { errors } = await captureConsole(async () => {
        part(el, 'start-call-button')!.click();
        await until(() => part(el, 'voice-problem'), 'the problem shown');
      });
      expect(errors.join('\n'), 'the console keeps the developer\'s words').to.include('in use by another application');
      expect(part(el, 'voice-problem')!.textContent!.trim()).to.equal(`${de.microphone_in_use} ${de.type_instead}`);
      await until(() => part(el, 'start-call-button')!.textContent!.trim() === de.retry, 'the call button says retry in German');
      await expect(el).to.be.accessible();
    });
  });

  it('a regional tag takes its language\'s labels: pt-BR → pt-br', async () => {
    const el = await mountWidget('agent_minimal', { language: 'pt-BR', dismissible: 'true' });
    await until(() => dismissLabel(el) === ptBr.dismiss, `the dismiss button named "${ptBr.dismiss}"`);
  });

  it('a language with no translation stays English, and nothing is fetched for it', async () => {
    const before = performance.getEntriesByType('resource').length;
    const el = await mountWidget('agent_minimal', { language: 'en', dismissible: 'true' });
    await openPanel(el);
    expect(dismissLabel(el) ?? WIDGET_LABELS.dismiss).to.equal(WIDGET_LABELS.dismiss);
    expect($(el, '[part~="transcript"]')!.getAttribute('aria-label')).to.equal(PANEL_LABELS.transcript);
    const fetched = performance.getEntriesByType('resource').slice(before).map((entry) => entry.name);
    expect(fetched.filter((url) => /translations/.test(url)), 'no translation module fetched').to.deep.equal([]);
  });
});

// PROTOCOL.md section 2 (`language`, `supported_language_overrides`): which language the conversation speaks.
import { expect } from '@open-wc/testing';
import { chooseLanguage, offeredLanguages, preferredLanguage } from '../../../src/config/language.js';
import { languageName } from '../../../src/config/language-name.js';
import { resolveWidgetConfig } from '../../../src/config/validate.js';

/** An agent in `language` offering `overrides`, as validated (the `language` attribute, when set, is laid over it). */
const agent = (language: string, overrides: string[] = []) =>
  resolveWidgetConfig({ language, supported_language_overrides: overrides }, () => {}, location.href);

/** English, offering German and French. */
const EN_DE_FR = agent('en', ['de', 'fr']);

describe('preferredLanguage', () => {
  it('takes the first browser language the agent offers, exactly or by primary tag, else the agent\'s', () => {
    expect(preferredLanguage(EN_DE_FR, ['it', 'de-AT', 'fr'])).to.equal('de');
    expect(preferredLanguage(EN_DE_FR, ['FR_ca'])).to.equal('fr');
    expect(preferredLanguage(EN_DE_FR, ['it', 'not a tag'])).to.equal('en');
    expect(preferredLanguage(EN_DE_FR, [])).to.equal('en');
  });

  it('prefers the exact tag to the primary one', () => {
    expect(preferredLanguage(agent('en', ['pt', 'pt-br']), ['pt-BR'])).to.equal('pt-br');
  });
});

describe('chooseLanguage', () => {
  it('without the attribute: the browser\'s language when offered, else the agent\'s', () => {
    expect(chooseLanguage(EN_DE_FR, null, undefined, '', ['de-DE', 'en'])).to.equal('de');
    expect(chooseLanguage(EN_DE_FR, null, undefined, '', ['it'])).to.equal('en');
  });

  it('keeps the visitor\'s choice while the agent offers it, whatever the browser says', () => {
    expect(chooseLanguage(EN_DE_FR, null, null, 'fr', ['de'])).to.equal('fr');
    expect(chooseLanguage(agent('en', ['de']), null, null, 'fr', ['de']), 'no longer offered').to.equal('de');
    expect(chooseLanguage(agent('en'), null, null, 'fr', ['it'])).to.equal('en');
  });

  it('the language attribute decides when it is new: set first, or changed', () => {
    const french = agent('fr', ['de']);
    expect(chooseLanguage(french, 'fr', undefined, '', ['de']), 'first choice').to.equal('fr');
    expect(chooseLanguage(french, 'fr', undefined, 'de', ['de']), 'set after a choice').to.equal('fr');
    expect(chooseLanguage(french, 'fr', 'en', 'de', ['de']), 'changed').to.equal('fr');
  });

  it('an unchanged attribute keeps the visitor\'s choice while offered, else gives its own language again', () => {
    const french = agent('fr', ['de']);
    expect(chooseLanguage(french, 'fr', 'fr', 'de', ['en'])).to.equal('de');
    expect(chooseLanguage(french, 'fr', 'fr', 'it', ['de']), 'not offered: the attribute, not the browser').to.equal('fr');
    expect(chooseLanguage(french, 'fr', 'fr', '', ['de']), 'nothing chosen yet').to.equal('fr');
  });

  it('removing the attribute keeps the language in use while offered', () => {
    expect(chooseLanguage(EN_DE_FR, null, 'fr', 'fr', ['de'])).to.equal('fr');
  });

  it('is stable: its answer, asked again with the same attribute, comes back', () => {
    const cases: [ReturnType<typeof agent>, string | null, string | null | undefined, string, string[]][] = [
      [EN_DE_FR, null, undefined, '', ['de-AT']],
      [EN_DE_FR, null, null, 'it', ['it']],
      [agent('fr', ['de']), 'fr', 'en', 'de', ['de']],
      [agent('fr', ['de']), 'fr', 'fr', 'it', []],
    ];
    for (const [config, attribute, previous, chosen, browser] of cases) {
      const first = chooseLanguage(config, attribute, previous, chosen, browser);
      expect(offeredLanguages(config)).to.include(first);
      expect(chooseLanguage(config, attribute, attribute, first, browser), JSON.stringify([attribute, previous, chosen])).to.equal(first);
    }
  });
});

describe('languageName', () => {
  it('names a language in itself, the tag when unknown, making one Intl.DisplayNames per language (the header asks at each render)', () => {
    const { DisplayNames } = Intl;
    let made = 0;
    const intl = Intl as { DisplayNames: typeof DisplayNames };
    intl.DisplayNames = class extends DisplayNames {
      constructor(...args: ConstructorParameters<typeof DisplayNames>) {
        super(...args);
        made += 1;
      }
    } as typeof DisplayNames;
    try {
      expect([languageName('nl'), languageName('nl'), languageName('nl')]).to.deep.equal(['Nederlands', 'Nederlands', 'Nederlands']);
      expect(made).to.equal(1);
      expect(languageName('not a tag')).to.equal('not a tag');
    } finally {
      intl.DisplayNames = DisplayNames;
    }
  });
});

// The widget's own labels in 33 languages (config/translations/): each module has every label, translated.
import { expect } from '@open-wc/testing';
import { WIDGET_LABELS } from '../../../src/config/defaults.js';
import { PANEL_LABELS } from '../../../src/config/panel-labels.js';
import { loadTranslation, translationFor, TRANSLATED_LANGUAGES, type Translation } from '../../../src/config/translations/index.js';
import ar from '../../../src/config/translations/ar.js';
import bg from '../../../src/config/translations/bg.js';
import cs from '../../../src/config/translations/cs.js';
import da from '../../../src/config/translations/da.js';
import de from '../../../src/config/translations/de.js';
import el from '../../../src/config/translations/el.js';
import es from '../../../src/config/translations/es.js';
import fi from '../../../src/config/translations/fi.js';
import fil from '../../../src/config/translations/fil.js';
import fr from '../../../src/config/translations/fr.js';
import he from '../../../src/config/translations/he.js';
import hi from '../../../src/config/translations/hi.js';
import hr from '../../../src/config/translations/hr.js';
import hu from '../../../src/config/translations/hu.js';
import id from '../../../src/config/translations/id.js';
import it_ from '../../../src/config/translations/it.js';
import ja from '../../../src/config/translations/ja.js';
import ko from '../../../src/config/translations/ko.js';
import ms from '../../../src/config/translations/ms.js';
import nl from '../../../src/config/translations/nl.js';
import no from '../../../src/config/translations/no.js';
import pl from '../../../src/config/translations/pl.js';
import pt from '../../../src/config/translations/pt.js';
import ptBr from '../../../src/config/translations/pt-br.js';
import ro from '../../../src/config/translations/ro.js';
import ru from '../../../src/config/translations/ru.js';
import sk from '../../../src/config/translations/sk.js';
import sv from '../../../src/config/translations/sv.js';
import ta from '../../../src/config/translations/ta.js';
import tr from '../../../src/config/translations/tr.js';
import uk from '../../../src/config/translations/uk.js';
import vi from '../../../src/config/translations/vi.js';
import zh from '../../../src/config/translations/zh.js';

/** Every translation by its tag (the file names of config/translations/, index.ts and types.ts aside). */
const TRANSLATIONS: Record<string, Translation> = {
  ar, bg, cs, da, de, el, es, fi, fil, fr, he, hi, hr, hu, id, it: it_, ja, ko, ms, nl, no, pl, pt, 'pt-br': ptBr, ro, ru,
  sk, sv, ta, tr, uk, vi, zh,
};

/** The English labels a translation has: `WIDGET_LABELS` and `PANEL_LABELS`. */
const ENGLISH: Record<string, string> = { ...WIDGET_LABELS, ...PANEL_LABELS };

/** Labels longer than this in English are sentences: the same text in another language means it was not translated. */
const SHORT_LABEL = 12;

/** Markup, markdown links or placeholders: none belongs in a label (they are shown as plain text). */
const FORBIDDEN = ['<', '>', '[', '](', '{{'];

/** The right-to-left languages, each with its script. */
const RTL_SCRIPTS: Record<string, RegExp> = { ar: /\p{Script=Arabic}/u, he: /\p{Script=Hebrew}/u };

describe('translations', () => {
  it('cover the 33 languages', () => {
    expect(Object.keys(TRANSLATIONS)).to.have.length(33);
  });

  for (const [tag, translation] of Object.entries(TRANSLATIONS)) {
    describe(tag, () => {
      it('has exactly the English labels\' keys', () => {
        expect(Object.keys(translation).sort()).to.deep.equal(Object.keys(ENGLISH).sort());
      });

      it('has every label as short plain text', () => {
        for (const [key, text] of Object.entries(translation)) {
          expect(text, key).to.be.a('string');
          expect(text.trim(), key).to.equal(text);
          expect(text.length, key).to.be.within(1, 160);
          for (const forbidden of FORBIDDEN) expect(text, key).not.to.include(forbidden);
        }
      });

      it('translates every sentence-length label', () => {
        for (const [key, english] of Object.entries(ENGLISH)) {
          if (english.length > SHORT_LABEL) expect(translation[key as keyof Translation], key).not.to.equal(english);
        }
      });

      if (RTL_SCRIPTS[tag]) {
        it('is written in its right-to-left script', () => {
          for (const [key, text] of Object.entries(translation)) expect(text, key).to.match(RTL_SCRIPTS[tag]!);
        });
      }
    });
  }
});

describe('loading a translation (config/translations/index.ts)', () => {
  it('offers exactly the languages of this table', () => {
    expect([...TRANSLATED_LANGUAGES].sort()).to.deep.equal(Object.keys(TRANSLATIONS).sort());
  });

  it('picks the tag, else its primary tag or that tag\'s alias; none for English or a language without one', () => {
    const cases: [string, string | undefined][] = [
      ['de', 'de'], ['de-at', 'de'], ['pt-br', 'pt-br'], ['pt-pt', 'pt'], ['pt', 'pt'], ['zh-cn', 'zh'], ['nb', 'no'], ['nn-no', 'no'],
      ['tl', 'fil'], ['iw', 'he'], ['in', 'id'], ['en', undefined], ['en-gb', undefined], ['xx', undefined], ['constructor', undefined],
    ];
    for (const [language, tag] of cases) expect(translationFor(language), language).to.equal(tag);
  });

  it('loads the module of a language, and null for English', async () => {
    expect(await loadTranslation('de-ch')).to.deep.equal(TRANSLATIONS.de);
    expect(await loadTranslation('en')).to.equal(null);
  });
});

/**
 * The widget's own labels (`WIDGET_LABELS` and `PANEL_LABELS`: what no `text_contents` label of SERVICE-INTERFACE.md
 * 2.11 names) in 33 languages beside English, one chunk each, loaded once the conversation language is known
 * (PROTOCOL.md section 2, `language` and `supported_language_overrides`; config/language.ts `chooseLanguage`). The
 * launcher does not wait for them: it shows English until its language's arrive, and the `text-contents` attribute and
 * `language_presets` still win where they name a label (config/texts.ts `resolveTexts`).
 */
import * as log from '../../internal/console.js';
import type { Translation } from './types.js';

export type { Translation } from './types.js';

/** Each language's chunk, by lower-case BCP 47 tag (config/validate.ts `normalizeLanguage`). */
const TRANSLATIONS: Record<string, () => Promise<{ default: Translation }>> = {
  ar: () => import('./ar.js'),
  bg: () => import('./bg.js'),
  cs: () => import('./cs.js'),
  da: () => import('./da.js'),
  de: () => import('./de.js'),
  el: () => import('./el.js'),
  es: () => import('./es.js'),
  fi: () => import('./fi.js'),
  fil: () => import('./fil.js'),
  fr: () => import('./fr.js'),
  he: () => import('./he.js'),
  hi: () => import('./hi.js'),
  hr: () => import('./hr.js'),
  hu: () => import('./hu.js'),
  id: () => import('./id.js'),
  it: () => import('./it.js'),
  ja: () => import('./ja.js'),
  ko: () => import('./ko.js'),
  ms: () => import('./ms.js'),
  nl: () => import('./nl.js'),
  no: () => import('./no.js'),
  pl: () => import('./pl.js'),
  pt: () => import('./pt.js'),
  'pt-br': () => import('./pt-br.js'),
  ro: () => import('./ro.js'),
  ru: () => import('./ru.js'),
  sk: () => import('./sk.js'),
  sv: () => import('./sv.js'),
  ta: () => import('./ta.js'),
  tr: () => import('./tr.js'),
  uk: () => import('./uk.js'),
  vi: () => import('./vi.js'),
  zh: () => import('./zh.js'),
};

/** Tags that name a translated language another way: Norwegian Bokmål and Nynorsk, Tagalog, the old Hebrew and Indonesian codes. */
const ALIASES: Record<string, string> = { nb: 'no', nn: 'no', tl: 'fil', iw: 'he', in: 'id' };

/** The languages with a translation (lower-case BCP 47 tags), English aside. */
export const TRANSLATED_LANGUAGES = Object.keys(TRANSLATIONS);

/**
 * Which translation serves `language`: the tag itself (`pt-br`), else its primary tag (`de-at` → `de`) or that tag's
 * alias (`nb` → `no`); undefined for English and for a language with none.
 */
export function translationFor(language: string): string | undefined {
  const primary = language.split('-')[0]!;
  return [language, primary, ALIASES[primary]].find((tag) => tag !== undefined && Object.hasOwn(TRANSLATIONS, tag));
}

/**
 * The widget's own labels in `language` (`translationFor`): every key of `WIDGET_LABELS` and `PANEL_LABELS`.
 * @returns null for English or a language with no translation, and when its chunk cannot be loaded (said in the
 *   console; the labels stay English). Never rejects.
 */
export async function loadTranslation(language: string): Promise<Translation | null> {
  const tag = translationFor(language);
  if (!tag) return null;
  try {
    return (await TRANSLATIONS[tag]!()).default;
  } catch (error) {
    log.warn(`The labels in ${tag} could not be loaded (${(error as Error)?.message ?? error}); they stay in English.`);
    return null;
  }
}

import { normalizeLanguage } from './validate.js';
import type { WidgetConfig } from './types.js';

/** Primary tags written right to left (issue 3: Arabic and Hebrew; Persian and Urdu too). */
const RTL = ['ar', 'he', 'fa', 'ur'];

/** `rtl` for a right-to-left language tag, else `ltr`. */
export function directionOf(language: string): 'rtl' | 'ltr' {
  return RTL.includes(language.split('-')[0]!) ? 'rtl' : 'ltr';
}

/** The languages a visitor may choose (PROTOCOL.md section 2): the agent's language, then `supported_language_overrides`. */
export function offeredLanguages(config: WidgetConfig): string[] {
  return [...new Set([config.language, ...config.supported_language_overrides])];
}

/**
 * The first of the visitor's browser languages (`navigator.languages`) that the agent offers, matched exactly or by
 * primary tag (`de-AT` → `de`); else the agent's language.
 */
export function preferredLanguage(config: WidgetConfig, browserLanguages: readonly string[]): string {
  const offered = offeredLanguages(config);
  for (const tag of browserLanguages) {
    const language = normalizeLanguage(tag);
    if (!language) continue;
    const match = offered.find((o) => o === language) ?? offered.find((o) => o === language.split('-')[0]);
    if (match) return match;
  }
  return config.language;
}

/** A language's own name for itself (`de` → "Deutsch"), from the browser's `Intl.DisplayNames`; the tag when unknown. */
export function languageName(language: string): string {
  try {
    return new Intl.DisplayNames([language], { type: 'language' }).of(language) ?? language;
  } catch {
    return language;
  }
}

/**
 * The languages of the widget (PROTOCOL.md section 2, `language`, `supported_language_overrides`, `language_presets`):
 * which the agent offers, which the conversation speaks (`chooseLanguage`), and which way each is written. Pure. How
 * each is named is in language-name.ts (the conversation's language selector).
 */
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
    const match = language && [language, language.split('-')[0]!].find((l) => offered.includes(l));
    if (match) return match;
  }
  return config.language;
}

/**
 * The conversation language (PROTOCOL.md section 2, `language` and `supported_language_overrides`): the `language`
 * attribute decides when it is set and new (changed since the last choice); else the language chosen so far stays while
 * the agent offers it (`offeredLanguages`); else the attribute's when it is set, else the first browser language the
 * agent offers (`preferredLanguage`), else the agent's. Stable: asked again with its answer as `chosen` and `attribute`
 * as `previousAttribute`, it gives the same answer. Never throws.
 * @param config the validated configuration with the `language` attribute laid over it (config/resolve.ts
 *   `resolveConfig`): `config.language` is the attribute's language (a bad tag gives the default, `en`)
 * @param attribute the `language` attribute now: null or undefined when absent
 * @param previousAttribute the `language` attribute when the language was last chosen: undefined before the first choice
 * @param chosen the language in use: the visitor's pick in the selector, else the last choice; '' before the first
 * @param browserLanguages the browser's languages, most preferred first (`navigator.languages`)
 * @returns one of `offeredLanguages(config)`
 */
export function chooseLanguage(
  config: WidgetConfig,
  attribute: string | null | undefined,
  previousAttribute: string | null | undefined,
  chosen: string,
  browserLanguages: readonly string[],
): string {
  if ((!attribute || attribute === previousAttribute) && offeredLanguages(config).includes(chosen)) return chosen;
  return attribute ? config.language : preferredLanguage(config, browserLanguages);
}

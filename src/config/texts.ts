import { DEFAULT_TEXTS, TEXT_KEYS, WIDGET_LABELS } from './defaults.js';
import { LEGACY_TEXT_FIELDS, type Labels, type LanguagePreset, type TextContents, type WidgetConfig } from './types.js';

/** The preset for `language` (`pt-br`, then its primary tag `pt`), or undefined (PROTOCOL.md section 2). */
export function presetFor(config: WidgetConfig, language: string): LanguagePreset | undefined {
  return config.language_presets[language] ?? config.language_presets[language.split('-')[0]!];
}

/**
 * Every label of `text_contents`, resolved with the precedence of PROTOCOL.md section 2:
 * the `text-contents` attribute → `language_presets[language].text_contents` → `text_contents` →
 * the legacy `*_text` field → the built-in default; and the widget's own labels (`WIDGET_LABELS`, the panel's
 * `PANEL_LABELS` where translated): the attribute → the translation into `language` → the English default. Inputs are
 * already validated strings.
 * @param translation the widget's own labels in `language` (config/translations/ `loadTranslation`), once loaded
 */
export function resolveTexts(config: WidgetConfig, language: string, attributeTexts: Partial<Labels> = {}, translation?: Partial<Labels>): Labels {
  const preset = presetFor(config, language)?.text_contents ?? {};
  const legacy: Partial<TextContents> = {};
  for (const [field, key] of Object.entries(LEGACY_TEXT_FIELDS) as [keyof typeof LEGACY_TEXT_FIELDS, keyof TextContents][]) {
    const value = config[field];
    if (value !== undefined) legacy[key] = value;
  }
  const texts = { ...WIDGET_LABELS, ...translation, ...attributeTexts } as Labels;
  for (const key of TEXT_KEYS) {
    texts[key] = attributeTexts[key] ?? preset[key] ?? config.text_contents[key] ?? legacy[key] ?? DEFAULT_TEXTS[key];
  }
  return texts;
}

/** The terms to accept before the first conversation (PROTOCOL.md section 2): `terms_html` (sanitised when shown) or else `terms_text`. */
export interface Terms {
  html: string;
  text: string;
  /** localStorage key that remembers acceptance, or '' */
  key: string;
}

/** The terms for `language` (the preset's `terms_html`, `terms_text`, `terms_key`, field by field, else the configuration's), or null when there are none. */
export function termsFor(config: WidgetConfig, language: string): Terms | null {
  const preset = presetFor(config, language);
  const html = preset?.terms_html ?? config.terms_html;
  const text = preset?.terms_text ?? config.terms_text;
  return html || text ? { html, text, key: preset?.terms_key ?? config.terms_key } : null;
}

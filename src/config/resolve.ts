/**
 * Resolving the widget configuration (PROTOCOL.md section 2; SERVICE-INTERFACE.md 2.11): the service's `widget_config`
 * (untrusted) with the element's attributes laid over it becomes what every part renders from. Pure: no state, no DOM;
 * each problem found is told in words through the `warn` given, and nothing here throws.
 *
 * Two steps, so that a caller can remember each on its own arguments (widget/controllers/widget-config.ts validates a
 * configuration, and tells its problems, once per answer and override attributes): `resolveConfig` (validation, link
 * policy, the agent's language), then, in the conversation language chosen from its result (config/language.ts
 * `chooseLanguage`), `resolveLabels` (labels and terms).
 */
import { applyAttributeLayer, attributeFor, attributeLayer, type AttributeValues } from './attributes.js';
import type { LinkPolicy } from './link-policy.js';
import { resolveTexts, termsFor, type Terms } from './texts.js';
import type { Labels, WidgetConfig } from './types.js';
import { normalizeLanguage, resolveWidgetConfig } from './validate.js';

/** A validated configuration and what follows from it alone. */
export interface ResolvedConfig {
  /** The service's `widget_config`, validated, with the override attributes laid over it (attributes win). */
  config: WidgetConfig;
  /** The link policy of agent markdown and `terms_html` (`markdown_link_*`, the page as own origin). */
  linkPolicy: LinkPolicy;
  /** The agent's own language as the service sent it (normalised; `en` when none or not a language tag). */
  agentLanguage: string;
}

/**
 * Validates the service's `widget_config` with the override attributes laid over it (`CONFIG_ATTRIBUTES`; attributes
 * win, field by field, and are checked with the same rules). A bad field takes its default.
 * @param raw the `widget_config` of the read or of the cache (anything; a non-object gives every default)
 * @param attributes the attribute values (null or undefined when absent); only `CONFIG_ATTRIBUTES` are read
 * @param pageUrl the page's URL (`location.href`): base of relative URLs, the same-origin rule, the link policy's origin
 * @param warn told each problem once, in words: `attribute variant (widget_config.variant): expected one of …; using the
 *   default.`, `widget_config.styles.accent: not a CSS colour …`, a boolean attribute that is not true or false
 */
export function resolveConfig(raw: unknown, attributes: AttributeValues, pageUrl: string, warn: (message: string) => void): ResolvedConfig {
  const config = resolveWidgetConfig(
    applyAttributeLayer(raw, attributeLayer(attributes, warn)),
    (field, problem) => {
      const attribute = attributeFor(field, attributes);
      warn(`${attribute ? `attribute ${attribute} (widget_config.${field})` : `widget_config.${field}`}: ${problem}; using the default.`);
    },
    pageUrl,
  );
  return {
    config,
    linkPolicy: { allowedHosts: config.markdown_link_allowed_hosts, includeWww: config.markdown_link_include_www, allowHttp: config.markdown_link_allow_http, pageUrl },
    agentLanguage: normalizeLanguage((raw as { language?: unknown } | null | undefined)?.language) ?? 'en',
  };
}

/** What a configuration says in one language. */
export interface ResolvedLabels {
  /** Every label, with the text precedence of PROTOCOL.md section 2 (`resolveTexts`). */
  texts: Labels;
  /** The terms to accept before the first conversation, or null when there are none (`termsFor`). */
  terms: Terms | null;
}

/**
 * The labels and terms of `config` in `language` (the conversation language, `chooseLanguage`).
 * @param attributeTexts the parsed `text-contents` attribute (`parseTextContents`): the first step of the precedence
 * @param translation the widget's own labels in `language` (config/translations/ `loadTranslation`), once loaded
 */
export function resolveLabels(config: WidgetConfig, language: string, attributeTexts: Partial<Labels>, translation?: Partial<Labels>): ResolvedLabels {
  return { texts: resolveTexts(config, language, attributeTexts, translation), terms: termsFor(config, language) };
}

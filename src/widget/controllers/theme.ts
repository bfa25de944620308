import type { ReactiveController, ReactiveElement } from 'lit';
import { errorTextMix, parseColor, resolveTheme, themeRule, type Theme } from '../../config/theme.js';
import type { WidgetConfig } from '../../config/types.js';
import { resolveWidgetConfig } from '../../config/validate.js';

/** The theme of the defaults, for the loading and error states (computed once, on first use). */
let defaultConfig: WidgetConfig | null = null;

/** The last colours `errorMixOf` was asked about and its answer: an update of the same theme reads no colour again. */
let lastMix: [colors: string, mix: number | undefined] = ['', undefined];

/**
 * The error text's mix (`errorTextMix`) for a theme, or undefined where one of its colours is of a form `parseColor`
 * does not read (a name, `hsl()`…): 30% then.
 */
function errorMixOf(theme: Theme): number | undefined {
  const colors = `${theme['base']} ${theme['base-error']} ${theme['base-primary']}`;
  if (lastMix[0] === colors) return lastMix[1];
  const background = parseColor(theme['base']!);
  const error = background && parseColor(theme['base-error']!, background);
  const text = background && parseColor(theme['base-primary']!, background);
  lastMix = [colors, error && text ? errorTextMix(error, text, background) : undefined];
  return lastMix[1];
}

/**
 * The element's own adopted stylesheet holding the theme tokens (config/theme.ts; DESIGN.md rule 6): the page's
 * `--voice-agent-*` property wins, then the configuration's validated value, then the default. CSP-safe: no inline
 * `<style>` and no `style` attribute. Written after each update, only when the rule changed. It also decides how much
 * of the text colour the error text needs (`errorTextMix` of the configuration's colours, read by `parseColor`, no
 * canvas: nothing costly before the launcher is usable): `base_error` is drawn as itself wherever it is readable on `base`.
 */
export class ThemeController implements ReactiveController {
  #sheet: CSSStyleSheet | null = null;
  #rule = '';
  /** The configuration `#rule` was made from. */
  #for: WidgetConfig | null = null;

  constructor(private readonly host: ReactiveElement, private readonly config: () => WidgetConfig | null) {
    host.addController(this);
  }

  hostUpdated(): void {
    const root = this.host.shadowRoot;
    if (!root) return;
    if (!this.#sheet) {
      this.#sheet = new CSSStyleSheet();
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, this.#sheet];
    }
    // Resolved again only for another configuration (not at each update: a call updates the element often).
    const config = this.config() ?? (defaultConfig ??= resolveWidgetConfig({}, () => {}, location.href));
    if (config === this.#for) return;
    this.#for = config;
    const theme = resolveTheme(config);
    const rule = themeRule(theme, errorMixOf(theme));
    if (rule !== this.#rule) this.#sheet.replaceSync((this.#rule = rule));
  }
}

import type { ReactiveController, ReactiveElement } from 'lit';
import { parseColor, resolveTheme, textMix, themeRule, type Theme } from '../../config/theme.js';
import type { WidgetConfig } from '../../config/types.js';
import { resolveWidgetConfig } from '../../config/validate.js';

/** The theme of the defaults, for the loading and error states (computed once, on first use). */
let defaultConfig: WidgetConfig | null = null;

/**
 * The error and subtle texts' mixes (`textMix`) for a theme: error text on `base`, subtle text on `base` and
 * `base_active`; undefined where one of its colours is of a form `parseColor` does not read (a name, `hsl()`…): the
 * style's defaults (30%, 0%) then. Asked once per configuration (the controller's own check), a few µs.
 */
function mixesOf(theme: Theme): readonly [number, number] | undefined {
  const background = parseColor(theme['base']!);
  const [active, error, subtle, text] = ['active', 'error', 'subtle', 'primary'].map((name) => background && parseColor(theme[`base-${name}`]!, background));
  return active && error && subtle && text ? [textMix(error, text, background!), textMix(subtle, text, background!, active)] : undefined;
}

/**
 * The element's own adopted stylesheet holding the theme tokens (config/theme.ts; DESIGN.md rule 6): the page's
 * `--voice-agent-*` property wins, then the configuration's validated value, then the default. CSP-safe: no inline
 * `<style>` and no `style` attribute. Written after each update, only when the rule changed. It also decides how much
 * of the text colour the error and subtle texts need (`textMix` of the configuration's colours, read by `parseColor`,
 * no canvas: nothing costly before the launcher is usable): `base_error` and `base_subtle` are drawn as themselves
 * wherever they are readable (4.5:1) where they sit.
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
    const rule = themeRule(theme, mixesOf(theme));
    if (rule !== this.#rule) this.#sheet.replaceSync((this.#rule = rule));
  }
}

import type { ReactiveController, ReactiveElement } from 'lit';
import { resolveTheme, themeRule } from '../../config/theme.js';
import type { WidgetConfig } from '../../config/types.js';
import { resolveWidgetConfig } from '../../config/validate.js';

/** The theme of the defaults, for the loading and error states (computed once, on first use). */
let defaultConfig: WidgetConfig | null = null;

/**
 * The element's own adopted stylesheet holding the theme tokens (config/theme.ts; DESIGN.md rule 6): the page's
 * `--voice-agent-*` property wins, then the configuration's validated value, then the default. CSP-safe: no inline
 * `<style>` and no `style` attribute. Written after each update, only when the rule changed.
 */
export class ThemeController implements ReactiveController {
  #sheet: CSSStyleSheet | null = null;
  #rule = '';

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
    const rule = themeRule(resolveTheme(this.config() ?? (defaultConfig ??= resolveWidgetConfig({}, () => {}, location.href))));
    if (rule !== this.#rule) this.#sheet.replaceSync((this.#rule = rule));
  }
}

import type { ReactiveController, ReactiveElement } from 'lit';
import { errorTextMix, resolveTheme, themeRule, type Rgb, type Theme } from '../../config/theme.js';
import type { WidgetConfig } from '../../config/types.js';
import { resolveWidgetConfig } from '../../config/validate.js';

/** The theme of the defaults, for the loading and error states (computed once, on first use). */
let defaultConfig: WidgetConfig | null = null;

/** A 2D context that reads any CSS colour back as sRGB (its `fillStyle` serialises to `#rrggbb` or `rgba(...)`). */
let colors: CanvasRenderingContext2D | null | undefined;

/** `color` (a validated CSS colour) as sRGB over `under` (its alpha composited), or null where it cannot be read. */
function rgbOf(color: string, under: Rgb = [255, 255, 255]): Rgb | null {
  colors ??= document.createElement('canvas').getContext('2d');
  if (!colors) return null;
  colors.fillStyle = '#000';
  colors.fillStyle = color;
  const value = String(colors.fillStyle);
  if (value[0] === '#') return [1, 3, 5].map((i) => parseInt(value.slice(i, i + 2), 16)) as unknown as Rgb;
  // A colour the canvas keeps in another space (`color(display-p3 …)`, `oklch(…)`): not read here.
  if (!value.startsWith('rgb')) return null;
  const [r = 0, g = 0, b = 0, a = 1] = (value.match(/[\d.]+/g) ?? []).map(Number);
  return [r, g, b].map((c, i) => c * a + under[i]! * (1 - a)) as unknown as Rgb;
}

/** The last colours `errorMixOf` was asked about and its answer: an update of the same theme reads no colour again. */
let lastMix: [colors: string, mix: number | undefined] = ['', undefined];

/** The error text's mix (`errorTextMix`) for a theme, or undefined where its colours cannot be read (30% then). */
function errorMixOf(theme: Theme): number | undefined {
  const colors = `${theme['base']} ${theme['base-error']} ${theme['base-primary']}`;
  if (lastMix[0] === colors) return lastMix[1];
  const background = rgbOf(theme['base']!);
  const error = background && rgbOf(theme['base-error']!, background);
  const text = background && rgbOf(theme['base-primary']!, background);
  lastMix = [colors, error && text ? errorTextMix(error, text, background) : undefined];
  return lastMix[1];
}

/**
 * The element's own adopted stylesheet holding the theme tokens (config/theme.ts; DESIGN.md rule 6): the page's
 * `--voice-agent-*` property wins, then the configuration's validated value, then the default. CSP-safe: no inline
 * `<style>` and no `style` attribute. Written after each update, only when the rule changed. It also decides how much
 * of the text colour the error text needs (`errorTextMix` of the configuration's colours): `base_error` is drawn as
 * itself wherever it is readable on `base`.
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
    const theme = resolveTheme(this.config() ?? (defaultConfig ??= resolveWidgetConfig({}, () => {}, location.href)));
    const rule = themeRule(theme, errorMixOf(theme));
    if (rule !== this.#rule) this.#sheet.replaceSync((this.#rule = rule));
  }
}

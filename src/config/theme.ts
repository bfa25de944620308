/**
 * The theme: widget configuration colours and sizes → CSS custom properties, in the three layers of
 * DESIGN.md rule 6: the page's `--voice-agent-<token>` wins, then the configuration, then the default (both already
 * folded into `resolveTheme`'s value, from validated values only). Styles read only the private `--_<token>`.
 */
import { DEFAULT_STYLE_COLORS, DEFAULT_STYLE_SIZES } from './defaults.js';
import { STYLE_COLOR_KEYS, type LegacyColorKey, type StyleColorKey, type StyleSizeKey, type WidgetConfig } from './types.js';

/** Legacy colour field → the newer `styles` key it stands for (PROTOCOL.md section 2). `focus_color` has its own token. */
const LEGACY_COLOR_FOR: Partial<Record<StyleColorKey, LegacyColorKey>> = {
  base: 'bg_color',
  base_primary: 'text_color',
  accent: 'btn_color',
  accent_primary: 'btn_text_color',
  base_border: 'border_color',
};

/**
 * The resolved value of every token for one configuration, by token name (`--voice-agent-<name>` on the page,
 * `--_<name>` inside): the `styles` colours (`base`, `base-hover`, … `accent-primary`), `focus`, `orb-color-1`,
 * `orb-color-2`, and the px sizes `overlay-padding`, `button-radius`, `input-radius`, `bubble-radius`, `sheet-radius`,
 * `compact-sheet-radius`, `dropdown-sheet-radius`.
 */
export type Theme = Record<string, string>;

/**
 * Resolves every token from a validated configuration: `styles.X` → the legacy field → the default.
 * Derived sizes (PROTOCOL.md section 2): sheet_radius = button_radius + 6 (legacy `border_radius` before that),
 * compact_sheet_radius = button_radius + 12, dropdown_sheet_radius = input_radius + 6.
 */
export function resolveTheme(config: WidgetConfig): Theme {
  const { styles } = config;
  const theme: Theme = {};
  for (const key of STYLE_COLOR_KEYS) {
    const legacy = LEGACY_COLOR_FOR[key];
    theme[key.replace(/_/g, '-')] = styles[key] ?? (legacy && config[legacy]) ?? DEFAULT_STYLE_COLORS[key];
  }
  theme['focus'] = config.focus_color ?? theme['accent']!;
  theme['orb-color-1'] = config.avatar.color_1;
  theme['orb-color-2'] = config.avatar.color_2;
  const size = (key: StyleSizeKey, fallback: number): number => styles[key] ?? fallback;
  const buttonRadius = size('button_radius', config.btn_radius ?? DEFAULT_STYLE_SIZES.button_radius);
  const inputRadius = size('input_radius', DEFAULT_STYLE_SIZES.input_radius);
  const sizes: Record<string, number> = {
    'overlay-padding': size('overlay_padding', DEFAULT_STYLE_SIZES.overlay_padding),
    'button-radius': buttonRadius,
    'input-radius': inputRadius,
    'bubble-radius': size('bubble_radius', DEFAULT_STYLE_SIZES.bubble_radius),
    'sheet-radius': size('sheet_radius', config.border_radius ?? buttonRadius + 6),
    'compact-sheet-radius': size('compact_sheet_radius', buttonRadius + 12),
    'dropdown-sheet-radius': size('dropdown_sheet_radius', inputRadius + 6),
  };
  for (const [name, px] of Object.entries(sizes)) theme[name] = `${px}px`;
  return theme;
}

/**
 * `:host { --_<token>: var(--voice-agent-<token>, value); ... }` for one element's adopted stylesheet: the page's
 * property wins, else the value of `resolveTheme` (validated colours and px lengths only). With `mixes` (percents of
 * `textMix`), also the private `--_error-mix` and `--_subtle-mix` that the error and the subtle text's `color-mix`
 * read (30% and 0% when absent).
 */
export function themeRule(theme: Theme, mixes?: readonly [error: number, subtle: number]): string {
  const mix = mixes ? `--_error-mix:${mixes[0]}%;--_subtle-mix:${mixes[1]}%;` : '';
  return `:host{${Object.entries(theme).map(([name, value]) => `--_${name}:var(--voice-agent-${name},${value});`).join('')}${mix}}`;
}

/** A colour's sRGB channels, 0..255 each. */
export type Rgb = readonly [number, number, number];

/**
 * A colour of the forms a configuration gives (`#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()` / `rgba()` with
 * numbers or percentages, commas or spaces) as sRGB, its alpha composited over `under` (white by default); null for
 * any other form (a name, `hsl()`, `oklch()`…), which callers treat as unknown. Pure and cheap: no canvas, no DOM.
 */
export function parseColor(value: string, under: Rgb = [255, 255, 255]): Rgb | null {
  const color = value.trim().toLowerCase();
  const hex = /^#([\da-f]{3,4}|[\da-f]{6}|[\da-f]{8})$/.exec(color)?.[1];
  const channels = hex
    ? (hex.length < 5 ? [...hex].map((digit) => digit + digit) : hex.match(/../g)!).map((pair, i) => parseInt(pair, 16) / (i < 3 ? 1 : 255))
    : /^rgba?\(([^)]*)\)$/.exec(color)?.[1]!.split(/[\s,/]+/).filter(Boolean)
        .map((part, i) => (part.endsWith('%') ? parseFloat(part) * (i < 3 ? 2.55 : 0.01) : parseFloat(part)));
  if (!channels || channels.length < 3 || channels.length > 4 || channels.some((c) => !Number.isFinite(c))) return null;
  const alpha = Math.min(1, Math.max(0, channels[3] ?? 1));
  return under.map((base, i) => Math.min(255, Math.max(0, channels[i]!)) * alpha + base * (1 - alpha)) as unknown as Rgb;
}

/** WCAG 2.x relative luminance of an sRGB colour (0 black .. 1 white). */
function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => (c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.x contrast ratio of two colours (1 .. 21). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The contrast the widget's error and subtle texts need where they are drawn (WCAG 2.2 1.4.3, normal text). */
export const TEXT_CONTRAST = 4.5;

/**
 * How much of the text colour (`base_primary`) a text mixes into its own colour (`base_error` for error text,
 * `base_subtle` for the subtle texts: status, notices, hints), in percent (0, 5 … 100): the least that gives
 * `TEXT_CONTRAST` on each of `backgrounds` (the panel's `base`, and `base_active` where subtle text sits on it: a
 * disabled button), as CSS `color-mix(in srgb, …)` mixes. 0 when the colour alone has that contrast: it is then drawn
 * as itself. 100 when even the text colour falls short (a theme whose text itself is unreadable).
 */
export function textMix(color: Rgb, text: Rgb, ...backgrounds: Rgb[]): number {
  for (let percent = 0; percent < 100; percent += 5) {
    const mixed = color.map((c, i) => c + ((text[i]! - c) * percent) / 100) as unknown as Rgb;
    if (backgrounds.every((background) => contrastRatio(mixed, background) >= TEXT_CONTRAST)) return percent;
  }
  return 100;
}

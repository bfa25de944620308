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
 * property wins, else the value of `resolveTheme` (validated colours and px lengths only).
 */
export function themeRule(theme: Theme): string {
  return `:host{${Object.entries(theme).map(([name, value]) => `--_${name}:var(--voice-agent-${name},${value});`).join('')}}`;
}

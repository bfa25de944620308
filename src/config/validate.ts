/**
 * Validation of the untrusted widget configuration (SERVICE-INTERFACE.md 2.11, PROTOCOL.md section 2).
 * Every field is read on its own: a bad value is replaced by its default and reported through `report`,
 * so one bad field never costs the others and nothing here throws.
 */
import { DEFAULT_ORB_COLORS, MAX_LONG_TEXT_LENGTH, MAX_SIZE_PX, MAX_TEXT_LENGTH } from './defaults.js';
import {
  BOOLEAN_DEFAULTS, LEGACY_COLOR_KEYS, LEGACY_TEXT_FIELDS, STRING_FIELDS, STYLE_COLOR_KEYS, STYLE_SIZE_KEYS, TEXT_KEYS,
  type AvatarType, type BooleanField, type Expandable, type FeedbackMode, type LanguagePreset, type Placement,
  type Styles, type TextContents, type Variant, type WidgetConfig,
} from './types.js';

/** Receives one problem: the field's path (`styles.accent`) and what was wrong. */
export type ConfigProblemReporter = (field: string, problem: string) => void;

const VARIANTS: readonly Variant[] = ['tiny', 'compact', 'full'];
const PLACEMENTS: readonly Placement[] = ['top-left', 'top', 'top-right', 'bottom-left', 'bottom', 'bottom-right'];
const EXPANDABLES: readonly Expandable[] = ['never', 'mobile', 'desktop', 'always'];
const FEEDBACK_MODES: readonly FeedbackMode[] = ['none', 'during', 'end'];
const AVATAR_TYPES: readonly AvatarType[] = ['orb', 'url', 'image'];
/** A BCP 47 primary language tag with an optional region or script, such as `en`, `pt-br`, `zh-hans`. */
const LANGUAGE_TAG = /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Shows a value in a console message without flooding it. */
export function preview(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value));
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * True when `value` is a CSS colour and nothing else: parsed by the browser's CSS parser (`CSS.supports`),
 * with functions that reach outside the value (`var()`, `env()`, `attr()`, `url()`) and
 * declaration breakers (`;`, `{`, `}`) refused, so a colour can never inject CSS.
 */
export function isCssColor(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 100) return false;
  if (/[;{}<>\\]|\b(?:var|env|attr|url|image|element)\s*\(/i.test(value)) return false;
  return typeof CSS !== 'undefined' && typeof CSS.supports === 'function' ? CSS.supports('color', value) : /^#[0-9a-f]{3,8}$/i.test(value);
}

/** Normalises a language tag (`pt-BR` → `pt-br`), or returns null when it is not one. */
export function normalizeLanguage(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const tag = value.trim().toLowerCase().replace(/_/g, '-');
  return LANGUAGE_TAG.test(tag) ? tag : null;
}

/** A field reader bound to one raw object and one reporter; each read falls back and reports on a bad value. */
class Reader {
  constructor(private readonly raw: Record<string, unknown>, private readonly report: ConfigProblemReporter, private readonly prefix = '') {}

  has(key: string): boolean {
    return this.raw[key] !== undefined && this.raw[key] !== null;
  }

  bad(key: string, problem: string): void {
    this.report(this.prefix + key, `${problem} (got ${preview(this.raw[key])})`);
  }

  boolean(key: string, fallback: boolean): boolean {
    if (!this.has(key)) return fallback;
    const value = this.raw[key];
    if (typeof value === 'boolean') return value;
    this.bad(key, 'expected true or false');
    return fallback;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[], fallback: T, aliases: Record<string, T> = {}): T {
    if (!this.has(key)) return fallback;
    const value = this.raw[key];
    if (typeof value === 'string') {
      const lower = value.trim().toLowerCase();
      if ((allowed as readonly string[]).includes(lower)) return lower as T;
      if (lower in aliases) return aliases[lower]!;
    }
    this.bad(key, `expected one of ${allowed.join(', ')}`);
    return fallback;
  }

  text(key: string, maxLength = MAX_TEXT_LENGTH): string | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw[key];
    if (typeof value !== 'string') this.bad(key, 'expected a string');
    else if (value.length > maxLength) this.bad(key, `longer than ${maxLength} characters`);
    else return value;
    return undefined;
  }

  color(key: string): string | undefined {
    if (!this.has(key) || this.raw[key] === '') return undefined;
    const value = this.raw[key];
    if (isCssColor(value)) return value.trim();
    this.bad(key, 'not a CSS colour');
    return undefined;
  }

  size(key: string): number | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_SIZE_PX) return value;
    this.bad(key, `expected a number of px from 0 to ${MAX_SIZE_PX}`);
    return undefined;
  }

  url(key: string, pageUrl: string): string {
    const value = this.text(key);
    if (!value) return '';
    const url = safeUrl(value, pageUrl);
    if (url) return url;
    this.bad(key, 'expected an https or same-origin URL');
    return '';
  }

  object(key: string): Reader | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw[key];
    if (isRecord(value)) return new Reader(value, this.report, `${this.prefix}${key}.`);
    this.bad(key, 'expected an object');
    return undefined;
  }

  array(key: string): unknown[] {
    if (!this.has(key)) return [];
    const value = this.raw[key];
    if (Array.isArray(value)) return value;
    this.bad(key, 'expected an array');
    return [];
  }

  language(key: string): string | undefined {
    if (!this.has(key)) return undefined;
    const language = normalizeLanguage(this.raw[key]);
    if (!language) this.bad(key, 'not a language tag');
    return language ?? undefined;
  }

  keys(): string[] {
    return Object.keys(this.raw);
  }

  texts(): Partial<TextContents> {
    const texts: Partial<TextContents> = {};
    for (const key of TEXT_KEYS) {
      const value = this.text(key);
      if (value !== undefined) texts[key] = value;
    }
    return texts;
  }
}

/**
 * An absolute URL string when `value` is https, or of the page's own origin (any scheme), and holds no
 * credentials; otherwise null. Used for `custom_avatar_path` and `override_link` (PROTOCOL.md section 2).
 */
export function safeUrl(value: string, pageUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(value, pageUrl);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  const sameOrigin = url.origin === new URL(pageUrl).origin && /^https?:$/.test(url.protocol);
  return url.protocol === 'https:' || sameOrigin ? url.href : null;
}

function readPresets(reader: Reader | undefined, report: ConfigProblemReporter): Record<string, LanguagePreset> {
  const presets: Record<string, LanguagePreset> = {};
  if (!reader) return presets;
  for (const key of reader.keys()) {
    const language = normalizeLanguage(key);
    const preset = reader.object(key);
    if (!preset) continue;
    if (!language) {
      report(`language_presets.${key}`, 'not a language tag');
      continue;
    }
    const entry: LanguagePreset = {};
    const texts = preset.object('text_contents')?.texts();
    if (texts) entry.text_contents = texts;
    for (const field of ['first_message', 'terms_html', 'terms_text', 'terms_key'] as const) {
      const value = preset.text(field, MAX_LONG_TEXT_LENGTH);
      if (value !== undefined) entry[field] = value;
    }
    presets[language] = entry;
  }
  return presets;
}

/**
 * Reads an untrusted `widget_config` object into a complete, valid `WidgetConfig`.
 * @param raw the `widget_config` member of the widget read (anything; a non-object gives all defaults)
 * @param report called once per bad field; the field then takes its default
 * @param pageUrl the page's URL, the base for relative URLs and the same-origin rule
 */
export function resolveWidgetConfig(raw: unknown, report: ConfigProblemReporter, pageUrl: string): WidgetConfig {
  if (!isRecord(raw)) {
    if (raw !== undefined) report('widget_config', `expected an object (got ${preview(raw)})`);
    raw = {};
  }
  const r = new Reader(raw as Record<string, unknown>, report);
  const booleans = {} as Record<BooleanField, boolean>;
  for (const [key, fallback] of Object.entries(BOOLEAN_DEFAULTS) as [BooleanField, boolean][]) {
    booleans[key] = r.boolean(key, fallback);
  }
  const strings = {} as Record<(typeof STRING_FIELDS)[number], string>;
  for (const key of STRING_FIELDS) strings[key] = r.text(key, MAX_LONG_TEXT_LENGTH) ?? '';

  const avatarReader = r.object('avatar');
  const avatar = {
    type: avatarReader?.oneOf('type', AVATAR_TYPES, 'orb') ?? 'orb',
    color_1: avatarReader?.color('color_1') ?? DEFAULT_ORB_COLORS.color_1,
    color_2: avatarReader?.color('color_2') ?? DEFAULT_ORB_COLORS.color_2,
  };
  const endFeedback = r.object('end_feedback');
  const endFeedbackType = endFeedback?.has('type') ? endFeedback.oneOf<'rating' | 'none'>('type', ['rating'], 'none') : 'none';

  const stylesReader = r.object('styles');
  const styles: Styles = {};
  for (const key of STYLE_COLOR_KEYS) {
    const value = stylesReader?.color(key);
    if (value !== undefined) styles[key] = value;
  }
  for (const key of STYLE_SIZE_KEYS) {
    const value = stylesReader?.size(key);
    if (value !== undefined) styles[key] = value;
  }

  const config: WidgetConfig = {
    ...booleans,
    ...strings,
    variant: r.oneOf('variant', VARIANTS, 'compact', { expanded: 'full' }),
    placement: r.oneOf('placement', PLACEMENTS, 'bottom-right'),
    expandable: r.oneOf('expandable', EXPANDABLES, 'never'),
    avatar,
    custom_avatar_path: r.url('custom_avatar_path', pageUrl),
    feedback_mode: r.oneOf('feedback_mode', FEEDBACK_MODES, 'none'),
    end_feedback: endFeedbackType === 'rating' ? { type: 'rating' } : null,
    override_link: r.url('override_link', pageUrl),
    language: 'en',
    supported_language_overrides: [],
    language_presets: readPresets(r.object('language_presets'), report),
    markdown_link_allowed_hosts: [],
    text_contents: r.object('text_contents')?.texts() ?? {},
    styles,
  };
  for (const key of LEGACY_COLOR_KEYS) {
    const value = r.color(key);
    if (value !== undefined) config[key] = value;
  }
  for (const key of ['border_radius', 'btn_radius'] as const) {
    const value = r.size(key);
    if (value !== undefined) config[key] = value;
  }
  for (const key of Object.keys(LEGACY_TEXT_FIELDS) as (keyof typeof LEGACY_TEXT_FIELDS)[]) {
    const value = r.text(key);
    if (value !== undefined) config[key] = value;
  }
  config.language = r.language('language') ?? 'en';
  r.array('supported_language_overrides').forEach((entry, index) => {
    const language = normalizeLanguage(entry);
    if (language) {
      if (!config.supported_language_overrides.includes(language)) config.supported_language_overrides.push(language);
    } else report(`supported_language_overrides[${index}]`, `not a language tag (got ${preview(entry)})`);
  });
  r.array('markdown_link_allowed_hosts').forEach((entry, index) => {
    const hostname = isRecord(entry) ? entry['hostname'] : undefined;
    if (typeof hostname === 'string' && hostname.trim() && hostname.length <= 300) config.markdown_link_allowed_hosts.push(hostname.trim());
    else report(`markdown_link_allowed_hosts[${index}]`, `expected {hostname: string} (got ${preview(entry)})`);
  });
  return config;
}

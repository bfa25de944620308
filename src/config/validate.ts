/**
 * Validation of the untrusted widget configuration (SERVICE-INTERFACE.md 2.11, PROTOCOL.md section 2).
 * Every field is read on its own: a bad value is replaced by its default and reported through `report`,
 * so one bad field never costs the others and nothing here throws.
 */
import { preview } from '../internal/console.js';
import { isRecord } from '../internal/record.js';
import { parseUrl } from '../internal/url.js';
import { isHostEntry } from './host-entries.js';
import { DEFAULT_ORB_COLORS, MAX_URL_LENGTH, TEXT_KEYS, MAX_LONG_TEXT_LENGTH, MAX_SIZE_PX, MAX_TEXT_LENGTH } from './defaults.js';
import {
  BOOLEAN_DEFAULTS, LEGACY_COLOR_KEYS, LEGACY_TEXT_FIELDS, STRING_FIELDS, STYLE_COLOR_KEYS, STYLE_SIZE_KEYS,
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

/** A value check: the value to keep, or undefined to refuse it. */
type Check<T> = (value: unknown) => T | undefined;
const asBoolean: Check<boolean> = (v) => (typeof v === 'boolean' ? v : undefined);
const asObject: Check<Record<string, unknown>> = (v) => (isRecord(v) ? v : undefined);
const asArray: Check<unknown[]> = (v) => (Array.isArray(v) ? v : undefined);
const asColor: Check<string> = (v) => (v === '' ? '' : isCssColor(v) ? v.trim() : undefined);
const asSize: Check<number> = (v) => (typeof v === 'number' && v >= 0 && v <= MAX_SIZE_PX ? v : undefined);
const asLanguage: Check<string> = (v) => normalizeLanguage(v) ?? undefined;

/** A field reader bound to one raw object and one reporter: each read falls back (undefined) and reports on a bad value. */
class Reader {
  constructor(readonly raw: Record<string, unknown>, private readonly report: ConfigProblemReporter, private readonly prefix = '') {}

  /** `key`'s value passed through `check`: undefined when absent (or null); reported and undefined when refused. */
  read<T>(key: string, check: Check<T>, problem: string): T | undefined {
    const value = this.raw[key];
    if (value === undefined || value === null) return undefined;
    const result = check(value);
    if (result === undefined) this.report(this.prefix + key, `${problem} (got ${preview(value)})`);
    return result;
  }

  text(key: string, maxLength = MAX_TEXT_LENGTH): string | undefined {
    return this.read(key, (v) => (typeof v === 'string' && v.length <= maxLength ? v : undefined), `expected a string of at most ${maxLength} characters`);
  }

  oneOf<T extends string>(key: string, allowed: readonly T[], aliases: Record<string, T> = {}): T | undefined {
    return this.read(
      key,
      (v) => {
        const lower = typeof v === 'string' ? v.trim().toLowerCase() : '';
        return (allowed as readonly string[]).includes(lower) ? (lower as T) : Object.hasOwn(aliases, lower) ? aliases[lower] : undefined;
      },
      `expected one of ${allowed.join(', ')}`,
    );
  }

  color(key: string): string | undefined {
    return this.read(key, asColor, 'not a CSS colour') || undefined;
  }

  size(key: string): number | undefined {
    return this.read(key, asSize, `expected a number of px from 0 to ${MAX_SIZE_PX}`);
  }

  object(key: string): Reader | undefined {
    const value = this.read(key, asObject, 'expected an object');
    return value && new Reader(value, this.report, `${this.prefix}${key}.`);
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
 * An absolute URL string when `value` is https, or of the page's own origin (any scheme), holds no credentials and
 * is at most `MAX_URL_LENGTH` characters; otherwise null. Used for `custom_avatar_path` and `override_link` (PROTOCOL.md section 2).
 */
export function safeUrl(value: string, pageUrl: string): string | null {
  if (value.length > MAX_URL_LENGTH) return null;
  const url = parseUrl(value, pageUrl);
  if (!url || url.username || url.password) return null;
  const sameOrigin = url.origin === new URL(pageUrl).origin && /^https?:$/.test(url.protocol);
  return url.protocol === 'https:' || sameOrigin ? url.href : null;
}

function readPresets(reader: Reader | undefined, report: ConfigProblemReporter): Record<string, LanguagePreset> {
  const presets: Record<string, LanguagePreset> = {};
  if (!reader) return presets;
  for (const key of Object.keys(reader.raw)) {
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
    booleans[key] = r.read(key, asBoolean, 'expected true or false') ?? fallback;
  }
  const strings = {} as Record<(typeof STRING_FIELDS)[number], string>;
  for (const key of STRING_FIELDS) strings[key] = r.text(key, MAX_LONG_TEXT_LENGTH) ?? '';
  const url = (key: string): string =>
    r.read(key, (v) => (v === '' ? '' : typeof v === 'string' ? safeUrl(v, pageUrl) ?? undefined : undefined), 'expected an https or same-origin URL') ?? '';

  const avatar = r.object('avatar');
  const styles = r.object('styles');
  const styleValues: Styles = {};
  for (const key of STYLE_COLOR_KEYS) styleValues[key] = styles?.color(key);
  for (const key of STYLE_SIZE_KEYS) styleValues[key] = styles?.size(key);

  const config: WidgetConfig = {
    ...booleans,
    ...strings,
    variant: r.oneOf('variant', VARIANTS, { expanded: 'full' }) ?? 'compact',
    placement: r.oneOf('placement', PLACEMENTS) ?? 'bottom-right',
    expandable: r.oneOf('expandable', EXPANDABLES) ?? 'never',
    avatar: {
      type: avatar?.oneOf('type', AVATAR_TYPES) ?? 'orb',
      color_1: avatar?.color('color_1') ?? DEFAULT_ORB_COLORS.color_1,
      color_2: avatar?.color('color_2') ?? DEFAULT_ORB_COLORS.color_2,
    },
    custom_avatar_path: url('custom_avatar_path'),
    feedback_mode: r.oneOf('feedback_mode', FEEDBACK_MODES) ?? 'none',
    end_feedback: r.object('end_feedback')?.oneOf('type', ['rating']) ? { type: 'rating' } : null,
    override_link: url('override_link'),
    language: r.read('language', asLanguage, 'not a language tag') ?? 'en',
    supported_language_overrides: [],
    language_presets: readPresets(r.object('language_presets'), report),
    markdown_link_allowed_hosts: [],
    text_contents: r.object('text_contents')?.texts() ?? {},
    styles: Object.fromEntries(Object.entries(styleValues).filter(([, value]) => value !== undefined)),
  };
  for (const key of LEGACY_COLOR_KEYS) config[key] = r.color(key);
  for (const key of ['border_radius', 'btn_radius'] as const) config[key] = r.size(key);
  for (const key of Object.keys(LEGACY_TEXT_FIELDS) as (keyof typeof LEGACY_TEXT_FIELDS)[]) config[key] = r.text(key);
  (r.read('supported_language_overrides', asArray, 'expected an array') ?? []).forEach((entry, index) => {
    const language = normalizeLanguage(entry);
    if (!language) report(`supported_language_overrides[${index}]`, `not a language tag (got ${preview(entry)})`);
    else if (!config.supported_language_overrides.includes(language)) config.supported_language_overrides.push(language);
  });
  (r.read('markdown_link_allowed_hosts', asArray, 'expected an array') ?? []).forEach((entry, index) => {
    const hostname = isRecord(entry) ? entry['hostname'] : undefined;
    if (typeof hostname === 'string' && hostname.length <= 300 && isHostEntry(hostname)) config.markdown_link_allowed_hosts.push(hostname.trim());
    else report(`markdown_link_allowed_hosts[${index}]`, `expected {hostname: a host, *, *.host or an https:// prefix} (got ${preview(entry)})`);
  });
  return config;
}

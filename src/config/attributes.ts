/**
 * Attributes of `<voice-agent-widget>` that override the widget configuration (issue 3; PROTOCOL.md sections 2 and 3).
 * Each is untrusted: it is checked with the same rules as the configuration field it overrides. A boolean attribute
 * that is not true or false is reported and ignored (the configuration's value stays); any other bad value is laid over
 * the configuration, reported by the validation and replaced by the field's default (README "Attributes").
 */
import * as log from '../internal/console.js';
import { preview } from '../internal/console.js';
import { isRecord } from '../internal/record.js';
import { MAX_LONG_TEXT_LENGTH, MAX_TEXT_LENGTH } from './defaults.js';
import type { Labels } from './types.js';

/** Attribute → the `widget_config` field it overrides (SERVICE-INTERFACE.md 2.11). */
export const CONFIG_ATTRIBUTES = {
  variant: 'variant',
  placement: 'placement',
  'default-expanded': 'default_expanded',
  'always-expanded': 'always_expanded',
  dismissible: 'dismissible',
  transcript: 'transcript_enabled',
  'text-input': 'text_input_enabled',
  'mic-muting': 'mic_muting_enabled',
  language: 'language',
  'markdown-link-allowed-hosts': 'markdown_link_allowed_hosts',
  'avatar-image-url': 'custom_avatar_path',
  'avatar-orb-color-1': 'color_1',
  'avatar-orb-color-2': 'color_2',
} as const;

/** Attributes that shape the conversation's initiation (PROTOCOL.md section 3; SERVICE-INTERFACE.md 2.8). */
export const CONVERSATION_ATTRIBUTES = [
  'override-first-message', 'override-language', 'override-prompt', 'override-voice-id', 'override-text-only', 'user-id', 'signed-url',
] as const;

export type ConfigAttribute = keyof typeof CONFIG_ATTRIBUTES;
export type ConversationAttribute = (typeof CONVERSATION_ATTRIBUTES)[number];
/** The attribute values as read from the element (`null` when absent). */
export type AttributeValues = Partial<Record<ConfigAttribute | ConversationAttribute, string | null>>;

const BOOLEAN_ATTRIBUTES = new Set<string>(['default-expanded', 'always-expanded', 'dismissible', 'transcript', 'text-input', 'mic-muting', 'override-text-only']);

/**
 * Reads a boolean attribute: present and empty, or `true` → true; `false` → false; absent → undefined.
 * Anything else is reported and gives undefined.
 */
export function parseBooleanAttribute(name: string, value: string | null | undefined, report: (message: string) => void): boolean | undefined {
  if (value === null || value === undefined) return undefined;
  const flag = booleanText(value);
  if (flag === undefined) report(`attribute ${name}=${preview(value)} is not true or false; ignored.`);
  return flag;
}

/** A boolean attribute's text: empty or `true` → true, `false` → false (any case, spaces ignored), else undefined. */
function booleanText(value: string): boolean | undefined {
  const text = value.trim().toLowerCase();
  return text === '' || text === 'true' ? true : text === 'false' ? false : undefined;
}

/**
 * The attributes as a partial, still untrusted `widget_config` (booleans parsed, the host list split on commas,
 * the avatar attributes under `avatar`), to be laid over the service's configuration and validated with it.
 */
export function attributeLayer(values: AttributeValues, report: (message: string) => void): Record<string, unknown> {
  const layer: Record<string, unknown> = {};
  const avatar: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(CONFIG_ATTRIBUTES) as [ConfigAttribute, string][]) {
    const value = values[name];
    if (value === null || value === undefined) continue;
    if (BOOLEAN_ATTRIBUTES.has(name)) {
      const flag = parseBooleanAttribute(name, value, report);
      if (flag !== undefined) layer[field] = flag;
    } else if (name === 'markdown-link-allowed-hosts') {
      layer[field] = value.split(',').map((host) => host.trim()).filter(Boolean).map((hostname) => ({ hostname }));
    } else if (name === 'avatar-image-url') {
      layer[field] = value;
      avatar['type'] = 'image';
    } else if (name.startsWith('avatar-orb')) {
      avatar[field] = value;
    } else layer[field] = value;
  }
  if (Object.keys(avatar).length) layer['avatar'] = avatar;
  return layer;
}

/**
 * Lays the attribute layer over the service's `widget_config`: attributes win, field by field (`avatar` merged key by
 * key). The result is still untrusted: `resolveWidgetConfig` checks attribute values with the same rules as the
 * service's, and a bad one falls back to the default like any bad field.
 */
export function applyAttributeLayer(raw: unknown, layer: Record<string, unknown>): Record<string, unknown> {
  const base = isRecord(raw) ? raw : {};
  const merged = { ...base, ...layer };
  // Only merge `avatar` key by key when an attribute sets part of it; else the service's value stays as sent (and is checked).
  if (isRecord(layer['avatar'])) merged['avatar'] = { ...(isRecord(base['avatar']) ? base['avatar'] : {}), ...layer['avatar'] };
  return merged;
}

/**
 * The attribute that set a reported configuration field (`avatar.color_1` → `avatar-orb-color-1`,
 * `markdown_link_allowed_hosts[0]` → `markdown-link-allowed-hosts`), or null when the field came from the service.
 */
export function attributeFor(field: string, values: AttributeValues): string | null {
  const key = field.replace(/\[.*$/, '').replace(/^avatar\.(?=color)/, '');
  const name = (Object.keys(CONFIG_ATTRIBUTES) as ConfigAttribute[]).find((n) => CONFIG_ATTRIBUTES[n] === key || (key === 'avatar.type' && n === 'avatar-image-url'));
  return name && values[name] != null ? name : null;
}

/** The `dynamic-variables` of PROTOCOL.md section 3 (initiation `dynamic_variables`): name → string, number or boolean. */
export type DynamicVariables = Record<string, string | number | boolean>;

/** At most this many keys are read from `dynamic-variables` or `text-contents`; a larger object is reported and ignored. */
export const MAX_JSON_KEYS = 200;

/**
 * Reads `dynamic-variables` (PROTOCOL.md section 3, initiation `dynamic_variables`), as the attribute's JSON text or as
 * the property's object: string (at most `MAX_LONG_TEXT_LENGTH` characters), finite number and boolean values. Never
 * throws: what is not a JSON object (or an object) is reported (console error) and gives `{}`; a value of another kind
 * is reported (console warning) and left out.
 */
export function parseDynamicVariables(value: unknown): DynamicVariables {
  return checkDynamicVariables('dynamic-variables', readObject('dynamic-variables', value));
}

/**
 * Keeps the dynamic variables of `record` that are strings (at most `MAX_LONG_TEXT_LENGTH` characters), finite numbers
 * or booleans; each other value is reported (console warning, naming `source`) and left out. Never throws.
 */
export function checkDynamicVariables(source: string, record: Record<string, unknown>): DynamicVariables {
  const variables: DynamicVariables = {};
  for (const [name, variable] of entries(source, record)) {
    if ((typeof variable === 'string' && variable.length <= MAX_LONG_TEXT_LENGTH) || typeof variable === 'boolean' || (typeof variable === 'number' && Number.isFinite(variable))) {
      variables[name] = variable;
    } else log.warn(`${source}.${name} must be a string of at most ${MAX_LONG_TEXT_LENGTH} characters, a number or a boolean (got ${preview(variable)}); left out.`);
  }
  return variables;
}

/**
 * Reads `text-contents`, as the attribute's JSON text or as the property's object: labels of `text_contents`
 * (PROTOCOL.md section 2, the first step of the text precedence), of the launcher's own (`WIDGET_LABELS`) or of the
 * panel's (config/panel-labels.ts `PANEL_LABELS`), with string values of at most `MAX_TEXT_LENGTH` characters. Never
 * throws: a bad value is reported and left out; what is not a JSON object (or an object) gives `{}`. A key that names no
 * label is kept here, and reported once the panel's labels are known (`panelLabels`): they load with the conversation.
 */
export function parseTextContents(value: unknown): Partial<Labels> {
  const texts: Record<string, string> = {};
  for (const [key, label] of entries('text-contents', readObject('text-contents', value))) {
    if (typeof label !== 'string' || label.length > MAX_TEXT_LENGTH) log.warn(`text-contents.${key} must be a string of at most ${MAX_TEXT_LENGTH} characters; ignored.`);
    else texts[key] = label;
  }
  return texts;
}

/**
 * A JSON-object attribute's text or an object property, as a record; `{}` (reported) when it is neither. An empty text,
 * null and undefined are `{}` and not reported.
 */
function readObject(attribute: string, value: unknown): Record<string, unknown> {
  if (value === null || value === undefined) return {};
  if (typeof value !== 'string') {
    if (isRecord(value)) return value;
    log.error(`${attribute} must be an object or its JSON (got ${preview(value)}); it is ignored.`);
    return {};
  }
  if (!value.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(value);
    if (isRecord(parsed)) return parsed;
    log.error(`${attribute} must be a JSON object (got ${preview(parsed)}); it is ignored.`);
  } catch {
    log.error(`${attribute} is not JSON (${preview(value)}); it is ignored.`);
  }
  return {};
}

/** The own entries of an untrusted record: none (reported) when it has more than `MAX_JSON_KEYS` or its getters throw. */
function entries(source: string, record: Record<string, unknown>): [string, unknown][] {
  try {
    const keys = Object.keys(record);
    if (keys.length <= MAX_JSON_KEYS) return keys.map((key) => [key, record[key]]);
    log.error(`${source} has ${keys.length} keys, more than ${MAX_JSON_KEYS}; it is ignored.`);
  } catch (error) {
    log.error(`${source} cannot be read (${(error as Error)?.message ?? error}); it is ignored.`);
  }
  return [];
}

/**
 * The text an override property stands for, as `AttributeValues` hold it: a string as it is, a boolean of a boolean
 * attribute as `true` / `false`, null and undefined as absent. Anything else (a number for a string, a function, an
 * object) is reported through `report` and reads as absent: the configuration's value (or the default) stays.
 */
export function attributeText(name: ConfigAttribute | ConversationAttribute, value: unknown, report: (message: string) => void): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  const flag = BOOLEAN_ATTRIBUTES.has(name);
  if (flag && typeof value === 'boolean') return String(value);
  report(`property ${propertyOf(name)} must be ${flag ? 'true, false' : 'a string'} or null (got ${preview(value)}); ignored.`);
  return null;
}

/**
 * Lit's attribute converter of the boolean override attributes (`default-expanded`, `dismissible`, …): present and empty
 * or `true` → true, `false` → false, absent → null; other text stays as it is, to be reported where it is read
 * (`attributeLayer`). The property reflects as `""` (true), `false`, or no attribute (null).
 */
export const booleanAttribute = {
  fromAttribute(value: string | null): boolean | string | null {
    return value === null ? null : (booleanText(value) ?? value);
  },
  toAttribute(value: unknown): string | null {
    return value === true ? '' : value === false ? 'false' : typeof value === 'string' ? value : null;
  },
};

/** Lit's converter of an attribute that reflects only strings: any other value removes the attribute. */
export const textAttribute = {
  toAttribute: (value: unknown): string | null => (typeof value === 'string' ? value : null),
};

/** Every attribute of the element that shapes the configuration or the conversation, as read into `AttributeValues`. */
export const OVERRIDE_ATTRIBUTES = [...(Object.keys(CONFIG_ATTRIBUTES) as ConfigAttribute[]), ...CONVERSATION_ATTRIBUTES];

/** The element property of an attribute: its camel-cased name (`default-expanded` → `defaultExpanded`). */
export const propertyOf = (attribute: string): string => attribute.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

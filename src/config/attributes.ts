/**
 * Attributes of `<voice-agent-widget>` that override the widget configuration (issue 3; PROTOCOL.md sections 2 and 3).
 * Each is untrusted: it is checked with the same rules as the configuration field it overrides, and a bad value is
 * reported and ignored (the configuration's value stays).
 */
import { isRecord, preview } from './validate.js';

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
  const text = value.trim().toLowerCase();
  if (text === '' || text === 'true') return true;
  if (text === 'false') return false;
  report(`attribute ${name}=${preview(value)} is not true or false; ignored.`);
  return undefined;
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

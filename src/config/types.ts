import type { DEFAULT_TEXTS, WIDGET_LABELS } from './defaults.js';

/**
 * The widget configuration of SERVICE-INTERFACE.md section 2.11, after validation: every field present,
 * every value of the right type and range (PROTOCOL.md section 2 fixes the enum values and defaults).
 * Field names are the service's own.
 */

/** PROTOCOL.md section 2: `variant`. The legacy value `expanded` is read as `full`. */
export type Variant = 'tiny' | 'compact' | 'full';
/** PROTOCOL.md section 2: `placement`, where the closed widget sits in the viewport. */
export type Placement = 'top-left' | 'top' | 'top-right' | 'bottom-left' | 'bottom' | 'bottom-right';
/** PROTOCOL.md section 2: `expandable`, where the panel can be expanded. */
export type Expandable = 'never' | 'mobile' | 'desktop' | 'always';
/** PROTOCOL.md section 2: `feedback_mode`. */
export type FeedbackMode = 'none' | 'during' | 'end';
/** PROTOCOL.md section 2: `avatar.type`. */
export type AvatarType = 'orb' | 'url' | 'image';

/** The 43 labels of `text_contents` (SERVICE-INTERFACE.md 2.11): the keys of the built-in `DEFAULT_TEXTS`. */
export type TextKey = keyof typeof DEFAULT_TEXTS;
/** Every label, resolved: see `resolveTexts` for the precedence (PROTOCOL.md section 2). */
export type TextContents = Record<TextKey, string>;
/** Every label the widget shows: the 43 of `text_contents` and the widget's own (`WIDGET_LABELS`). */
export type Labels = TextContents & Record<keyof typeof WIDGET_LABELS, string>;

/** Colour keys of `styles` (CSS colour strings). */
export const STYLE_COLOR_KEYS = [
  'base', 'base_hover', 'base_active', 'base_border', 'base_subtle', 'base_primary', 'base_error',
  'accent', 'accent_hover', 'accent_active', 'accent_border', 'accent_subtle', 'accent_primary',
] as const;
/** Size keys of `styles` (numbers, CSS pixels). */
export const STYLE_SIZE_KEYS = [
  'overlay_padding', 'button_radius', 'input_radius', 'bubble_radius', 'sheet_radius', 'compact_sheet_radius',
  'dropdown_sheet_radius',
] as const;
export type StyleColorKey = (typeof STYLE_COLOR_KEYS)[number];
export type StyleSizeKey = (typeof STYLE_SIZE_KEYS)[number];
/** `styles` as given: each key optional (a missing key falls back to the legacy field, then the default). */
export type Styles = Partial<Record<StyleColorKey, string> & Record<StyleSizeKey, number>>;

/** One entry of `language_presets` (PROTOCOL.md section 2): overrides for that language. */
export interface LanguagePreset {
  text_contents?: Partial<TextContents>;
  first_message?: string;
  terms_html?: string;
  terms_text?: string;
  terms_key?: string;
}

/** Boolean fields of 2.11 with their defaults. */
export const BOOLEAN_DEFAULTS = {
  default_expanded: false,
  always_expanded: false,
  dismissible: false,
  show_agent_status: false,
  show_conversation_id: false,
  strip_audio_tags: true,
  show_avatar_when_collapsed: true,
  mic_muting_enabled: false,
  transcript_enabled: true,
  text_input_enabled: true,
  conversation_mode_toggle_enabled: false,
  language_selector: false,
  supports_text_only: true,
  shareable_page_show_terms: false,
  markdown_link_include_www: true,
  markdown_link_allow_http: false,
  disable_banner: false,
  text_only: false,
  use_rtc: false,
} as const;
export type BooleanField = keyof typeof BOOLEAN_DEFAULTS;

/** Legacy colour fields (CSS colour strings or null when absent/invalid). */
export const LEGACY_COLOR_KEYS = ['bg_color', 'text_color', 'btn_color', 'btn_text_color', 'border_color', 'focus_color'] as const;
export type LegacyColorKey = (typeof LEGACY_COLOR_KEYS)[number];
/** Legacy label fields, each mapped to a `text_contents` label (PROTOCOL.md section 2). */
export const LEGACY_TEXT_FIELDS = {
  action_text: 'main_label',
  start_call_text: 'start_call',
  end_call_text: 'end_call',
  expand_text: 'expand',
  listening_text: 'listening_status',
  speaking_text: 'speaking_status',
} as const satisfies Record<string, TextKey>;
export type LegacyTextField = keyof typeof LEGACY_TEXT_FIELDS;

/** Free-text string fields of 2.11 (empty string when absent). */
export const STRING_FIELDS = ['shareable_page_text', 'terms_text', 'terms_html', 'terms_key', 'first_message'] as const;
export type StringField = (typeof STRING_FIELDS)[number];

/** The validated widget configuration: SERVICE-INTERFACE.md 2.11, with PROTOCOL.md section 2 defaults. */
export type WidgetConfig = Record<BooleanField, boolean> &
  Record<StringField, string> &
  Partial<Record<LegacyColorKey, string>> &
  Partial<Record<LegacyTextField, string>> & {
    variant: Variant;
    placement: Placement;
    expandable: Expandable;
    avatar: { type: AvatarType; color_1: string; color_2: string };
    /** https or same-origin URL, or '' */
    custom_avatar_path: string;
    feedback_mode: FeedbackMode;
    end_feedback: { type: 'rating' } | null;
    /** px */
    border_radius?: number;
    /** px */
    btn_radius?: number;
    /** https URL of the "powered by" line, or '' */
    override_link: string;
    /** BCP 47 primary tag, lower case, such as `en` or `pt-br` */
    language: string;
    supported_language_overrides: string[];
    language_presets: Record<string, LanguagePreset>;
    /** The `hostname` strings of `markdown_link_allowed_hosts` */
    markdown_link_allowed_hosts: string[];
    text_contents: Partial<TextContents>;
    styles: Styles;
  };

/** The response of `GET /v1/convai/agents/{agent_id}/widget` (SERVICE-INTERFACE.md 2.11, 4.2), untrusted. */
export interface WidgetConfigResponse {
  agent_id: string;
  widget_config: unknown;
}

// Request-body validation of the reference Voice Agent Service. Errors follow the HTTPValidationError
// shape of SERVICE-INTERFACE.md section 7: `{loc: ['body', ...path], msg, type, input?, ctx?}`.
// Unknown fields are accepted everywhere (they are kept as sent); known fields must have their type.

/**
 * @typedef {{loc: (string|number)[], msg: string, type: string, input?: unknown, ctx?: Record<string, unknown>}} ValidationError
 * @typedef {(value: unknown, loc: (string|number)[], errors: ValidationError[]) => void} Check
 */

/** @param {unknown} value @returns {value is Record<string, unknown>} */
export function isPlainObject(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** @type {Check} */
const str = (value, loc, errors) => {
  if (typeof value !== 'string') errors.push({ loc, msg: 'Input should be a valid string', type: 'string_type', input: value });
};
/** @type {Check} */
const bool = (value, loc, errors) => {
  if (typeof value !== 'boolean') errors.push({ loc, msg: 'Input should be a valid boolean', type: 'bool_type', input: value });
};
/** @type {Check} */
const num = (value, loc, errors) => {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    errors.push({ loc, msg: 'Input should be a valid number', type: 'float_type', input: value });
  }
};
/** @type {Check} */
const int = (value, loc, errors) => {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    errors.push({ loc, msg: 'Input should be a valid integer', type: 'int_type', input: value });
  } else if (!Number.isInteger(value)) {
    errors.push({ loc, msg: 'Input should be a valid integer, got a number with a fractional part', type: 'int_from_float', input: value });
  }
};
/** @type {Check} */
const anyObject = (value, loc, errors) => {
  if (!isPlainObject(value)) errors.push({ loc, msg: 'Input should be a valid dictionary', type: 'dict_type', input: value });
};
/** @type {Check} */
const anyArray = (value, loc, errors) => {
  if (!Array.isArray(value)) errors.push({ loc, msg: 'Input should be a valid list', type: 'list_type', input: value });
};

/** @param {Check} inner @returns {Check} */
const nullable = (inner) => (value, loc, errors) => {
  if (value !== null) inner(value, loc, errors);
};

/** @param {Check} item @returns {Check} */
const arrayOf = (item) => (value, loc, errors) => {
  if (!Array.isArray(value)) {
    errors.push({ loc, msg: 'Input should be a valid list', type: 'list_type', input: value });
    return;
  }
  value.forEach((entry, index) => item(entry, [...loc, index], errors));
};

/** @param {Check} item @returns {Check} every value of a map */
const mapOf = (item) => (value, loc, errors) => {
  if (!isPlainObject(value)) {
    errors.push({ loc, msg: 'Input should be a valid dictionary', type: 'dict_type', input: value });
    return;
  }
  for (const [key, entry] of Object.entries(value)) item(entry, [...loc, key], errors);
};

/**
 * An object with known fields (each optional unless listed in `required`); unknown fields are accepted.
 * @param {Record<string, Check>} fields
 * @param {{required?: string[], modelName?: boolean}} [options]
 * @returns {Check}
 */
const object = (fields, options = {}) => (value, loc, errors) => {
  if (!isPlainObject(value)) {
    errors.push(options.modelName
      ? { loc, msg: 'Input should be a valid dictionary or object to extract fields from', type: 'model_attributes_type', input: value }
      : { loc, msg: 'Input should be a valid dictionary', type: 'dict_type', input: value });
    return;
  }
  for (const name of options.required ?? []) {
    if (!Object.prototype.hasOwnProperty.call(value, name)) {
      errors.push({ loc: [...loc, name], msg: 'Field required', type: 'missing', input: value });
    }
  }
  for (const [name, check] of Object.entries(fields)) {
    if (Object.prototype.hasOwnProperty.call(value, name)) check(value[name], [...loc, name], errors);
  }
};

/** @param {readonly string[]} allowed @returns {Check} */
const oneOf = (allowed) => (value, loc, errors) => {
  if (typeof value !== 'string' || !allowed.includes(value)) {
    const expected = allowed.map((v) => `'${v}'`);
    const list = expected.length > 1 ? `${expected.slice(0, -1).join(', ')} or ${expected[expected.length - 1]}` : expected[0];
    errors.push({ loc, msg: `Input should be ${list}`, type: 'enum', input: value, ctx: { expected: list } });
  }
};

/** Audio formats of PROTOCOL.md section 3. */
export const AUDIO_FORMATS = Object.freeze(['pcm_8000', 'pcm_16000', 'pcm_22050', 'pcm_24000', 'pcm_44100', 'pcm_48000', 'ulaw_8000']);

// ---- widget configuration (SERVICE-INTERFACE.md 2.11) ----

const WIDGET_BOOLEANS = [
  'default_expanded', 'always_expanded', 'dismissible', 'show_agent_status', 'show_conversation_id', 'strip_audio_tags',
  'show_avatar_when_collapsed', 'mic_muting_enabled', 'transcript_enabled', 'text_input_enabled',
  'conversation_mode_toggle_enabled', 'language_selector', 'supports_text_only', 'shareable_page_show_terms',
  'markdown_link_include_www', 'markdown_link_allow_http', 'disable_banner', 'text_only', 'use_rtc',
];
const WIDGET_STRINGS = [
  'variant', 'placement', 'expandable', 'custom_avatar_path', 'feedback_mode',
  'bg_color', 'text_color', 'btn_color', 'btn_text_color', 'border_color', 'focus_color',
  'action_text', 'start_call_text', 'end_call_text', 'expand_text', 'listening_text', 'speaking_text',
  'shareable_page_text', 'terms_text', 'terms_html', 'terms_key', 'override_link', 'first_message', 'language',
];
const WIDGET_NUMBERS = ['border_radius', 'btn_radius'];
const STYLE_COLOURS = [
  'base', 'base_hover', 'base_active', 'base_border', 'base_subtle', 'base_primary', 'base_error',
  'accent', 'accent_hover', 'accent_active', 'accent_border', 'accent_subtle', 'accent_primary',
];
const STYLE_NUMBERS = [
  'overlay_padding', 'button_radius', 'input_radius', 'bubble_radius', 'sheet_radius', 'compact_sheet_radius', 'dropdown_sheet_radius',
];

/** @param {string[]} names @param {Check} check @returns {Record<string, Check>} */
const each = (names, check) => Object.fromEntries(names.map((name) => [name, check]));

const textContents = mapOf(str);

/** @type {Check} */
export const widgetConfig = object({
  ...each(WIDGET_BOOLEANS, bool),
  ...each(WIDGET_STRINGS, str),
  ...each(WIDGET_NUMBERS, num),
  avatar: object({ type: str, color_1: str, color_2: str }),
  end_feedback: object({ type: str }),
  text_contents: textContents,
  styles: object({ ...each(STYLE_COLOURS, str), ...each(STYLE_NUMBERS, num) }),
  markdown_link_allowed_hosts: arrayOf(object({ hostname: str }, { required: ['hostname'] })),
  supported_language_overrides: arrayOf(str),
  language_presets: mapOf(object({
    text_contents: textContents,
    first_message: str,
    terms_html: str,
    terms_text: str,
    terms_key: str,
  })),
});

// ---- agent (SERVICE-INTERFACE.md 2.7) ----

const conversationConfig = object({
  asr: object({ quality: str, provider: str, user_input_audio_format: oneOf(AUDIO_FORMATS), keywords: arrayOf(str) }),
  turn: object({
    turn_timeout: num,
    initial_wait_time: num,
    silence_end_call_timeout: num,
    soft_timeout_config: object({ timeout_seconds: num, message: str, use_llm_generated_message: bool }),
    speculative_turn: bool,
  }),
  tts: object({
    model_id: str,
    voice_id: str,
    supported_voices: anyArray,
    expressive_mode: bool,
    suggested_audio_tags: anyArray,
    agent_output_audio_format: oneOf(AUDIO_FORMATS),
    optimize_streaming_latency: int,
    stability: num,
    speed: num,
    similarity_boost: num,
    text_normalisation_type: str,
    pronunciation_dictionary_locators: anyArray,
  }),
  conversation: object({
    text_only: bool,
    max_duration_seconds: int,
    client_events: anyArray,
    file_input: object({ enabled: bool, max_files_per_conversation: int }),
    monitoring_enabled: bool,
    monitoring_events: anyArray,
  }),
  language_presets: anyObject,
  agent: object({
    first_message: str,
    language: str,
    dynamic_variables: object({ dynamic_variable_placeholders: anyObject }),
    disable_first_message_interruptions: bool,
    max_conversation_duration_message: str,
    prompt: object({
      knowledge_base: anyArray,
      llm: str,
      max_tokens: int,
      mcp_server_ids: anyArray,
      native_mcp_server_ids: anyArray,
      prompt: str,
      temperature: num,
      tool_ids: anyArray,
    }),
  }),
});

const platformSettings = object({ widget: widgetConfig });

/** @type {Check} */
const agentCreateBody = object(
  {
    conversation_config: conversationConfig,
    platform_settings: platformSettings,
    workflow: anyObject,
    name: nullable(str),
    tags: nullable(arrayOf(str)),
  },
  { required: ['conversation_config'], modelName: true },
);

/** @type {Check} */
const agentUpdateBody = object(
  {
    conversation_config: nullable(conversationConfig),
    platform_settings: nullable(platformSettings),
    workflow: nullable(anyObject),
    name: nullable(str),
    tags: nullable(arrayOf(str)),
    version_description: nullable(str),
  },
  { modelName: true },
);

/** Longest comment accepted by the feedback endpoint. */
export const MAX_COMMENT_LENGTH = 2000;

/** @type {Check} */
const rating = (value, loc, errors) => {
  const before = errors.length;
  int(value, loc, errors);
  if (errors.length !== before || typeof value === 'boolean') return;
  const n = /** @type {number} */ (value);
  if (n < 1) errors.push({ loc, msg: 'Input should be greater than or equal to 1', type: 'greater_than_equal', input: value, ctx: { ge: 1 } });
  if (n > 5) errors.push({ loc, msg: 'Input should be less than or equal to 5', type: 'less_than_equal', input: value, ctx: { le: 5 } });
};

/** @type {Check} */
const comment = (value, loc, errors) => {
  if (value === null) return;
  if (typeof value !== 'string') {
    errors.push({ loc, msg: 'Input should be a valid string', type: 'string_type', input: value });
  } else if (value.length > MAX_COMMENT_LENGTH) {
    errors.push({
      loc, msg: `String should have at most ${MAX_COMMENT_LENGTH} characters`, type: 'string_too_long',
      input: value, ctx: { max_length: MAX_COMMENT_LENGTH },
    });
  }
};

/** @type {Check} */
const feedbackBody = (value, loc, errors) => {
  object({ rating, comment, feedback: oneOf(['like', 'dislike']) }, { modelName: true })(value, loc, errors);
  if (!isPlainObject(value)) return;
  const has = (/** @type {string} */ name) => Object.prototype.hasOwnProperty.call(value, name);
  if (!has('rating') && !has('feedback')) {
    errors.push({ loc: [...loc, 'rating'], msg: 'Field required (send "rating" 1 to 5, or "feedback" like/dislike)', type: 'missing', input: value });
  } else if (has('comment') && !has('rating')) {
    errors.push({ loc: [...loc, 'rating'], msg: 'Field required (a comment goes with a rating)', type: 'missing', input: value });
  }
};

/**
 * @param {Check} check
 * @returns {(body: unknown) => ValidationError[]}
 */
const validator = (check) => (body) => {
  /** @type {ValidationError[]} */
  const errors = [];
  check(body, ['body'], errors);
  return errors;
};

export const validateAgentCreate = validator(agentCreateBody);
export const validateAgentUpdate = validator(agentUpdateBody);
export const validateFeedback = validator(feedbackBody);
export const validateWidgetConfig = validator(widgetConfig);

/**
 * voice-agent-widget: the side-effect-free entry, its explicit public API. Importing it registers nothing; import
 * `voice-agent-widget/define.js` (or call `defineVoiceAgentWidget()`) to register `<voice-agent-widget>`.
 */

// The element (PROTOCOL.md sections 2-4).
/** The `<voice-agent-widget>` class (not registered by this entry). */
export { VoiceAgentWidget } from './widget/voice-agent-widget.js';
/** Registers `<voice-agent-widget>` once, and its tag name. */
export { defineVoiceAgentWidget, TAG_NAME } from './widget/define-element.js';
/** `clientToolHandler`'s shape, and one line of the element's transcript. */
export type { ClientToolHandler, TranscriptEntry } from './widget/controllers/conversation.js';

// Its events (DESIGN.md rule 7).
/** `voice-agent-conversation`: a conversation started (`detail.conversationId`). */
export { VoiceAgentConversationEvent } from './events/conversation.js';
/** `voice-agent-conversation-end`: it ended (`detail: {conversationId, reason, code, message}`). */
export { VoiceAgentConversationEndEvent } from './events/conversation-end.js';
/** `voice-agent-before-start` (cancelable; dynamic variables, overrides, client tools), and a client tool's shape. */
export { VoiceAgentBeforeStartEvent, type BeforeStartDetail, type ClientTool } from './events/before-start.js';
/** `voice-agent-status`, `voice-agent-message`, `voice-agent-error` (with its cause codes). */
export { VoiceAgentStatusEvent } from './events/status.js';
export { VoiceAgentMessageEvent } from './events/message.js';
export { VoiceAgentErrorEvent, type VoiceAgentErrorCode } from './events/error.js';
/** `voice-agent-device`: the visitor chose the call's microphone or speaker (`detail: {kind, deviceId, label}`). */
export { VoiceAgentDeviceEvent } from './events/device.js';

// The client, usable without the element (README "Using the client without the element").
/** The conversation socket of PROTOCOL.md section 3 as a typed `EventTarget`, and its events. */
export { ConversationSession, SessionEvent, WIDGET_VERSION } from './client/session.js';
/** Its options, status, end and event map (PROTOCOL.md section 3). */
export type { EndReason, SessionEnd, SessionEventMap, SessionOptions, SessionStatus } from './client/session.js';
/** The REST calls: the public widget configuration (SERVICE-INTERFACE.md 4.2) and end-of-call feedback (PROTOCOL.md section 4). */
export { fetchWidgetConfig } from './client/rest.js';
export { postConversationFeedback } from './client/feedback.js';
/** Their options and bodies. */
export type { FetchLike, RequestOptions } from './client/rest.js';
export type { ConversationFeedback } from './client/feedback.js';
/** The client's typed errors: a non-2xx answer, no answer, a body not as documented, a failed conversation. */
export { ConversationError, ServiceHttpError, ServiceNetworkError, ServiceResponseError } from './client/errors.js';
/** One entry of a 422 answer's `detail` (`{loc, msg, type}`). */
export type { ValidationDetail } from './client/errors.js';
/** The service's paths and URLs (PROTOCOL.md sections 1-4), and `signed-url` reading. */
export {
  conversationSocketPath, conversationSocketUrl, feedbackPath, normalizeServerUrl, parseSignedUrl, socketBase, widgetConfigPath,
} from './client/paths.js';
/** A `signed-url` as read by `parseSignedUrl`. */
export type { SignedUrl } from './client/paths.js';
/** The configuration read started before the element upgrades, for the element to take over. */
export { prefetchDocumentWidgets, prefetchWidgetConfig } from './client/prefetch.js';
/** Reads one untrusted server frame into a typed message (PROTOCOL.md section 3). */
export { parseServerMessage } from './client/protocol.js';
/** The wire types of PROTOCOL.md section 3. */
export type {
  AudioFormat, ConversationConfigOverride, ConversationInitiation, ServerMessage, ServerMessageMap, ServerMessageType,
} from './client/protocol.js';

// The widget configuration (SERVICE-INTERFACE.md 2.11, PROTOCOL.md section 2).
/** Validates an untrusted `widget_config` into a `WidgetConfig` (every field present and checked; problems reported). */
export { resolveWidgetConfig } from './config/validate.js';
/** Receives each configuration problem: the field's path and what was wrong. */
export type { ConfigProblemReporter } from './config/validate.js';
/** The validated configuration, its enum types and the labels. */
export type {
  AvatarType, Expandable, FeedbackMode, Labels, LanguagePreset, Placement, Styles, TextContents, TextKey, Variant, WidgetConfig,
  WidgetConfigResponse,
} from './config/types.js';
/** The built-in labels (English) and their keys; the widget's own labels beyond `text_contents`: the launcher's and the panel's. */
export { DEFAULT_TEXTS, TEXT_KEYS, WIDGET_LABELS } from './config/defaults.js';
export { PANEL_LABELS, type PanelLabels } from './config/panel-labels.js';
/** The defaults of `styles` (colours, px sizes) and of the orb (PROTOCOL.md section 2). */
export { DEFAULT_ORB_COLORS, DEFAULT_STYLE_COLORS, DEFAULT_STYLE_SIZES } from './config/defaults.js';
/** The limits untrusted text is held to (characters; px for sizes). */
export { MAX_LONG_TEXT_LENGTH, MAX_PROMPT_LENGTH, MAX_SIZE_PX, MAX_TEXT_LENGTH, MAX_URL_LENGTH } from './config/defaults.js';
/** Every label for a language (text precedence), the preset and first message for a language, `{{name}}` filling, audio tag stripping. */
export { presetFor, resolveTexts } from './config/texts.js';
export { fillDynamicVariables, firstMessageFor, stripAudioTags } from './config/conversation-texts.js';
/** The languages an agent offers, the one a visitor's browser prefers, each one's own name and its direction. */
export { directionOf, offeredLanguages, preferredLanguage } from './config/language.js';
export { languageName } from './config/language-name.js';
/** The checks the validation uses: a CSS colour and nothing else, a language tag, an https or same-origin URL. */
export { isCssColor, normalizeLanguage, safeUrl } from './config/validate.js';
/** The theme tokens of a configuration and their CSS rule (DESIGN.md rule 6). */
export { resolveTheme, themeRule, type Theme } from './config/theme.js';
/** The JSON attributes, read as the element reads them (untrusted values reported and left out). */
export { parseDynamicVariables, parseTextContents, type DynamicVariables } from './config/attributes.js';
/** The configuration cache in localStorage: empty it, and the `<html>` attribute that turns it off (README, "The configuration, early and remembered"). */
export { CONFIG_CACHE_OPT_OUT, clearWidgetConfigCache } from './config/cache.js';
/** The conversation initiation the element sends, from the configuration, attributes and language (PROTOCOL.md section 3). */
export { conversationInitiation, type InitiationInput } from './config/initiation.js';

// Markdown (PROTOCOL.md section 2, link policy): the only producer of HTML.
/** Agent markdown and `terms_html` through marked → DOMPurify → the link policy. */
export { renderMarkdown, renderSafeHtml } from './markdown/render.js';
/** The link policy: whether a link stays clickable, and its resolved URL. */
export { allowedUrl, isLinkAllowed, type LinkPolicy } from './config/link-policy.js';

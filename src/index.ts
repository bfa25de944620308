/**
 * voice-agent-widget: the side-effect-free entry. Importing it registers nothing; import `voice-agent-widget/define.js`
 * (or call `defineVoiceAgentWidget()`) to register `<voice-agent-widget>`.
 */
export { VoiceAgentWidget, parseDynamicVariables, parseTextContents } from './widget/voice-agent-widget.js';
export type { ClientToolHandler, TranscriptEntry, ConversationPhase } from './widget/conversation-controller.js';
export { defineVoiceAgentWidget, TAG_NAME } from './widget/define-element.js';
export * from './client/index.js';
export * from './events/index.js';
export * from './config/index.js';
export { renderMarkdown, renderSafeHtml, isLinkAllowed, allowedUrl, type LinkPolicy } from './markdown/index.js';

/**
 * Public DOM events of `<voice-agent-widget>` (DESIGN.md rule 7): typed `Event` subclasses, one file each, one prefix
 * (`voice-agent-`), dispatched from the host with `bubbles` and `composed`. None fires because code set a property.
 */
export { VoiceAgentBeforeStartEvent, type BeforeStartDetail, type ClientTool } from './before-start.js';
export { VoiceAgentConversationEvent } from './conversation.js';
export { VoiceAgentConversationEndEvent } from './conversation-end.js';
export { VoiceAgentDeviceEvent } from './device.js';
export { VoiceAgentErrorEvent, type VoiceAgentErrorCode } from './error.js';
export { VoiceAgentMessageEvent } from './message.js';
export { VoiceAgentStatusEvent } from './status.js';

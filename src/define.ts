/** Registers `<voice-agent-widget>` (module entry for npm users). The default server-url is this module's origin. */
import { defineVoiceAgentWidget } from './widget/define-element.js';

defineVoiceAgentWidget(import.meta.url);

export { VoiceAgentWidget } from './widget/voice-agent-widget.js';

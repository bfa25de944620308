/** The element's tag name. */
export const TAG_NAME = 'voice-agent-widget';

import { VoiceAgentWidget } from './voice-agent-widget.js';
import { recordScriptUrl } from '../client/paths.js';

import { TAG_NAME } from './tag-name.js';

export { TAG_NAME };

/**
 * Registers `<voice-agent-widget>` unless it is already registered (a script loaded twice does not throw;
 * DESIGN.md rule 2). When another class holds the name, it is left alone and a warning says so.
 * @param scriptUrl the defining script's URL; its origin is the default `server-url` (PROTOCOL.md section 1)
 */
export function defineVoiceAgentWidget(scriptUrl?: string | null): void {
  recordScriptUrl(scriptUrl);
  const existing = customElements.get(TAG_NAME);
  if (existing) {
    if (existing !== VoiceAgentWidget) console.warn(`[voice-agent-widget] <${TAG_NAME}> is already defined by another script; this copy is not registered.`);
    return;
  }
  customElements.define(TAG_NAME, VoiceAgentWidget);
}

declare global {
  interface HTMLElementTagNameMap {
    'voice-agent-widget': VoiceAgentWidget;
  }
}

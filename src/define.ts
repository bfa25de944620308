/** Registers `<voice-agent-widget>` (module entry for npm users). The default server-url is this module's origin. */
import { defaultServerUrl, recordScriptUrl } from './client/paths.js';
import { prefetchDocumentWidgets } from './client/prefetch.js';
import { defineVoiceAgentWidget, TAG_NAME } from './widget/define-element.js';

// In a browser only: imported on a server (Node, server rendering) it registers nothing, and the markup a server
// renders, <voice-agent-widget agent-id="…">, upgrades once this module runs in the browser.
if (typeof document !== 'undefined') {
  // The configuration reads of the elements already in the page start before they upgrade.
  if (!customElements.get(TAG_NAME)) {
    recordScriptUrl(import.meta.url);
    prefetchDocumentWidgets(document, defaultServerUrl());
  }
  defineVoiceAgentWidget(import.meta.url);
}

export { VoiceAgentWidget } from './widget/voice-agent-widget.js';

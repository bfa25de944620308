/** Registers `<voice-agent-widget>` (module entry for npm users). The default server-url is this module's origin. */
import { defaultServerUrl, recordScriptUrl } from './client/paths.js';
import { prefetchDocumentWidgets } from './client/prefetch.js';
import { defineVoiceAgentWidget, TAG_NAME } from './widget/define-element.js';

// The configuration reads of the elements already in the page start before they upgrade.
if (!customElements.get(TAG_NAME)) {
  recordScriptUrl(import.meta.url);
  prefetchDocumentWidgets(document, defaultServerUrl());
}
defineVoiceAgentWidget(import.meta.url);

export { VoiceAgentWidget } from './widget/voice-agent-widget.js';

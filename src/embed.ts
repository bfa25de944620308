/** The script-tag entry (the classic first script, vite.config.ts): starts the configuration reads and registers `<voice-agent-widget>`. */
import { defaultServerUrl, recordScriptUrl } from './client/paths.js';
import { prefetchDocumentWidgets } from './client/prefetch.js';
import { defineVoiceAgentWidget, TAG_NAME } from './widget/define-element.js';

const scriptUrl = document.currentScript instanceof HTMLScriptElement ? document.currentScript.src : null;
// The configuration reads of the elements already in the page start before they upgrade; not when
// an earlier copy of this script registered the element (its elements read already).
if (!customElements.get(TAG_NAME)) {
  recordScriptUrl(scriptUrl);
  prefetchDocumentWidgets(document, defaultServerUrl());
}
defineVoiceAgentWidget(scriptUrl);

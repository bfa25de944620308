/**
 * The script-tag entry's first statements (embed.ts imports this module first, so it runs before Lit and the element
 * are evaluated): records the script's URL (the default `server-url` and where the chunks and worklets are) and starts
 * the configuration reads of the widgets already in the page (PROTOCOL.md section 2), while the rest of the script is
 * still being evaluated. Not when an earlier copy of this script registered the element (its elements read already).
 */
import { defaultServerUrl, recordScriptUrl } from './client/paths.js';
import { prefetchDocumentWidgets } from './client/prefetch.js';
import { TAG_NAME } from './widget/tag-name.js';

if (!customElements.get(TAG_NAME)) {
  recordScriptUrl(document.currentScript instanceof HTMLScriptElement ? document.currentScript.src : null);
  prefetchDocumentWidgets(document, defaultServerUrl());
}

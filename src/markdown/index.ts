/**
 * Agent markdown and `terms_html` to safe DOM: marked → DOMPurify → link policy (PROTOCOL.md section 2, Link policy).
 * The only place in the widget that makes HTML from strings (DESIGN.md rule 9).
 */
export { allowedUrl, isLinkAllowed } from '../config/link-policy.js';
export type { LinkPolicy } from '../config/link-policy.js';
export { fragmentToHtml, renderMarkdown, renderSafeHtml, splitMarkdown, type MarkdownBlock } from './render.js';
export { IncrementalMarkdown } from './incremental.js';

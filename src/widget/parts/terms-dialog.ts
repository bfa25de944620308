import { html, type TemplateResult } from 'lit';
import type { TextContents } from '../config/types.js';
import type { LinkPolicy } from '../markdown/link-policy.js';
import { renderSafeHtml } from '../markdown/render.js';

/** The terms to accept before the first conversation: `terms_html` (sanitised) or else `terms_text` (PROTOCOL.md section 2). */
export interface Terms {
  html: string;
  text: string;
  /** localStorage key that remembers acceptance, or '' */
  key: string;
}

/** The sanitised terms, one element per `Terms`, moved into the dialog each time it opens (never re-parsed). */
const rendered = new WeakMap<Terms, HTMLElement>();

/**
 * The terms sheet (`part="terms"`): a native modal `<dialog>` (focus kept inside, Escape declines, focus returns), the
 * terms as sanitised HTML or text, and the `accept_terms` / `dismiss_terms` buttons. The element opens it with `showModal()`.
 */
export function renderTerms(terms: Terms, texts: TextContents, policy: LinkPolicy, onAccept: () => void, onDecline: () => void): TemplateResult {
  let content: HTMLElement | string = terms.text;
  if (terms.html) {
    content = rendered.get(terms) ?? document.createElement('div');
    if (!rendered.has(terms)) content.append(renderSafeHtml(terms.html, policy));
    rendered.set(terms, content);
  }
  return html`<dialog part="terms" class="terms" aria-label=${texts.main_label} aria-describedby="terms-text" @cancel=${onDecline}>
    <div id="terms-text" class="terms-text">${content}</div>
    <div class="terms-actions">
      <button part="button decline-terms-button" class="secondary" type="button" @click=${onDecline}>${texts.dismiss_terms}</button>
      <button part="button accept-terms-button" class="primary" type="button" autofocus @click=${onAccept}>${texts.accept_terms}</button>
    </div>
  </dialog>`;
}

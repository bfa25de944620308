import { css, html, type TemplateResult } from 'lit';
import type { Terms } from '../../config/texts.js';
import type { Labels } from '../../config/types.js';
import type { LinkPolicy } from '../../config/link-policy.js';
import { renderSafeHtml } from '../../markdown/render.js';
import { elementRef, type ElementCallback } from './element-ref.js';

/** The sanitised terms, one element per `Terms`, moved into the dialog each time it opens (never re-parsed). */
const rendered = new WeakMap<Terms, HTMLElement>();

/** Options of `termsDialog`. */
export interface TermsDialogOptions {
  terms: Terms;
  texts: Labels;
  linkPolicy: LinkPolicy;
  onAccept: () => void;
  /** Declined: the decline button or Escape (`cancel`). */
  onDecline: () => void;
  /** Gets the `<dialog>` (the terms controller opens it as a modal). */
  dialogRef: ElementCallback;
}

/**
 * The terms sheet (`part="terms"`; PROTOCOL.md section 2): a native modal `<dialog>` (focus kept inside, Escape
 * declines), the terms as sanitised HTML (`terms_html`) or text (`terms_text`), and the `accept_terms` /
 * `dismiss_terms` buttons (`part="accept-terms-button"` / `part="decline-terms-button"`). The terms controller opens
 * it with `showModal()` and returns focus when it closes.
 */
export function termsDialog({ terms, texts, linkPolicy, onAccept, onDecline, dialogRef }: TermsDialogOptions): TemplateResult {
  let content: HTMLElement | string = terms.text;
  if (terms.html) {
    content = rendered.get(terms) ?? document.createElement('div');
    if (!rendered.has(terms)) content.append(renderSafeHtml(terms.html, linkPolicy));
    rendered.set(terms, content);
  }
  return html`<dialog part="terms" class="terms" aria-label=${texts.main_label} aria-describedby="terms-text" @cancel=${onDecline} ${elementRef(dialogRef)}>
    <div id="terms-text" class="terms-text">${content}</div>
    <div class="terms-actions">
      <button part="button decline-terms-button" class="secondary" type="button" @click=${onDecline}>${texts.dismiss_terms}</button>
      <button part="button accept-terms-button" class="primary" type="button" autofocus @click=${onAccept}>${texts.accept_terms}</button>
    </div>
  </dialog>`;
}

export const termsDialogStyles = css`
  .terms-text :first-child {
    margin-top: 0;
  }
`;

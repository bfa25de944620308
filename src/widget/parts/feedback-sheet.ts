import { css, html, nothing, type TemplateResult } from 'lit';
import { MAX_TEXT_LENGTH } from '../../config/defaults.js';
import type { PanelLabels } from '../../config/panel-labels.js';
import type { FeedbackStep } from '../controllers/feedback.js';
import { elementRef, type ElementCallback } from './element-ref.js';

/** Options of `feedbackSheet`. */
export interface FeedbackSheetOptions {
  step: FeedbackStep;
  texts: PanelLabels;
  /** The stars given before (1-5, 0 for none): that star takes focus when the visitor goes back to the stars. */
  rating: number;
  /** The visitor chose 1-5 stars. */
  onRate: (rating: number) => void;
  onBack: () => void;
  /** The comment form was sent, with the comment as typed. */
  onSubmit: (comment: string) => void;
  /** Escape or the close button: the visitor does not want to rate this conversation. */
  onClose: () => void;
  /** Gets the `<dialog>` (the feedback controller shows it as a modal). */
  dialogRef: ElementCallback;
}

/**
 * The end-of-call feedback (`part="feedback"`; PROTOCOL.md section 4, `feedback_mode: end` with
 * `end_feedback.type: rating`), a native modal `<dialog>` named by `initiate_feedback` (focus moves in and is held
 * there; Escape and the close button, `part="close-feedback-button"` named `dismiss`, close it): five star buttons
 * (`part="star-button"`, each named by the `rating_stars` label with its number), then the optional comment
 * (`request_follow_up_feedback`, `go_back` with `part="back-button"` back to the stars, `submit` with
 * `part="submit-button"`), then the thanks or `error_occurred` in a `role="status"` that is there (empty) from the
 * start, so that a screen reader announces the change (a status region inserted with its text often is not).
 */
export function feedbackSheet({ step, texts, rating, onRate, onBack, onSubmit, onClose, dialogRef }: FeedbackSheetOptions): TemplateResult {
  const submit = (event: SubmitEvent): void => {
    event.preventDefault();
    onSubmit(String(new FormData(event.target as HTMLFormElement).get('comment') ?? ''));
  };
  return html`<dialog part="feedback" class="feedback" aria-label=${texts.initiate_feedback} @cancel=${onClose} ${elementRef(dialogRef)}>
    ${step === 'rate'
      ? html`<p>${texts.initiate_feedback}</p>
          <div>
            ${[1, 2, 3, 4, 5].map((n) => html`<button part="button star-button" class="icon" type="button" aria-label=${texts.rating_stars.replace('{rating}', String(n))} aria-pressed=${n === rating ? 'true' : 'false'} ?autofocus=${n === rating} @click=${() => onRate(n)}><span aria-hidden="true">★</span></button>`)}
          </div>`
      : step === 'comment'
        ? html`<form @submit=${submit}>
            <label>${texts.request_follow_up_feedback}<textarea name="comment" rows="3" maxlength=${MAX_TEXT_LENGTH} placeholder=${texts.follow_up_feedback_placeholder}></textarea></label>
            <div class="terms-actions">
              <button part="button back-button" class="secondary" type="button" @click=${onBack}>${texts.go_back}</button>
              <button part="button submit-button" class="primary" type="submit">${texts.submit}</button>
            </div>
          </form>`
        : nothing}
    <p role="status">${step === 'thanks' ? texts.thanks_for_feedback : step === 'failed' ? texts.error_occurred : ''}</p>
    ${step === 'thanks' ? html`<p>${texts.thanks_for_feedback_details}</p>` : nothing}
    <button part="button close-feedback-button" class="icon close" type="button" aria-label=${texts.dismiss} @click=${onClose}><span aria-hidden="true">&times;</span></button>
  </dialog>`;
}

/** The dialog's frame is every modal dialog's (conversation-styles.ts); its close button sits in its top end corner. */
export const feedbackSheetStyles = css`
  .feedback {
    min-width: min(320px, 90vw);
    text-align: center;
  }
  .feedback [role='status']:empty {
    margin: 0;
  }
  .feedback .close {
    position: absolute;
    top: 4px;
    inset-inline-end: 4px;
  }
`;

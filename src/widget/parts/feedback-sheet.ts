import { css, html, nothing, type TemplateResult } from 'lit';
import { MAX_TEXT_LENGTH } from '../../config/defaults.js';
import type { Labels } from '../../config/types.js';
import type { FeedbackStep } from '../controllers/feedback.js';

/** Options of `feedbackSheet`. */
export interface FeedbackSheetOptions {
  step: FeedbackStep;
  texts: Labels;
  /** The visitor chose 1-5 stars. */
  onRate: (rating: number) => void;
  onBack: () => void;
  /** The comment form was sent, with the comment as typed. */
  onSubmit: (comment: string) => void;
}

/**
 * The end-of-call feedback sheet (`part="feedback"`; PROTOCOL.md section 4, `feedback_mode: end` with
 * `end_feedback.type: rating`): `initiate_feedback` with five star buttons (`part="star-button"`, named `n/5`), then
 * the optional comment (`request_follow_up_feedback`, `go_back` with `part="back-button"`, `submit` with
 * `part="submit-button"`), then the thanks or `error_occurred`.
 */
export function feedbackSheet({ step, texts, onRate, onBack, onSubmit }: FeedbackSheetOptions): TemplateResult {
  const submit = (event: SubmitEvent): void => {
    event.preventDefault();
    onSubmit(String(new FormData(event.target as HTMLFormElement).get('comment') ?? ''));
  };
  return html`<div part="feedback" class="feedback actions" role="group" aria-label=${texts.initiate_feedback}>
    ${step === 'rate'
      ? html`<p>${texts.initiate_feedback}</p>
          <div>
            ${[1, 2, 3, 4, 5].map((n) => html`<button part="button star-button" class="icon" type="button" aria-label="${n}/5" @click=${() => onRate(n)}>★</button>`)}
          </div>`
      : step === 'comment'
        ? html`<form @submit=${submit}>
            <label>${texts.request_follow_up_feedback}<textarea name="comment" rows="3" maxlength=${MAX_TEXT_LENGTH} placeholder=${texts.follow_up_feedback_placeholder}></textarea></label>
            <div class="terms-actions">
              <button part="button back-button" class="secondary" type="button" @click=${onBack}>${texts.go_back}</button>
              <button part="button submit-button" class="primary" type="submit">${texts.submit}</button>
            </div>
          </form>`
        : html`<p role="status">${step === 'thanks' ? texts.thanks_for_feedback : texts.error_occurred}</p>
            ${step === 'thanks' ? html`<p>${texts.thanks_for_feedback_details}</p>` : nothing}`}
  </div>`;
}

export const feedbackSheetStyles = css`
  .feedback {
    flex-direction: column;
    text-align: center;
  }
`;

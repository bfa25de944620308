import { html, type TemplateResult } from 'lit';
import type { Labels } from '../../config/types.js';
import type { TranscriptEntry } from '../controllers/conversation.js';

/** A like or a dislike of one agent message (PROTOCOL.md section 4, `feedback`). */
export type MessageScore = 'like' | 'dislike';

/** Options of `messageRating`. */
export interface MessageRatingOptions {
  /** The agent message rated (its `score` once sent). */
  entry: TranscriptEntry;
  texts: Labels;
  onRate: (entry: TranscriptEntry, score: MessageScore) => void;
}

/**
 * The like and dislike buttons under an agent message while the conversation runs (`feedback_mode: during`;
 * `part="rating"`, each button `part="like-button"` / `part="dislike-button"`, named by the `like` / `dislike` labels).
 * Sent once: the choice stays pressed (`aria-pressed`) and both buttons are disabled after it.
 */
export function messageRating({ entry, texts, onRate }: MessageRatingOptions): TemplateResult {
  return html`<div part="rating" class="code-actions">
    ${(['like', 'dislike'] as const).map(
      (score) => html`<button part="button ${score}-button" class="link" type="button" aria-label=${texts[score]} aria-pressed=${entry.score === score ? 'true' : 'false'} ?disabled=${!!entry.score} @click=${() => onRate(entry, score)}>
        ${score === 'like' ? '👍' : '👎'}
      </button>`,
    )}
  </div>`;
}

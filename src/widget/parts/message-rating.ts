import { html, type TemplateResult } from 'lit';
import type { PanelLabels } from '../../config/panel-labels.js';
import type { TranscriptEntry } from '../controllers/conversation.js';

/** A like or a dislike of one agent message (PROTOCOL.md section 4, `feedback`). */
export type MessageScore = 'like' | 'dislike';

/** Options of `messageRating`. */
export interface MessageRatingOptions {
  /** The agent message rated (its `score` once sent). */
  entry: TranscriptEntry;
  texts: PanelLabels;
  onRate: (entry: TranscriptEntry, score: MessageScore) => void;
}

/**
 * The like and dislike buttons under an agent message while the conversation runs (`feedback_mode: during`;
 * `part="rating"`, each button `part="like-button"` / `part="dislike-button"`, named by the `like` / `dislike` labels).
 * Sent once: the choice stays pressed (`aria-pressed`) and both buttons are disabled after it.
 */
export function messageRating({ entry, texts, onRate }: MessageRatingOptions): TemplateResult {
  // Both buttons in one template, no list: a long transcript holds one of these per agent message, and each list item
  // would add marker nodes of its own.
  return html`<div part="rating" class="rating">
    <button part="button like-button" class="link" type="button" aria-label=${texts.like} aria-pressed=${entry.score === 'like' ? 'true' : 'false'} ?disabled=${!!entry.score} @click=${() => onRate(entry, 'like')}>
      👍
    </button>
    <button part="button dislike-button" class="link" type="button" aria-label=${texts.dislike} aria-pressed=${entry.score === 'dislike' ? 'true' : 'false'} ?disabled=${!!entry.score} @click=${() => onRate(entry, 'dislike')}>
      👎
    </button>
  </div>`;
}

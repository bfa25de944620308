import type { ReactiveController, ReactiveElement } from 'lit';
import { postConversationFeedback } from '../../client/feedback.js';
import type { FetchLike } from '../../client/rest.js';
import { MAX_TEXT_LENGTH } from '../../config/defaults.js';
import * as log from '../../internal/console.js';
import { ModalController } from './modal.js';

/**
 * Where the end-of-call rating stands: `rate` (stars) → `comment` → `thanks`, or `failed` when the post failed;
 * `closed` once the visitor closed the dialog (Escape or its close button): not asked again for that conversation.
 */
export type FeedbackStep = 'rate' | 'comment' | 'thanks' | 'failed' | 'closed';

/**
 * The end-of-call rating of PROTOCOL.md section 4 (`feedback_mode: end`, `end_feedback.type: rating`): 1-5 stars, an
 * optional comment, then one `POST /v1/voiceai/conversations/{id}/feedback`. Each conversation is rated once; its
 * request is aborted when the element leaves. A failed post is told in the console and shown as `failed`, never thrown.
 * It is asked in a modal dialog (`modal`, issue 20): focus moves in and stays there until the visitor closes it, then
 * goes to what `fallbackFocus` finds (the control that ended the conversation is gone by then).
 */
export class FeedbackController implements ReactiveController {
  #conversationId: string | null = null;
  #step: FeedbackStep = 'rate';
  #rating = 0;
  #abort: AbortController | null = null;
  /** The rating's dialog: shown while the step is not `closed`. */
  readonly modal: ModalController;

  /**
   * @param fallbackFocus what takes focus when the dialog closes (the panel's first control)
   * @param network `fetch` for the post, injectable for unit tests (DESIGN.md rule 11); the browser's by default
   */
  constructor(private readonly host: ReactiveElement, fallbackFocus: () => HTMLElement | null, private readonly network: { fetch?: FetchLike } = {}) {
    host.addController(this);
    this.modal = new ModalController(host, fallbackFocus);
  }

  /** The stars given to `conversationId` (1-5; 0 before any): the star that takes focus when the visitor goes back. */
  rating(conversationId: string): number {
    return conversationId === this.#conversationId ? this.#rating : 0;
  }

  hostDisconnected(): void {
    this.#abort?.abort();
    this.#abort = null;
  }

  /** The step for `conversationId` (the conversation that ended): `rate` until the visitor acted on it. */
  step(conversationId: string): FeedbackStep {
    return conversationId === this.#conversationId ? this.#step : 'rate';
  }

  /** The visitor gave `rating` (1-5 stars) to `conversationId`: the comment comes next. */
  rate(conversationId: string, rating: number): void {
    this.#conversationId = conversationId;
    this.#rating = rating;
    this.#go('comment');
  }

  /** Back from the comment to the stars. */
  back(): void {
    this.#go('rate');
  }

  /**
   * The visitor closed the dialog (Escape, its close button) for `conversationId`: it is not asked again. A post
   * already sent goes on (the feedback given is not lost).
   */
  close(conversationId: string): void {
    this.#conversationId = conversationId;
    this.modal.close();
    this.#go('closed');
  }

  /** Posts the rating and the comment (trimmed, at most `MAX_TEXT_LENGTH` characters; left out when empty). */
  async submit(serverUrl: string, comment: string): Promise<void> {
    const conversationId = this.#conversationId!;
    const text = comment.trim().slice(0, MAX_TEXT_LENGTH);
    this.#abort?.abort();
    const abort = (this.#abort = new AbortController());
    try {
      await postConversationFeedback(serverUrl, conversationId, text ? { rating: this.#rating, comment: text } : { rating: this.#rating }, { ...this.network, signal: abort.signal });
      this.#go('thanks');
    } catch (error) {
      if (abort.signal.aborted) return;
      log.error(`could not send the feedback: ${(error as Error).message}`);
      this.#go('failed');
    } finally {
      if (this.#abort === abort) this.#abort = null;
    }
  }

  /** Moves to `step`, unless the visitor closed the dialog meanwhile (a post that answers late reopens nothing). */
  #go(step: FeedbackStep): void {
    if (this.#step === 'closed' && (step === 'thanks' || step === 'failed')) return;
    this.#step = step;
    this.host.requestUpdate();
  }
}

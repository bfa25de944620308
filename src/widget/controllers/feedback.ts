import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { postConversationFeedback, type FetchLike } from '../../client/rest.js';
import { MAX_TEXT_LENGTH } from '../../config/defaults.js';
import * as log from '../../internal/console.js';

/** Where the end-of-call rating stands: `rate` (stars) → `comment` → `thanks`, or `failed` when the post failed. */
export type FeedbackStep = 'rate' | 'comment' | 'thanks' | 'failed';

/**
 * The end-of-call rating of PROTOCOL.md section 4 (`feedback_mode: end`, `end_feedback.type: rating`): 1-5 stars, an
 * optional comment, then one `POST /v1/voiceai/conversations/{id}/feedback`. Each conversation is rated once; its
 * request is aborted when the element leaves. A failed post is told in the console and shown as `failed`, never thrown.
 */
export class FeedbackController implements ReactiveController {
  #conversationId: string | null = null;
  #step: FeedbackStep = 'rate';
  #rating = 0;
  #abort: AbortController | null = null;

  /** @param network `fetch` for the post, injectable for unit tests (DESIGN.md rule 11); the browser's by default */
  constructor(private readonly host: ReactiveControllerHost, private readonly network: { fetch?: FetchLike } = {}) {
    host.addController(this);
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

  #go(step: FeedbackStep): void {
    this.#step = step;
    this.host.requestUpdate();
  }
}

import type { ReactiveController, ReactiveElement } from 'lit';

/** Within this distance (px) of the end, the transcript counts as read to the end. */
const PINNED_PX = 24;

/**
 * Keeps the newest transcript line in view after each update, unless the visitor scrolled up to read (then the
 * transcript stays where they left it until they scroll back to the end). Wire `onScroll` to the transcript.
 */
export class FollowTranscriptController implements ReactiveController {
  #pinned = true;

  constructor(private readonly host: ReactiveElement, private readonly selector: string) {
    host.addController(this);
  }

  /** The transcript's `scroll` listener. */
  readonly onScroll = (event: Event): void => {
    const transcript = event.currentTarget as HTMLElement;
    this.#pinned = transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < PINNED_PX;
  };

  hostUpdated(): void {
    const transcript = this.host.renderRoot.querySelector(this.selector);
    if (transcript && this.#pinned) transcript.scrollTop = transcript.scrollHeight;
  }
}

import type { ReactiveController, ReactiveElement } from 'lit';
import type { ElementCallback } from '../parts/element-ref.js';

/** Within this distance (px) of the end, the transcript counts as read to the end. */
const PINNED_PX = 24;

/**
 * Keeps the newest transcript line in view as the transcript grows, unless the visitor scrolled up to read (then the
 * transcript stays where they left it until they scroll back to the end). Wire `onScroll` to the transcript.
 *
 * It follows when the transcript's content changes size (a `ResizeObserver` on the transcript's element children: a
 * transcript wrapping its lines in one element costs one observation; the transcript part hands its element over through
 * `transcriptRef`), after the browser's own layout of the frame:
 * nothing reads the layout in between (a streamed delta's update forces none), and a line that grows without an update
 * (a picture loading) is followed too. The scroll listener tells the visitor's scrolling from the controller's own.
 * The observer is released in `hostDisconnected` (DESIGN.md rule 4).
 */
export class FollowTranscriptController implements ReactiveController {
  #pinned = true;
  /** The transcript followed (the element the transcript part last handed over), or null. */
  #transcript: Element | null = null;
  /** Its children under observation. */
  readonly #observed = new Set<Element>();
  #resize: ResizeObserver | null = null;
  /** The `scrollTop` (px) the controller last gave the transcript, until a scroll event tells another: -1 for none. */
  #followedTop = -1;

  constructor(host: ReactiveElement) {
    host.addController(this);
  }

  /** The transcript part's callback: the transcript element it rendered (a new one when the panel opened again). */
  readonly transcriptRef: ElementCallback = (transcript) => {
    if (transcript === this.#transcript) return;
    this.#release();
    this.#transcript = transcript;
  };

  /** The transcript's `scroll` listener. */
  readonly onScroll = (event: Event): void => {
    const transcript = event.currentTarget as HTMLElement;
    const top = transcript.scrollTop;
    // The event of the controller's own scroll: the content may have grown since, which is no reason to stop following.
    if (transcript === this.#transcript && top === this.#followedTop) return;
    this.#followedTop = -1;
    this.#pinned = transcript.scrollHeight - top - transcript.clientHeight < PINNED_PX;
  };

  /** Observes the children of the transcript now rendered; a transcript no longer shown is let go. */
  hostUpdated(): void {
    const transcript = this.#transcript;
    if (!transcript?.isConnected) {
      if (transcript) this.#release();
      this.#transcript = null;
      return;
    }
    this.#resize ??= new ResizeObserver(() => this.#follow());
    for (const child of this.#observed) {
      if (child.parentNode !== transcript) {
        this.#resize.unobserve(child);
        this.#observed.delete(child);
      }
    }
    for (const child of transcript.children) {
      if (this.#observed.has(child)) continue;
      this.#resize.observe(child);
      this.#observed.add(child);
    }
  }

  hostDisconnected(): void {
    this.#release();
    this.#transcript = null;
    this.#resize = null;
  }

  /** In the frame, after layout: back to the end when following. */
  #follow(): void {
    const transcript = this.#transcript;
    if (!transcript || !this.#pinned) return;
    transcript.scrollTop = transcript.scrollHeight;
    this.#followedTop = transcript.scrollTop;
  }

  #release(): void {
    this.#resize?.disconnect();
    this.#observed.clear();
    this.#followedTop = -1;
  }
}

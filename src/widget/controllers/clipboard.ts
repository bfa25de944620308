import type { ReactiveController, ReactiveControllerHost } from 'lit';
import * as log from '../../internal/console.js';

/** How long `copied` stays true after a copy, in ms. */
export const COPIED_MS = 2000;

/**
 * Copies text to the clipboard and says so for `COPIED_MS` (the copy button's `copied` label). Its timer is cleared
 * when the element leaves. A refused copy (no permission, no clipboard) is told in the console, never thrown.
 */
export class ClipboardController implements ReactiveController {
  /** True for `COPIED_MS` after a successful copy. */
  copied = false;
  /** What was copied last (`copy`'s `what`). */
  #what = '';
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostDisconnected(): void {
    clearTimeout(this.#timer);
    this.copied = false;
  }

  /** True for `COPIED_MS` after a successful copy of `what` (the conversation id's button says so; a code block's does not). */
  isCopied(what: string): boolean {
    return this.copied && this.#what === what;
  }

  /** Writes `text` to the clipboard; `what` names it in the console message when that fails, and for `isCopied`. */
  async copy(text: string, what: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      this.copied = true;
      this.#what = what;
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => {
        this.copied = false;
        this.host.requestUpdate();
      }, COPIED_MS);
    } catch (error) {
      log.warn(`could not copy the ${what}: ${(error as Error).message}`);
    }
    this.host.requestUpdate();
  }
}

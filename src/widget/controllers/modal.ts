import type { ReactiveController, ReactiveElement } from 'lit';
import type { ElementCallback } from '../parts/element-ref.js';

/**
 * One modal `<dialog>` of the panel (the terms, the end-of-conversation rating): shown with `showModal()` as soon as
 * its part renders it (focus moves in and is held there, the page behind is inert), kept focused across its own
 * re-renders (a step that replaces the focused control focuses the new step's `[autofocus]` control, else its first),
 * and closed by `close()`, which returns focus to what had it when the dialog opened, or (when that is gone, or
 * `back` is false) to what `fallbackFocus` finds. Its owner stops rendering the dialog once closed.
 */
export class ModalController implements ReactiveController {
  #dialog: HTMLDialogElement | null = null;
  #opener: HTMLElement | null = null;

  constructor(
    private readonly host: ReactiveElement,
    private readonly fallbackFocus: () => HTMLElement | null,
  ) {
    host.addController(this);
  }

  /** The dialog part's callback: the `<dialog>` it rendered. */
  readonly dialogRef: ElementCallback = (dialog) => void (this.#dialog = dialog as HTMLDialogElement);

  /** True while the dialog is shown. */
  get open(): boolean {
    return !!this.#dialog?.isConnected && this.#dialog.open;
  }

  hostUpdated(): void {
    const dialog = this.#dialog;
    if (!dialog?.isConnected) return;
    const root = this.host.renderRoot as ShadowRoot;
    if (!dialog.open) {
      this.#opener = root.activeElement as HTMLElement | null;
      dialog.showModal();
    }
    if (!dialog.contains(root.activeElement)) (dialog.querySelector<HTMLElement>('[autofocus]') ?? dialog.querySelector<HTMLElement>('button, textarea'))?.focus();
  }

  /** Closes the dialog; focus goes back to its opener (unless `back` is false) or to what `fallbackFocus` finds. */
  close(back = true): void {
    const opener = back ? this.#opener : null;
    this.#opener = null;
    this.#dialog?.close();
    // Focus moves once the update that removes the dialog (and runs what it waited for) is done.
    this.host.requestUpdate();
    void this.host.updateComplete.then(() => (opener?.isConnected ? opener : this.fallbackFocus())?.focus());
  }
}

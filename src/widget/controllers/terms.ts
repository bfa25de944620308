import type { ReactiveController, ReactiveElement } from 'lit';
import type { Terms } from '../../config/texts.js';
import * as log from '../../internal/console.js';
import { ModalController } from './modal.js';

/**
 * The terms a visitor accepts before the first conversation (PROTOCOL.md section 2): whether they are still to be
 * accepted, the dialog's open state (kept here and nowhere else) and what waits for acceptance. Accepting is remembered
 * for this page view and under `terms_key` in localStorage; declining starts nothing. Opening shows the `<dialog>` as
 * a modal (`ModalController`, through `modal.dialogRef`); declining returns focus to what opened it (or, when that is
 * gone, to what `fallbackFocus` finds), accepting puts it on what `fallbackFocus` finds once what waited has started
 * (the panel's first control for it).
 */
export class TermsController implements ReactiveController {
  /** True while the terms dialog is shown. */
  open = false;
  #accepted = false;
  #pending: (() => void) | null = null;
  #declined: (() => void) | null = null;
  /** The dialog: shown while `open` renders it. */
  readonly modal: ModalController;

  constructor(private readonly host: ReactiveElement, fallbackFocus: () => HTMLElement | null) {
    host.addController(this);
    this.modal = new ModalController(host, fallbackFocus);
  }

  hostDisconnected(): void {
    const declined = this.#declined;
    this.open = false;
    this.#pending = this.#declined = null;
    declined?.();
  }

  /** True when `terms` must be accepted first: not accepted in this page view, nor remembered under their key. */
  pending(terms: Terms | null): boolean {
    if (!terms || this.#accepted) return false;
    try {
      return !terms.key || localStorage.getItem(terms.key) !== 'accepted';
    } catch {
      return true;
    }
  }

  /** Runs `start` now, or after the visitor accepted `terms` (the dialog opens); declining drops it and calls `declined`. */
  run(terms: Terms | null, start: () => void, declined?: () => void): void {
    if (!this.pending(terms)) return start();
    this.#declined?.();
    this.#pending = start;
    this.#declined = declined ?? null;
    this.open = true;
    this.host.requestUpdate();
  }

  /** The visitor accepted: remember it, close, run what waited. */
  accept(terms: Terms | null): void {
    const start = this.#pending;
    this.#pending = this.#declined = null;
    this.#accepted = true;
    try {
      if (terms?.key) localStorage.setItem(terms.key, 'accepted');
    } catch {
      log.warn('no localStorage: terms acceptance kept for this page view only.');
    }
    // What was accepted changes the panel (a call's controls, a chat's input): focus goes to its first control, not
    // back to where the dialog was opened from (a text input, in a call, would open a phone's keyboard).
    this.close(false);
    start?.();
  }

  /**
   * Closes the dialog (declined, Escape, or after accepting, `back` false: focus to the panel's first control); what
   * waited starts only through `accept`.
   */
  close(back = true): void {
    const declined = this.#declined;
    this.modal.close(back);
    this.open = false;
    this.#pending = this.#declined = null;
    declined?.();
  }
}

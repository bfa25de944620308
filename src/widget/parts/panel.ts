import { css, html, nothing, type TemplateResult } from 'lit';
import { directionOf } from '../../config/language.js';
import type { Labels } from '../../config/types.js';

/** Options of `panel`. */
export interface PanelOptions {
  texts: Labels;
  /** The conversation language: the panel's direction (Arabic, Hebrew, Persian and Urdu right to left). */
  language: string;
  /** True when expanded to the viewport (`expandable`). */
  expanded: boolean;
  /** Keys inside the panel (Escape closes it). */
  onKeydown: (event: KeyboardEvent) => void;
  /** The header, transcript, actions, composer… in order. */
  content: unknown[];
}

/**
 * The conversation panel (`part="panel"`, `id="panel"` for the launcher's `aria-controls`), a region (a landmark a screen
 * reader lists and jumps to; not a dialog: the page stays usable beside it) named by `main_label`.
 */
export function panel({ texts, language, expanded, onKeydown, content }: PanelOptions): TemplateResult {
  return html`<div id="panel" part="panel" dir=${directionOf(language)} class="panel ${expanded ? 'expanded' : ''}" role="region" aria-label=${texts.main_label} @keydown=${onKeydown}>
    ${content}
  </div>`;
}

/** Options of `panelPlaceholder`. */
export interface PanelPlaceholderOptions {
  texts: Labels;
  language: string;
  /** True when the conversation part could not be loaded: the `load_failed` alert and a `retry` button. */
  failed: boolean;
  /** Loads the conversation part again (after a failure). */
  onRetry: () => void;
  /** Keys inside the panel (Escape closes it). */
  onKeydown: (event: KeyboardEvent) => void;
}

/**
 * The panel while its conversation part loads (the script-tag build loads it on intent): the same box as the panel,
 * so nothing moves when the real one replaces it, saying `loading` (`role="status"`, `aria-busy`), or `load_failed`
 * (`role="alert"`) with a retry button (`part="retry-button"`).
 */
export function panelPlaceholder({ texts, language, failed, onRetry, onKeydown }: PanelPlaceholderOptions): TemplateResult {
  return panel({ texts, language, expanded: false, onKeydown, content: [
    failed
      ? html`<div class="placeholder" role="alert">${texts.load_failed}</div>`
      : html`<div class="placeholder" role="status" aria-busy="true"><span class="spinner" aria-hidden="true"></span>${texts.loading}</div>`,
    failed ? html`<button part="button retry-button" class="secondary retry" type="button" @click=${onRetry}>${texts.retry}</button>` : nothing,
  ] });
}

export const panelStyles = css`
  /* panel size by variant: --_w × --_h, never larger than the viewport; expanded takes the viewport */
  .root {
    --_w: 400px;
    --_h: 560px;
    --_launcher: 72px;
  }
  .tiny {
    --_w: 340px;
    --_h: 480px;
  }
  .full {
    --_w: 480px;
    --_h: 680px;
  }
  .panel {
    display: flex;
    flex-direction: column;
    width: min(var(--_w), 100vw - 2 * var(--_overlay-padding));
    height: min(var(--_h), 100vh - 2 * var(--_overlay-padding) - var(--_launcher));
    border-radius: var(--_sheet-radius);
    /* Where the panel cannot hold its parts (200 % zoom, a short window), it scrolls: nothing is cut off. */
    overflow: hidden auto;
  }
  .expanded {
    --_w: 100vw;
    --_h: 100vh;
  }
  .always {
    --_launcher: 0px;
  }
  .placeholder {
    display: flex;
    flex: 1;
    align-items: center;
    justify-content: center;
    gap: 10px;
    padding: 16px;
    color: var(--_subtle-text);
  }
  [role='alert'].placeholder {
    flex: 0 1 auto;
    margin: auto 16px 0;
    border: 1px solid var(--_base-error);
    border-radius: var(--_input-radius);
    color: var(--_error-text);
  }
  .panel > .retry {
    align-self: center;
    margin-bottom: auto;
  }
  .spinner {
    width: 16px;
    height: 16px;
    border: 2px solid var(--_base-border);
    border-top-color: var(--_accent);
    border-radius: 50%;
  }
  @media (prefers-reduced-motion: no-preference) {
    .spinner {
      animation: spin 0.8s linear infinite;
    }
  }
  @keyframes spin {
    to {
      transform: rotate(1turn);
    }
  }
`;

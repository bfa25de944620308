import { css, html, nothing, type TemplateResult } from 'lit';
import type { Labels } from '../../config/types.js';
import { avatar } from './avatar.js';

/** Options of `errorState`. */
export interface ErrorStateOptions {
  texts: Labels;
  /** Reads the configuration again; null when trying again cannot help (bad attributes, an unknown agent). */
  onRetry: (() => void) | null;
}

/**
 * The error state (`part="error"`, `role="alert"`): shown in place of the launcher when the attributes are unusable
 * or the configuration cannot be read; the cause is in the console. After a failure time may mend (no answer, 5xx),
 * a retry button (`part="retry-button"`, the `retry` label). Styled like the launcher (launcherStyles).
 */
export function errorState({ texts, onRetry }: ErrorStateOptions): TemplateResult {
  return html`<div part="root" class="root bottom-right">
    <div class="bar">
      <div part="error" class="error-state" role="alert">${avatar({ config: null })}<span>${texts.error_occurred}</span></div>
      ${onRetry ? html`<button part="button retry-button" class="secondary retry" type="button" @click=${onRetry}>${texts.retry}</button>` : nothing}
    </div>
  </div>`;
}

export const errorStateStyles = css`
  .error-state {
    border-color: var(--_base-error);
  }
  .error-state .avatar {
    background: var(--_base-error);
  }
`;

import { css, html, type TemplateResult } from 'lit';
import type { Labels } from '../../config/types.js';
import { avatar } from './avatar.js';

/**
 * The error state (`part="error"`, `role="alert"`): shown in place of the launcher when the attributes are unusable
 * or the configuration cannot be read; the cause is in the console. Styled like the launcher (launcherStyles).
 */
export function errorState({ texts }: { texts: Labels }): TemplateResult {
  return html`<div part="root" class="root bottom-right">
    <div part="error" class="error-state" role="alert">${avatar({ config: null })}<span>${texts.error_occurred}</span></div>
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

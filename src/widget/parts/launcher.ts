import { css, html, nothing, type TemplateResult } from 'lit';
import { directionOf } from '../../config/language.js';
import type { Labels, WidgetConfig } from '../../config/types.js';
import { avatar } from './avatar.js';

/** Options of `launcher`. */
export interface LauncherOptions {
  /** The validated configuration; null while it is read (`busy`). */
  config: WidgetConfig | null;
  texts: Labels;
  /** The conversation language (its direction lays out the label). */
  language: string;
  /** Whether the panel is open (`aria-expanded`, the `collapse` label). */
  open: boolean;
  /** True while the configuration is read: disabled, `aria-busy`, the `connecting_status` label. */
  busy: boolean;
  onToggle: () => void;
  /** The visitor is about to use the launcher (hovered, focused, touched): what the panel needs starts loading. */
  onIntent?: () => void;
  /** Hides the widget until the page reloads (`dismissible`). */
  onDismiss: () => void;
}

/**
 * The launcher bar: the button that opens and closes the panel (`part="launcher"`; `variant: tiny` a round button
 * named by `aria-label`), with the avatar (`show_avatar_when_collapsed`, always for `tiny`), and when `dismissible`
 * and closed a dismiss button (`part="dismiss-button"`, named by the `dismiss` label).
 */
export function launcher({ config, texts, language, open, busy, onToggle, onIntent, onDismiss }: LauncherOptions): TemplateResult {
  const label = busy ? texts.connecting_status : open ? texts.collapse : texts.main_label;
  const withAvatar = !config || config.variant === 'tiny' || config.show_avatar_when_collapsed;
  return html`<div class="bar"><button
      part="launcher button"
      class="launcher"
      type="button"
      aria-expanded=${open ? 'true' : 'false'}
      aria-controls="panel"
      aria-busy=${busy ? 'true' : 'false'}
      aria-label=${config?.variant === 'tiny' ? label : nothing}
      dir=${directionOf(language || 'en')}
      ?disabled=${busy}
      @click=${onToggle}
      @pointerenter=${onIntent}
      @pointerdown=${onIntent}
      @focus=${onIntent}
    >
      ${withAvatar ? avatar({ config }) : nothing}<span class="label">${label}</span></button
    >${config?.dismissible && !open
      ? html`<button part="button dismiss-button" class="icon dismiss" type="button" aria-label=${texts.dismiss} @click=${onDismiss}>
          <span aria-hidden="true">&times;</span>
        </button>`
      : nothing}</div>`;
}

export const launcherStyles = css`
  .bar {
    display: flex;
    align-items: center;
    gap: 6px;
  }
  [class*='right'] .bar {
    flex-direction: row-reverse;
  }
  .launcher,
  .error-state {
    display: inline-flex;
    align-items: center;
    gap: 10px;
    min-height: 48px;
    padding: 6px;
    padding-inline-end: 18px;
    border-radius: var(--_compact-sheet-radius);
    font-weight: 600;
  }
  .tiny .launcher {
    padding: 5px;
    border-radius: 50%;
  }
  .tiny .label {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
  }
  .launcher:disabled {
    color: var(--_subtle-text);
  }
  .dismiss {
    width: 28px;
    height: 28px;
    background: var(--_base);
    box-shadow: 0 2px 8px #0002;
  }
  @media (prefers-reduced-motion: no-preference) {
    .launcher:disabled .avatar {
      animation: pulse 1.2s infinite;
    }
  }
  @keyframes pulse {
    50% {
      opacity: 0.5;
    }
  }
`;

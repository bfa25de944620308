import { css } from 'lit';

/**
 * Styles of the element. They read only the private `--_*` tokens (DESIGN.md rule 6), which each element's own
 * adopted sheet defines (config/theme.ts `themeRule`). `all: initial` on the host keeps the page's inherited styles (colour,
 * font, line height, alignment, letter spacing, text transform…) out; custom properties still come in, so the page's
 * `--voice-agent-*` tokens work. Written tersely on purpose: every byte here counts against the 45 KB budget.
 */
export const widgetStyles = css`
  :host {
    all: initial;
    display: block;
    color: var(--_base-primary);
    font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif;
  }
  :host([hidden]) {
    display: none;
  }
  * {
    box-sizing: border-box;
  }
  .root {
    position: fixed;
    z-index: 2147483000;
    display: flex;
    flex-direction: column;
    align-items: flex-end;
    gap: 12px;
    max-width: calc(100vw - 2 * var(--_overlay-padding));
    bottom: var(--_overlay-padding);
    right: var(--_overlay-padding);
  }
  /* placement (PROTOCOL.md section 2): the launcher sits in that place; the panel opens towards the middle */
  .root[class*='top'] {
    top: var(--_overlay-padding);
    bottom: auto;
    flex-direction: column-reverse;
  }
  .root[class*='left'] {
    left: var(--_overlay-padding);
    right: auto;
    align-items: flex-start;
  }
  .root.top,
  .root.bottom {
    right: auto;
    left: 50%;
    transform: translateX(-50%);
    align-items: center;
  }
  .bar {
    display: flex;
    align-items: center;
    gap: 6px;
  }
  [class*='right'] .bar {
    flex-direction: row-reverse;
  }
  button,
  select,
  input,
  textarea {
    font: inherit;
    color: inherit;
  }
  button {
    cursor: pointer;
  }
  :focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  .launcher,
  .error-state,
  .panel,
  .terms {
    border: 1px solid var(--_base-border);
    background: var(--_base);
    color: var(--_base-primary);
    box-shadow: 0 6px 24px #0002;
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
  .tiny .label,
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
  }
  .launcher:not(:disabled):hover,
  .icon:hover,
  .secondary:hover {
    background: var(--_base-hover);
  }
  .launcher:not(:disabled):active,
  .secondary:active {
    background: var(--_base-active);
  }
  .launcher:disabled {
    color: var(--_base-subtle);
  }
  .error-state {
    border-color: var(--_base-error);
  }
  .avatar {
    flex: none;
    width: 36px;
    height: 36px;
    border-radius: 50%;
    object-fit: cover;
    background: radial-gradient(circle at 30% 30%, var(--_orb-color-2), var(--_orb-color-1) 70%);
  }
  .avatar.large,
  .full .avatar {
    width: 40px;
    height: 40px;
  }
  .error-state .avatar {
    background: var(--_base-error);
  }
  /* panel size by variant: --w × --h, never larger than the viewport; expanded takes the viewport */
  .root {
    --w: 400px;
    --h: 560px;
  }
  .tiny {
    --w: 340px;
    --h: 480px;
  }
  .full {
    --w: 480px;
    --h: 680px;
  }
  .panel {
    display: flex;
    flex-direction: column;
    width: min(var(--w), 100vw - 2 * var(--_overlay-padding));
    height: min(var(--h), 100vh - 2 * var(--_overlay-padding) - var(--launcher, 72px));
    border-radius: var(--_sheet-radius);
    overflow: hidden;
  }
  .expanded {
    --w: 100vw;
    --h: 100vh;
  }
  .always {
    --launcher: 0px;
  }
  .header,
  .conversation-id,
  .composer,
  .actions,
  .terms-actions {
    display: flex;
    align-items: center;
    gap: 8px;
  }
  .header {
    flex-wrap: wrap;
    padding: 12px;
    border-bottom: 1px solid var(--_base-border);
  }
  .status {
    flex: 1;
    min-width: 5em;
    margin: 0;
    color: var(--_base-subtle);
    font-size: 13px;
  }
  .icon,
  .dismiss {
    flex: none;
    width: 36px;
    height: 36px;
    border: 0;
    border-radius: 50%;
    background: transparent;
    font-size: 20px;
    line-height: 1;
  }
  .dismiss {
    width: 28px;
    height: 28px;
    background: var(--_base);
    box-shadow: 0 2px 8px #0002;
  }
  .primary,
  .secondary,
  select {
    min-height: 36px;
    padding: 0 14px;
    border: 1px solid var(--_accent-border);
    border-radius: var(--_button-radius);
    background: var(--_accent);
    color: var(--_accent-primary);
    font-weight: 600;
  }
  .primary:hover {
    background: var(--_accent-hover);
  }
  .primary:active {
    background: var(--_accent-active);
  }
  .primary:disabled {
    border-color: var(--_base-border);
    background: var(--_base-active);
    color: var(--_base-subtle);
  }
  .secondary,
  select {
    border-color: var(--_base-border);
    background: var(--_base);
    color: var(--_base-primary);
  }
  select {
    padding: 0 8px;
    border-radius: var(--_dropdown-sheet-radius);
  }
  .conversation-id {
    justify-content: space-between;
    margin: 0;
    padding: 4px 16px;
    color: var(--_base-subtle);
    font-size: 12px;
  }
  .link {
    border: 0;
    background: none;
    color: var(--_base-primary);
    text-decoration: underline;
  }
  [aria-pressed='true'] {
    background: var(--_accent);
    color: var(--_accent-primary);
  }
  .transcript {
    flex: 1;
    overflow-y: auto;
    padding: 16px;
    display: flex;
    flex-direction: column;
    gap: 10px;
  }
  .message {
    max-width: 85%;
    padding: 8px 12px;
    border-radius: var(--_bubble-radius);
    overflow-wrap: anywhere;
    align-self: flex-start;
    background: var(--_base-active);
  }
  .message.user {
    align-self: flex-end;
    background: var(--_accent);
    color: var(--_accent-primary);
    white-space: pre-wrap;
  }
  .message.unsent {
    background: var(--_base);
    color: var(--_base-error);
    border: 1px solid var(--_base-error);
  }
  .md > * {
    margin: 0.4em 0;
    font-size: 1em;
  }
  .md > :first-child,
  .terms-text :first-child {
    margin-top: 0;
  }
  .md > :last-child {
    margin-bottom: 0;
  }
  .message :is(ul, ol) {
    padding-inline-start: 1.2em;
  }
  a {
    color: inherit;
  }
  pre {
    overflow-x: auto;
  }
  .wrap {
    white-space: pre-wrap;
  }
  .code-actions {
    display: flex;
    gap: 8px;
    font-size: 12px;
  }
  img {
    max-width: 100%;
  }
  .notice {
    align-self: center;
    margin: 4px 0;
    color: var(--_base-subtle);
    font-size: 12px;
  }
  .feedback {
    flex-direction: column;
    text-align: center;
  }
  .actions {
    justify-content: center;
    padding: 0 16px 8px;
  }
  .composer {
    padding: 12px;
    border-top: 1px solid var(--_base-border);
  }
  .composer input,
  textarea {
    flex: 1;
    width: 100%;
    min-width: 0;
    min-height: 36px;
    padding: 0 12px;
    border: 1px solid var(--_base-border);
    border-radius: var(--_input-radius);
    background: var(--_base);
  }
  ::placeholder {
    color: var(--_base-subtle);
    opacity: 1;
  }
  .banner {
    align-self: center;
    margin-bottom: 8px;
    color: var(--_base-subtle);
    font-size: 11px;
    text-align: center;
  }
  .terms {
    max-width: min(440px, 90vw);
    padding: 20px;
    border-radius: var(--_sheet-radius);
  }
  .terms::backdrop {
    background: #0006;
  }
  .terms-actions {
    justify-content: flex-end;
    margin-top: 16px;
  }
  .transcript:focus-visible {
    outline-offset: -2px;
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

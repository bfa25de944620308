import { css } from 'lit';

/**
 * Styles of the element. They read only the private `--_*` tokens (DESIGN.md rule 6); `tokenStyles` (tokens.ts) defines them
 * from the constant token list. The host resets what a page's
 * inherited styles would otherwise carry in (colour, font, line height, alignment, letter spacing).
 */
export const widgetStyles = css`
  :host {
    display: block;
    color: var(--_base-primary);
    font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
    font-size: 14px;
    font-weight: 400;
    font-style: normal;
    line-height: 1.45;
    text-align: start;
    letter-spacing: normal;
    word-spacing: normal;
    text-transform: none;
    text-indent: 0;
    white-space: normal;
    direction: ltr;
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
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
  button {
    font: inherit;
    color: inherit;
    cursor: pointer;
  }
  button:disabled {
    cursor: default;
  }
  :focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  .launcher,
  .error-state {
    display: inline-flex;
    align-items: center;
    gap: 10px;
    min-height: 48px;
    padding: 6px 18px 6px 6px;
    border: 1px solid var(--_base-border);
    border-radius: var(--_compact-sheet-radius);
    background: var(--_base);
    color: var(--_base-primary);
    box-shadow: 0 4px 16px rgb(0 0 0 / 0.12);
    font-weight: 600;
  }
  .launcher:hover:not(:disabled) {
    background: var(--_base-hover);
  }
  .launcher:active:not(:disabled) {
    background: var(--_base-active);
  }
  .launcher[aria-busy='true'] {
    color: var(--_base-subtle);
  }
  .error-state {
    border-color: var(--_base-error);
    box-shadow: 0 0 0 1px var(--_base-error), 0 4px 16px rgb(0 0 0 / 0.12);
  }
  .avatar {
    flex: none;
    display: inline-block;
    width: 36px;
    height: 36px;
    border-radius: 50%;
    background: radial-gradient(circle at 30% 30%, var(--_orb-color-2), var(--_orb-color-1) 70%);
  }
  .avatar.large {
    width: 40px;
    height: 40px;
  }
  .error-state .avatar {
    background: var(--_base-error);
  }
  .panel {
    display: flex;
    flex-direction: column;
    width: min(400px, calc(100vw - 2 * var(--_overlay-padding)));
    height: min(560px, calc(100vh - 2 * var(--_overlay-padding) - 72px));
    border: 1px solid var(--_base-border);
    border-radius: var(--_sheet-radius);
    background: var(--_base);
    color: var(--_base-primary);
    box-shadow: 0 8px 32px rgb(0 0 0 / 0.16);
    overflow: hidden;
  }
  .header {
    display: flex;
    align-items: center;
    gap: 10px;
    padding: 12px 12px 12px 16px;
    border-bottom: 1px solid var(--_base-border);
  }
  .status {
    flex: 1;
    margin: 0;
    min-width: 0;
    color: var(--_base-subtle);
    font-size: 13px;
  }
  .icon {
    width: 36px;
    height: 36px;
    border: 0;
    border-radius: 50%;
    background: transparent;
    font-size: 22px;
    line-height: 1;
  }
  .icon:hover {
    background: var(--_base-hover);
  }
  .end,
  .start,
  .send {
    min-height: 36px;
    padding: 0 16px;
    border: 1px solid var(--_accent-border);
    border-radius: var(--_button-radius);
    background: var(--_accent);
    color: var(--_accent-primary);
    font-weight: 600;
  }
  .end:hover,
  .start:hover,
  .send:hover:not(:disabled) {
    background: var(--_accent-hover);
  }
  .end:active,
  .start:active,
  .send:active:not(:disabled) {
    background: var(--_accent-active);
  }
  .send:disabled {
    border-color: var(--_base-border);
    background: var(--_base-active);
    color: var(--_base-subtle);
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
  }
  .message.agent {
    align-self: flex-start;
    background: var(--_base-active);
  }
  .message.user {
    align-self: flex-end;
    background: var(--_accent);
    color: var(--_accent-primary);
    white-space: pre-wrap;
  }
  .message.user.unsent {
    background: var(--_base);
    color: var(--_base-error);
    border: 1px solid var(--_base-error);
  }
  .message > :first-child {
    margin-top: 0;
  }
  .message > :last-child {
    margin-bottom: 0;
  }
  .message :is(h1, h2, h3, h4, h5, h6) {
    font-size: 1.05em;
    margin: 0.6em 0 0.3em;
  }
  .message :is(p, ul, ol, pre, blockquote) {
    margin: 0.4em 0;
  }
  .message :is(ul, ol) {
    padding-inline-start: 1.3em;
  }
  .message a {
    color: inherit;
    text-decoration: underline;
  }
  .message code {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 0.92em;
  }
  .message pre {
    overflow-x: auto;
  }
  .message img {
    max-width: 100%;
  }
  .notice {
    align-self: center;
    margin: 4px 0;
    color: var(--_base-subtle);
    font-size: 12px;
  }
  .notice.error {
    color: var(--_base-error);
  }
  .actions:empty {
    display: none;
  }
  .actions {
    display: flex;
    justify-content: center;
    gap: 8px;
    padding: 0 16px 8px;
  }
  .composer {
    display: flex;
    gap: 8px;
    padding: 12px;
    border-top: 1px solid var(--_base-border);
  }
  .composer input {
    flex: 1;
    min-width: 0;
    min-height: 36px;
    padding: 0 12px;
    border: 1px solid var(--_base-border);
    border-radius: var(--_input-radius);
    background: var(--_base);
    color: var(--_base-primary);
    font: inherit;
  }
  .composer input::placeholder {
    color: var(--_base-subtle);
    opacity: 1;
  }
  @media (prefers-reduced-motion: no-preference) {
    .launcher[aria-busy='true'] .avatar {
      animation: pulse 1.2s ease-in-out infinite;
    }
  }
  @keyframes pulse {
    50% {
      opacity: 0.5;
    }
  }
`;

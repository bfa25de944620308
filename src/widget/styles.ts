import { css } from 'lit';

/**
 * What every part shares: the host, the root and its placement, buttons, fields, surfaces and rows. Each part's own
 * styles sit beside it in parts/. Styles read only the private `--_*` variables (DESIGN.md rule 6): the theme tokens,
 * which each element's own adopted sheet defines (config/theme.ts `themeRule`), and the layout's own (`--_w`, `--_h`,
 * `--_launcher`), so no property of the page reaches inside but the documented `--voice-agent-*` tokens.
 * `all: initial` on the host keeps the page's inherited styles (colour, font, line height, alignment, letter spacing,
 * text transform…) out.
 */
export const sharedStyles = css`
  :host {
    all: initial;
    /* No box of its own: the widget floats (its root is fixed), so a theme's margins or max-width on the element
       (".entry-content > *") add no space to the page. A page may still give it one (the shareable page does). */
    display: contents;
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
    /* Error text: base_error, mixed with the text colour only as much as 4.5:1 on base needs (--_error-mix, decided by
       the theme controller; 30% where it could not read the colours), so it stays readable (WCAG AA). Error borders
       and marks draw base_error itself. */
    --_error-text: color-mix(in srgb, var(--_base-error), var(--_base-primary) var(--_error-mix, 30%));
    /* Subtle text (status, notices, hints, a disabled button's label): base_subtle, mixed with the text colour only as
       much as 4.5:1 on base and on base_active needs (--_subtle-mix, decided by the theme controller). */
    --_subtle-text: color-mix(in srgb, var(--_base-subtle), var(--_base-primary) var(--_subtle-mix, 0%));
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
  .panel {
    border: 1px solid var(--_base-border);
    background: var(--_base);
    color: var(--_base-primary);
    box-shadow: 0 6px 24px #0002;
  }
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
  .icon {
    flex: none;
    width: 36px;
    height: 36px;
    border: 0;
    border-radius: 50%;
    background: transparent;
    font-size: 20px;
    line-height: 1;
  }
  .secondary {
    min-height: 36px;
    padding: 0 14px;
    border: 1px solid var(--_base-border);
    border-radius: var(--_button-radius);
    background: var(--_base);
    color: var(--_base-primary);
    font-weight: 600;
  }
`;

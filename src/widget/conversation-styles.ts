import { css } from 'lit';

/**
 * What the conversation's parts share (the modal dialogs' frame, rows, the accent buttons, fields, links), loaded with
 * them (parts/conversation.ts): first of their styles, so the cascade stays as it was in one list.
 */
export const conversationSharedStyles = css`
  dialog {
    max-width: min(440px, 90vw);
    padding: 20px;
    border: 1px solid var(--_base-border);
    border-radius: var(--_sheet-radius);
    background: var(--_base);
    color: var(--_base-primary);
    box-shadow: 0 6px 24px #0002;
  }
  dialog::backdrop {
    background: #0006;
  }
  /* A focus ring readable on any theme (1.4.11, 3:1): the focus colour's outline (styles.ts) between a ring of the
     panel's background and one of its text colour, so one of them stands out from what is behind. Forced colours
     drop the shadow and keep the outline in the system's colour. */
  :focus-visible {
    box-shadow: 0 0 0 2px var(--_base), 0 0 0 6px var(--_base-primary);
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
  .primary,
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
    color: var(--_subtle-text);
  }
  select {
    border-color: var(--_base-border);
    background: var(--_base);
    color: var(--_base-primary);
  }
  select {
    padding: 0 8px;
    border-radius: var(--_dropdown-sheet-radius);
  }
  .link {
    min-width: 24px;
    min-height: 24px;
    border: 0;
    background: none;
    color: var(--_base-primary);
    text-decoration: underline;
  }
  [aria-pressed='true'] {
    background: var(--_accent);
    color: var(--_accent-primary);
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
    color: var(--_subtle-text);
    opacity: 1;
  }
  .terms-actions {
    justify-content: flex-end;
    margin-top: 16px;
  }
  /* Forced colours (Windows contrast themes; last, to win over the rules above): the system's colours, a border on
     every button (icon and link buttons have none of their own), the pressed state in the system's highlight (its
     accent background is dropped), a border around each message. */
  @media (forced-colors: active) {
    .icon,
    .link {
      border: 1px solid ButtonBorder;
    }
    [aria-pressed='true'] {
      forced-color-adjust: none;
      background: Highlight;
      color: HighlightText;
    }
    /* The bubbles' backgrounds are dropped: a border keeps each message apart. The avatar's gradient is decoration. */
    .message {
      border: 1px solid CanvasText;
    }
    .avatar {
      forced-color-adjust: none;
    }
  }
`;

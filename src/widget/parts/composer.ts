import { css, html, type TemplateResult } from 'lit';
import { MAX_TEXT_LENGTH } from '../../config/defaults.js';
import type { Labels } from '../../config/types.js';
import { elementRef, type ElementCallback } from './element-ref.js';

/** Options of `composer`. */
export interface ComposerOptions {
  texts: Labels;
  /** `input_placeholder`, `input_placeholder_text_only` or `input_placeholder_new_conversation`. */
  placeholder: string;
  /** What the visitor typed and has not sent. */
  draft: string;
  onInput: (text: string) => void;
  onSubmit: () => void;
  /** Gets the input field (focused when the panel opens). */
  inputRef: ElementCallback;
}

/**
 * The text input (`part="composer"`, `text_input_enabled`): the field (`part="input"`, named by `input_label`, at
 * most `MAX_TEXT_LENGTH` characters) and the send button (`part="send-button"`, disabled while the draft is blank).
 * Enter sends.
 */
export function composer({ texts, placeholder, draft, onInput, onSubmit, inputRef }: ComposerOptions): TemplateResult {
  const submit = (event: SubmitEvent): void => {
    event.preventDefault();
    onSubmit();
  };
  return html`<form part="composer" class="composer" @submit=${submit}>
    <input part="input" type="text" dir="auto" autocomplete="off" maxlength=${MAX_TEXT_LENGTH} aria-label=${texts.input_label} placeholder=${placeholder} .value=${draft} @input=${(e: Event) => onInput((e.target as HTMLInputElement).value)} ${elementRef(inputRef)} />
    <button part="button send-button" class="primary send" type="submit" ?disabled=${!draft.trim()}>${texts.send_message}</button>
  </form>`;
}

export const composerStyles = css`
  .composer {
    padding: 12px;
    border-top: 1px solid var(--_base-border);
  }
`;

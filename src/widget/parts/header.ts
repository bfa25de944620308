import { css, html, nothing, type TemplateResult } from 'lit';
import { languageName } from '../../config/language-name.js';
import type { Labels, WidgetConfig } from '../../config/types.js';
import { avatar } from './avatar.js';
import { elementRef, type ElementCallback } from './element-ref.js';

/** Options of `header`. */
export interface HeaderOptions {
  config: WidgetConfig;
  texts: Labels;
  /** The conversation language, selected in the language selector. */
  language: string;
  /** The languages offered (`offeredLanguages`); the selector shows when `language_selector` and more than one. */
  languages: readonly string[];
  /** True while a conversation runs: the language is fixed then. */
  active: boolean;
  /** Whether the panel can be expanded here (`expandable` and the viewport), and whether it is. */
  expandable: boolean;
  expanded: boolean;
  onLanguage: (language: string) => void;
  onExpand: () => void;
  onCollapse: () => void;
  /** Gets the avatar's frame (`.level`), which follows a call's levels (`--_mic-level`, `--_agent-level`). */
  levelTarget: ElementCallback;
}

/**
 * The panel's header (`part="header"`): the avatar, the language selector (`part="language-select"`), the expand button
 * (`part="expand-button"`, `aria-pressed`) and, unless `always_expanded`, the collapse button (`part="collapse-button"`).
 * (The status line sits with the conversation's buttons: `conversationActions`.)
 */
export function header(o: HeaderOptions): TemplateResult {
  const { config, texts } = o;
  return html`<div part="header" class="header">
    <span class="level" ${elementRef(o.levelTarget)}>${avatar({ config, size: 'large' })}</span>
    ${config.language_selector && o.languages.length > 1
      ? html`<select part="language-select" aria-label=${texts.change_language} ?disabled=${o.active} @change=${(e: Event) => o.onLanguage((e.target as HTMLSelectElement).value)}>
          ${o.languages.map((l) => html`<option value=${l} lang=${l} ?selected=${l === o.language}>${languageName(l)}</option>`)}
        </select>`
      : nothing}
    ${o.expandable
      ? html`<button part="button expand-button" class="icon" type="button" aria-label=${texts.expand} aria-pressed=${o.expanded ? 'true' : 'false'} @click=${o.onExpand}>
          <span aria-hidden="true">${o.expanded ? '⤡' : '⤢'}</span>
        </button>`
      : nothing}
    ${config.always_expanded
      ? nothing
      : html`<button part="button collapse-button" class="icon" type="button" aria-label=${texts.collapse} @click=${o.onCollapse}>
          <span aria-hidden="true">&times;</span>
        </button>`}
  </div>`;
}

/** Options of `conversationId`. */
export interface ConversationIdOptions {
  texts: Labels;
  conversationId: string;
  /** True for a moment after a copy: the button says `copied`. */
  copied: boolean;
  onCopy: () => void;
}

/** The conversation id line (`part="conversation-id"`, `show_conversation_id`) with its copy button (`part="copy-button"`, aria-live). */
export function conversationId({ texts, conversationId, copied, onCopy }: ConversationIdOptions): TemplateResult {
  return html`<p part="conversation-id" class="conversation-id">
    <span>${texts.conversation_id}: <code>${conversationId}</code></span>
    <button part="button copy-button" class="link" type="button" aria-live="polite" @click=${onCopy}>${copied ? texts.copied : texts.copy_id}</button>
  </p>`;
}

export const headerStyles = css`
  .header {
    flex-wrap: wrap;
    padding: 12px;
    border-bottom: 1px solid var(--_base-border);
  }
  /* The avatar at the start, the header's controls at the end. */
  .header > .level {
    margin-inline-end: auto;
  }
  .conversation-id {
    justify-content: space-between;
    margin: 0;
    padding: 4px 16px;
    color: var(--_subtle-text);
    font-size: 12px;
  }
`;

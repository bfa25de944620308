import { css, html, nothing, type TemplateResult } from 'lit';
import type { Labels, WidgetConfig } from '../../config/types.js';
import { elementRef, type ElementCallback } from './element-ref.js';

/** Where the "powered by" line points unless `override_link` says otherwise. */
const BANNER_LINK = 'https://www.npmjs.com/package/voice-agent-widget';

/** Options of `conversationActions`. */
export interface ConversationActionsOptions {
  texts: Labels;
  /** True while a conversation starts or runs (or a voice call asks for the microphone): the end button. */
  active: boolean;
  /** The agent takes voice (`text_only` false): the call button when none runs. */
  voice: boolean;
  /** The agent takes text (`text_only` or `supports_text_only`): the chat button when none runs. */
  text: boolean;
  /** A conversation ended before: the call button says `new_call`. */
  ended: boolean;
  /** The last call failed where asking again can help (a refused, missing or busy microphone): it says `retry`. */
  retry: boolean;
  /** The voice call's controls (mute, voice / text), shown beside the end button. */
  controls: unknown;
  /** What goes before the call button while no conversation runs (the device sheet's toggle), or `nothing`. */
  beforeCall: unknown;
  onStartCall: () => void;
  onStart: () => void;
  onEnd: () => void;
  /** Gets the row of buttons (its first button takes focus when the panel opens without a text input). */
  actionsRef: ElementCallback;
  /** `show_agent_status`: the status line is shown (else it is only announced). */
  showStatus: boolean;
  /**
   * Gets the status line's text element, empty as rendered: the panel writes the status label in it (`statusLabel`;
   * always announced, shown when `show_agent_status`) after each render and at each turn of a call, which needs no
   * render (ConversationPanel `showStatus`).
   */
  statusRef: ElementCallback;
}

/**
 * The buttons of a conversation, after the status line (`part="status"`, `role="status"`: so the call's controls are
 * the next Tab from what a screen reader last announced): before it, the call button (`part="start-call-button"`,
 * `start_call` or `new_call`) and the chat button (`part="start-button"`, `start_chat`) as the agent offers; during it,
 * the call's controls and the end button (`part="end-button"`, `end_call`). After a call failed for its microphone the
 * call button says `retry`: it asks for the microphone anew.
 */
export function conversationActions({ texts, active, voice, text, ended, retry, controls, beforeCall, onStartCall, onStart, onEnd, actionsRef, showStatus, statusRef }: ConversationActionsOptions): TemplateResult {
  return html`<div class="actions" ${elementRef(actionsRef)}>
    <p part="status" class="status" role="status" aria-live="polite" dir="auto"><span class=${showStatus ? '' : 'visually-hidden'} ${elementRef(statusRef)}></span></p>
    ${active
      ? html`${controls}<button part="button end-button" class="primary end" type="button" @click=${onEnd}>${texts.end_call}</button>`
      : html`${voice ? html`${beforeCall}<button part="button start-call-button" class="primary call" type="button" @click=${onStartCall}>${retry ? texts.retry : ended ? texts.new_call : texts.start_call}</button>` : nothing}${text
          ? html`<button part="button start-button" class="primary start" type="button" @click=${onStart}>${texts.start_chat}</button>`
          : nothing}`}
  </div>`;
}

/** The "powered by" line (`part="banner"`) unless `disable_banner`; it points to `override_link` when set. */
export function banner({ config }: { config: WidgetConfig }): TemplateResult | typeof nothing {
  return config.disable_banner
    ? nothing
    : html`<a part="banner" class="banner" href=${config.override_link || BANNER_LINK} target="_blank" rel="noopener noreferrer">voice-agent-widget</a>`;
}

export const conversationActionsStyles = css`
  .actions {
    flex-wrap: wrap;
    justify-content: center;
    padding: 0 16px 8px;
  }
  /* A line of its own above the buttons (no height while it says nothing). */
  .status {
    flex-basis: 100%;
    margin: 0;
    color: var(--_subtle-text);
    font-size: 13px;
    text-align: center;
  }
  .banner {
    align-self: center;
    margin-bottom: 8px;
    color: var(--_subtle-text);
    font-size: 11px;
    text-align: center;
  }
`;

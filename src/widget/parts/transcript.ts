import { css, html, nothing, type TemplateResult } from 'lit';
import { stripAudioTags } from '../../config/texts.js';
import type { Labels } from '../../config/types.js';
import type { LinkPolicy } from '../../markdown/link-policy.js';
import type { TranscriptEntry } from '../controllers/conversation.js';
import { agentContent, message } from './message.js';
import type { MessageScore } from './message-rating.js';

/** Options of `transcript`. */
export interface TranscriptOptions {
  /** The lines shown, in order. */
  entries: readonly TranscriptEntry[];
  texts: Labels;
  linkPolicy: LinkPolicy;
  /** The configured first message shown before a conversation starts, or null (PROTOCOL.md section 3). */
  greeting: { owner: object; text: string } | null;
  /** Remove bracketed audio tags such as `[laughs]` from agent text (`strip_audio_tags`). */
  stripTags: boolean;
  onScroll: (event: Event) => void;
  /** Like / dislike of agent messages while a conversation runs (`feedback_mode: during`), or null. */
  onRate: ((entry: TranscriptEntry, score: MessageScore) => void) | null;
  /** Sends a visitor's message that did not reach the agent again. */
  onResend: (entry: TranscriptEntry) => void;
}

/**
 * The transcript (`part="transcript"`): a `role="log"` list, so screen readers announce each new line, focusable to
 * scroll from the keyboard. Agent lines go through the markdown pipeline; user lines are bound as text.
 */
export function transcript({ entries, texts, linkPolicy, greeting, stripTags, onScroll, onRate, onResend }: TranscriptOptions): TemplateResult {
  return html`<div part="transcript" class="transcript" role="log" aria-label=${texts.transcript} tabindex="0" @scroll=${onScroll}>
    ${greeting
      ? html`<div part="message agent-message" class="message agent greeting" dir="auto">${agentContent({
          owner: greeting.owner, text: stripTags ? stripAudioTags(greeting.text) : greeting.text, linkPolicy, texts,
        })}</div>`
      : nothing}
    ${entries.map((entry) => message({ entry, texts, linkPolicy, stripTags, onRate, onResend }))}
  </div>`;
}

export const transcriptStyles = css`
  .transcript {
    flex: 1;
    overflow-y: auto;
    padding: 16px;
    display: flex;
    flex-direction: column;
    gap: 10px;
  }
  .transcript:focus-visible {
    outline-offset: -2px;
  }
`;

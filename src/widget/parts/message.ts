import { css, html, nothing, type TemplateResult } from 'lit';
import { stripAudioTags } from '../../config/conversation-texts.js';
import type { PanelLabels } from '../../config/panel-labels.js';
import type { Labels } from '../../config/types.js';
import type { LinkPolicy } from '../../config/link-policy.js';
import { IncrementalMarkdown } from '../../markdown/incremental.js';
import type { NoticeKind, TranscriptEntry } from '../controllers/conversation.js';
import { codeActions } from './code-actions.js';
import { messageRating, type MessageScore } from './message-rating.js';

/** The rendered markdown of one owner: its bubble, kept rendered, and the labels and copy of its code actions. */
interface Rendered {
  readonly markdown: IncrementalMarkdown;
  texts: Labels;
  onCopyCode: (code: string) => void;
}

/**
 * The rendered markdown of each owner under one link policy: one bubble element per entry (the agent message itself,
 * its blocks its children), which Lit moves into whichever part shows it (the panel closed and opened again, the
 * element re-added). A finished message is parsed once; a
 * streaming one re-renders only its last, growing block per delta (IncrementalMarkdown). A new policy (the
 * configuration changed) has a cache of its own.
 */
const rendered = new WeakMap<LinkPolicy, WeakMap<object, Rendered>>();

/** Options of `agentContent`. */
export interface AgentContentOptions {
  /** What the rendering is kept for: the transcript entry, or the configuration for the greeting. */
  owner: object;
  /** Agent markdown, audio tags already stripped when asked. */
  text: string;
  linkPolicy: LinkPolicy;
  texts: Labels;
  /** Copies a code block's code (a code action). */
  onCopyCode: (code: string) => void;
  /** The bubble's class beside `message agent md` (`greeting`), and whether its text is still streaming (`aria-busy`). */
  extraClass?: string;
  streaming?: boolean;
}

/**
 * An agent message (`part="message agent-message"`): agent markdown through the one pipeline (marked → DOMPurify → link
 * policy), with code actions under each code block, in the owner's bubble element, updated in place to show `text`.
 * The bubble holds the markdown's blocks directly (a plain reply is the bubble and its paragraph), so its attributes are
 * set here, not by a template.
 */
export function agentContent({ owner, text, linkPolicy, texts, onCopyCode, extraClass = '', streaming = false }: AgentContentOptions): HTMLElement {
  let cache = rendered.get(linkPolicy);
  if (!cache) rendered.set(linkPolicy, (cache = new WeakMap()));
  let view = cache.get(owner);
  if (!view) {
    const node = document.createElement('div');
    const onCopy = (code: string): void => made.onCopyCode(code);
    const made: Rendered = {
      texts,
      onCopyCode,
      markdown: new IncrementalMarkdown(node, linkPolicy, (fragment) => fragment.querySelectorAll('pre').forEach((pre) => codeActions({ pre, texts: made.texts, onCopy }))),
    };
    cache.set(owner, (view = made));
  }
  view.texts = texts;
  view.onCopyCode = onCopyCode;
  view.markdown.update(text);
  const bubble = view.markdown.container;
  bubble.className = `message agent md ${extraClass}`.trim();
  bubble.setAttribute('part', 'message agent-message');
  bubble.dir = 'auto';
  bubble.setAttribute('aria-busy', String(streaming));
  return bubble;
}

/**
 * Gives `to` (a transcript entry) the rendering kept for `from` (the greeting's owner) under `linkPolicy`, when `to`
 * has none: the service's first message takes the greeting's place in the greeting's own bubble. When it says what the
 * greeting said (the configured first message, as it mostly does), nothing is parsed, made or laid out anew as a call
 * goes live; otherwise its text replaces the greeting's in that bubble (`agentContent` updates it). Does nothing when
 * `from` has no rendering under this policy.
 */
export function handOver(linkPolicy: LinkPolicy, from: object, to: object): void {
  const cache = rendered.get(linkPolicy);
  const view = cache?.get(from);
  if (!view || cache!.has(to)) return;
  cache!.delete(from);
  cache!.set(to, view);
}

/** Options of `message`. */
export interface MessageOptions {
  entry: TranscriptEntry;
  texts: PanelLabels;
  linkPolicy: LinkPolicy;
  /** Remove bracketed audio tags such as `[laughs]` from agent text (`strip_audio_tags`). */
  stripTags: boolean;
  /** Like / dislike of agent messages while a conversation runs (`feedback_mode: during`), or null. */
  onRate: ((entry: TranscriptEntry, score: MessageScore) => void) | null;
  /** Sends a visitor's message that did not reach the agent again. */
  onResend: (entry: TranscriptEntry) => void;
  /** Copies a code block's code (a code action). */
  onCopyCode: (code: string) => void;
}

/**
 * One transcript line: an agent message (`part="message agent-message"`, markdown, `aria-busy` while it streams; its
 * like and dislike follow it, `part="rating"`, while they are offered),
 * a visitor's message (`part="message user-message"`, text; when it did not reach the agent, marked and followed by a
 * `send_again` button, `part="resend-button"`), a notice of how the
 * conversation ended (`part="notice"`) or a client tool's status (`part="notice tool-status"`).
 */
export function message({ entry, texts, linkPolicy, stripTags, onRate, onResend, onCopyCode }: MessageOptions): TemplateResult {
  if (entry.role === 'tool') return html`<p part="notice tool-status" class="notice">${texts[`agent_${entry.tool!}`]}</p>`;
  if (entry.notice === 'earlier_in_visit') return html`<p part="notice earlier-divider" class="notice divider">${texts.earlier_in_visit}</p>`;
  if (entry.role === 'notice') return html`<p part="notice" class="notice ${NOT_FAILURES.has(entry.notice!) ? '' : 'error'}">${noticeText(texts, entry.notice!)}</p>`;
  if (entry.role === 'user') {
    return html`<div part="message user-message" class="message user ${entry.delivery ?? ''}" dir="auto">
        ${entry.text}${entry.delivery === 'unsent' ? html`<span class="unsent-mark">${` (${texts.error_occurred})`}</span>` : nothing}
      </div>
      ${entry.delivery === 'unsent' ? html`<button part="button resend-button" class="link resend" type="button" @click=${() => onResend(entry)}>${texts.send_again}</button>` : nothing}`;
  }
  return html`${agentContent({ owner: entry, text: stripTags ? stripAudioTags(entry.text) : entry.text, linkPolicy, texts, onCopyCode, streaming: entry.streaming })}${
    onRate && entry.eventId !== null && !entry.streaming ? messageRating({ entry, texts, onRate }) : nothing}`;
}

/** The notices not named by a label of their own name: the end of a conversation and the switches of mode. */
const RENAMED = {
  user: 'user_ended_conversation',
  agent: 'agent_ended_conversation',
  error: 'error_occurred',
  text_mode: 'switched_to_text_mode',
  voice_mode: 'switched_to_voice_mode',
} as const;

/**
 * The words of a notice kind (a transcript notice, or a voice failure's alert): its label, of the same name unless
 * `RENAMED` says otherwise (every failure of a call has a label of its own name).
 */
export const noticeText = (texts: PanelLabels, kind: NoticeKind): string => texts[kind in RENAMED ? RENAMED[kind as keyof typeof RENAMED] : (kind as Exclude<NoticeKind, keyof typeof RENAMED>)];

/**
 * The notices that tell no failure: an end the visitor or the agent chose, the switches of mode, and a microphone that
 * moved to the default one with the call going on. Every other notice is shown in the error colour.
 */
const NOT_FAILURES: ReadonlySet<NoticeKind> = new Set(['user', 'agent', 'text_mode', 'voice_mode', 'microphone_default', 'earlier_in_visit', 'call_ended_page_changed']);

export const messageStyles = css`
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
    color: var(--_error-text);
    border: 1px solid var(--_base-error);
  }
  .md > * {
    margin: 0.4em 0;
    font-size: 1em;
  }
  .md > :first-child {
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
  img {
    max-width: 100%;
  }
  .notice {
    align-self: center;
    margin: 4px 0;
    color: var(--_subtle-text);
    font-size: 12px;
  }
  /* The divider under the messages of an earlier page of the visit: a rule on each side of its label. */
  .divider {
    align-self: stretch;
    display: flex;
    align-items: center;
    gap: 8px;
  }
  .divider::before,
  .divider::after {
    content: '';
    flex: 1;
    border-top: 1px solid currentColor;
    opacity: 0.5;
  }
  .notice.error,
  .unsent-mark {
    color: var(--_error-text);
  }
  /* A failure's notice is framed in base_error itself (its text keeps the contrast it needs, --_error-text). */
  .notice.error {
    padding: 2px 10px;
    border: 1px solid var(--_base-error);
    border-radius: 999px;
  }
  .resend {
    align-self: flex-end;
    font-size: 12px;
  }
  /* An agent message's like and dislike, right under it (the lines' gap is 10 px). */
  .rating {
    align-self: flex-start;
    margin: -6px 0 0 8px;
  }
`;

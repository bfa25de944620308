import { html, nothing, type TemplateResult } from 'lit';
import type { LinkPolicy } from '../markdown/link-policy.js';
import { renderMarkdown } from '../markdown/render.js';
import { stripAudioTags } from '../config/texts.js';
import type { TextContents } from '../config/types.js';
import type { TranscriptEntry } from './conversation-controller.js';

/**
 * The rendered markdown of an entry, kept while its text does not change: one `.md` element per entry, which Lit
 * moves into whichever part shows it (the panel closed and opened again, the element re-added), never re-parsed.
 */
const rendered = new WeakMap<object, { text: string; policy: LinkPolicy; node: HTMLElement }>();

function agentContent(owner: object, text: string, policy: LinkPolicy, texts: TextContents): HTMLElement {
  const cached = rendered.get(owner);
  if (cached && cached.text === text && cached.policy === policy) return cached.node;
  const node = document.createElement('div');
  node.className = 'md';
  node.append(renderMarkdown(text, policy));
  node.querySelectorAll('pre').forEach((pre) => addCodeActions(pre, texts));
  rendered.set(owner, { text, policy, node });
  return node;
}

/** Buttons under a code block of an agent reply: `copy` (clipboard), `download` (a .txt file), `wrap` (long lines). */
function addCodeActions(pre: HTMLPreElement, texts: TextContents): void {
  const bar = document.createElement('div');
  bar.className = 'code-actions';
  bar.part.add('code-actions');
  const code = pre.textContent ?? '';
  const actions: [string, () => unknown][] = [
    [texts.copy, () => navigator.clipboard.writeText(code).catch(() => {})],
    [
      texts.download,
      () => {
        const link = document.createElement('a');
        link.href = URL.createObjectURL(new Blob([code], { type: 'text/plain' }));
        link.download = 'code.txt';
        link.click();
        setTimeout(() => URL.revokeObjectURL(link.href));
      },
    ],
    [texts.wrap, () => pre.classList.toggle('wrap')],
  ];
  for (const [label, action] of actions) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'link';
    button.textContent = label;
    button.addEventListener('click', action);
    bar.append(button);
  }
  pre.after(bar);
}

function noticeText(entry: TranscriptEntry, texts: TextContents): string {
  if (entry.notice === 'user') return texts.user_ended_conversation;
  if (entry.notice === 'agent') return texts.agent_ended_conversation;
  return texts.error_occurred;
}

/**
 * The transcript (`part="transcript"`): a `role="log"` list, so screen readers announce each new line.
 * Agent lines go through the markdown pipeline (marked → DOMPurify → link policy); user lines are bound as text.
 * @param greeting the configured first message shown before a conversation starts, or null (PROTOCOL.md section 3)
 * @param stripTags remove bracketed audio tags such as `[laughs]` from agent text (`strip_audio_tags`)
 * @param rate like / dislike of agent messages while a conversation runs (`feedback_mode: during`), or null
 */
export function renderTranscript(
  entries: readonly TranscriptEntry[],
  texts: TextContents,
  policy: LinkPolicy,
  greeting: { owner: object; text: string } | null,
  onScroll: (event: Event) => void,
  stripTags: boolean,
  rate: ((entry: TranscriptEntry, score: 'like' | 'dislike') => void) | null,
): TemplateResult {
  const shown = (text: string): string => (stripTags ? stripAudioTags(text) : text);
  return html`<div part="transcript" class="transcript" role="log" aria-label=${texts.chatting_status} tabindex="0" @scroll=${onScroll}>
    ${greeting
      ? html`<div part="message agent-message" class="message agent greeting" dir="auto">${agentContent(greeting.owner, shown(greeting.text), policy, texts)}</div>`
      : nothing}
    ${entries.map((entry) => {
        if (entry.role === 'tool') {
          return html`<p part="notice tool-status" class="notice">${texts[`agent_${entry.tool!}`]}</p>`;
        }
        if (entry.role === 'notice') {
          return html`<p part="notice" class="notice ${entry.notice === 'error' ? 'error' : ''}">${noticeText(entry, texts)}</p>`;
        }
        if (entry.role === 'user') {
          return html`<div part="message user-message" class="message user ${entry.delivery ?? ''}" dir="auto">
            ${entry.text}${entry.delivery === 'unsent' ? html`<span class="unsent-mark"> (${texts.error_occurred})</span>` : nothing}
          </div>`;
        }
        return html`<div part="message agent-message" class="message agent" dir="auto" aria-busy=${entry.streaming ? 'true' : 'false'}>
          ${agentContent(entry, shown(entry.text), policy, texts)}
          ${rate && entry.eventId !== null && !entry.streaming
            ? html`<div part="rating" class="code-actions">
                ${(['like', 'dislike'] as const).map(
                  (score) => html`<button class="link" type="button" aria-pressed=${entry.score === score ? 'true' : 'false'} ?disabled=${!!entry.score} @click=${() => rate(entry, score)}>
                    ${score === 'like' ? '👍' : '👎'}
                  </button>`,
                )}
              </div>`
            : nothing}
        </div>`;
    })}
  </div>`;
}

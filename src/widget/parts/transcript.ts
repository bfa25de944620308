import { css, html, nothing, render, type TemplateResult } from 'lit';
import { Directive, directive } from 'lit/directive.js';
import { guard } from 'lit/directives/guard.js';
import { repeat } from 'lit/directives/repeat.js';
import { stripAudioTags } from '../../config/conversation-texts.js';
import type { PanelLabels } from '../../config/panel-labels.js';
import type { LinkPolicy } from '../../config/link-policy.js';
import type { TranscriptEntry } from '../controllers/conversation.js';
import { elementRef, type ElementCallback } from './element-ref.js';
import { agentContent, handOver, message } from './message.js';
import type { MessageScore } from './message-rating.js';

/** Options of `transcript`. */
export interface TranscriptOptions {
  /** The lines shown, in order. */
  entries: readonly TranscriptEntry[];
  texts: PanelLabels;
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
  /** Copies a code block's code (a code action). */
  onCopyCode: (code: string) => void;
  /** Gets the transcript element (the follow controller keeps the newest line in view). */
  transcriptRef: ElementCallback;
}

/**
 * The transcript (`part="transcript"`): a `role="log"` list, so screen readers announce each new line, focusable to
 * scroll from the keyboard. Agent lines go through the markdown pipeline; user lines are bound as text. Out of sight
 * and hidden from assistive technology, a sample of the text styles replies use most (`.faces`: italic, bold, both, code)
 * makes the browser load their font faces as the panel shows, not as the first reply with emphasis draws (in Chromium
 * that first draw waited 2 to 14 ms for the font service, in the middle of a call).
 *
 * Each line re-renders only when what it shows changed (see `TranscriptLines`), so a streamed delta costs the same in a
 * transcript of 10 lines as of 2,000; blocks of lines out of view skip style, layout and paint (`content-visibility`,
 * below). The lines are wrapped in one element (`.lines`), which `FollowTranscriptController` observes to follow the end.
 */
export function transcript(options: TranscriptOptions): TemplateResult {
  const { texts, linkPolicy, greeting, stripTags, onScroll, onCopyCode } = options;
  return html`<div part="transcript" class="transcript" role="log" aria-label=${texts.transcript} tabindex="0" @scroll=${onScroll} ${elementRef(options.transcriptRef)}>
    <span class="faces" aria-hidden="true"><em>a</em><strong>a</strong><strong><em>a</em></strong><code>a</code></span>
    <div class="lines">
      ${greeting
        ? agentContent({
            owner: greeting.owner, text: stripTags ? stripAudioTags(greeting.text) : greeting.text, linkPolicy, texts, onCopyCode, extraClass: 'greeting',
          })
        : nothing}
      ${transcriptLines(options)}
    </div>
  </div>`;
}

/** True once {@link prepareTranscript} has run: once per page is enough. */
let prepared = false;

/**
 * Renders a transcript as a call's first seconds change it, into an element outside the document, and drops it, once
 * per page: first the greeting alone, then the service's first message in its place (with its like and dislike) and a
 * visitor's message. Lit prepares the lines' templates (their HTML parsed into `<template>`s) and V8 compiles the code
 * that renders them here, when the panel first shows and the page is idle, not as the call goes live and the service's
 * first message comes (in Chromium, with `handOver`, a call's first 3 s went from 18.0 to 11.9 ms a second: medians
 * of ten calls, getMetrics). Nothing is laid out, announced or kept.
 * @returns the element rendered into (tests look at it), or null when it ran before or failed. Never throws.
 */
export function prepareTranscript(texts: PanelLabels, linkPolicy: LinkPolicy): HTMLElement | null {
  if (prepared) return null;
  prepared = true;
  try {
    const into = document.createElement('div');
    const owner = {};
    const options = (entries: TranscriptEntry[], greeting: TranscriptOptions['greeting']): TranscriptOptions => ({
      entries, texts, linkPolicy, greeting, stripTags: true, onScroll: () => {}, onRate: () => {}, onResend: () => {}, onCopyCode: () => {}, transcriptRef: () => {},
    });
    const text = 'Hello, *how* can I help?';
    render(transcript(options([], { owner, text })), into);
    const first: TranscriptEntry = { key: 0, role: 'agent', text, eventId: 1, streaming: false };
    render(transcript(options([first, { key: 1, role: 'user', text: 'Hi', eventId: null, streaming: false, delivery: 'sent' }], null)), into);
    return into;
  } catch {
    return null;
  }
}

/** Lines per block (`.block`): a block is the unit that skips rendering out of view and that a delta re-renders. */
const BLOCK_LINES = 32;

/** How many values of a line's state `writeLineState` writes. */
const LINE_STATE = 8;

/**
 * Writes into `state`, from `at` on, what `entry`'s line shows besides the options every line shares (`LINE_STATE`
 * values): its line re-renders when one of these changed. An entry is changed in place by the conversation controller
 * (a delta appends to `text`), so its fields are compared, not only the entry.
 * @returns whether any of them differed from what `state` held
 */
function writeLineState(state: unknown[], at: number, entry: TranscriptEntry): boolean {
  const { text, streaming, delivery, notice, tool, score, eventId } = entry;
  if (
    state[at] === entry && state[at + 1] === text && state[at + 2] === streaming && state[at + 3] === delivery &&
    state[at + 4] === notice && state[at + 5] === tool && state[at + 6] === score && state[at + 7] === eventId
  ) return false;
  state.splice(at, LINE_STATE, entry, text, streaming, delivery, notice, tool, score, eventId);
  return true;
}

/** What a block's lines showed when last rendered (the shared options, then each line's state) and its version. */
interface BlockMemo {
  readonly state: unknown[];
  version: number;
}

/** One block of the latest render: its entries are `entries[start..end)`; `version` changes when they show otherwise. */
interface Block {
  readonly key: number;
  readonly start: number;
  readonly end: number;
  readonly version: number;
}

/**
 * The transcript's lines, in blocks of up to `BLOCK_LINES` consecutive entries whose keys share `key / BLOCK_LINES`
 * (keys grow along the transcript, so an entry stays in its block while others come and go). A block, and in it a line,
 * is rendered again only when what its lines show or the shared options (labels, link policy, audio tags, whether
 * ratings are offered) changed: a delta re-renders the streaming message and no other, and the work per delta does not
 * grow with the transcript (comparing a block's lines allocates nothing). Lines are keyed by `TranscriptEntry.key` (a
 * line that moves keeps its DOM). Their buttons call the latest `onRate` / `onResend` given, though the line itself
 * was rendered with earlier options.
 */
class TranscriptLines extends Directive {
  /** The options of the latest render. */
  #latest: TranscriptOptions | null = null;
  /** The blocks of the latest render by key (their first entry's). */
  #memos = new Map<number, BlockMemo>();
  /** The greeting's owner when the latest render showed the greeting (no lines), else null. */
  #greeting: object | null = null;
  readonly #onRate = (entry: TranscriptEntry, score: MessageScore): void => this.#latest?.onRate?.(entry, score);
  readonly #onResend = (entry: TranscriptEntry): void => this.#latest?.onResend(entry);
  readonly #onCopyCode = (code: string): void => this.#latest?.onCopyCode(code);

  render(options: TranscriptOptions): unknown {
    this.#latest = options;
    const { entries, texts, linkPolicy, stripTags } = options;
    // The first line in place of the greeting: an agent's takes over the greeting's bubble (see `handOver`).
    if (this.#greeting && entries[0]?.role === 'agent') handOver(linkPolicy, this.#greeting, entries[0]);
    this.#greeting = entries.length ? null : (options.greeting?.owner ?? null);
    const onRate = options.onRate ? this.#onRate : null;
    const onResend = this.#onResend;
    const onCopyCode = this.#onCopyCode;
    const shared = [texts, linkPolicy, stripTags, onRate];
    const blocks: Block[] = [];
    const memos = new Map<number, BlockMemo>();
    for (let start = 0, end: number; start < entries.length; start = end) {
      const id = Math.floor(entries[start]!.key / BLOCK_LINES);
      for (end = start + 1; end < entries.length && Math.floor(entries[end]!.key / BLOCK_LINES) === id; end++);
      const key = entries[start]!.key;
      const memo = this.#memos.get(key) ?? { state: [], version: 0 };
      const length = shared.length + (end - start) * LINE_STATE;
      let changed = memo.state.length !== length;
      memo.state.length = length;
      for (let i = 0; i < shared.length; i++) {
        if (memo.state[i] === shared[i]) continue;
        memo.state[i] = shared[i];
        changed = true;
      }
      for (let i = start, at = shared.length; i < end; i++, at += LINE_STATE) {
        if (writeLineState(memo.state, at, entries[i]!)) changed = true;
      }
      if (changed) memo.version++;
      memos.set(key, memo);
      blocks.push({ key, start, end, version: memo.version });
    }
    this.#memos = memos;
    const line = (entry: TranscriptEntry): unknown => {
      const state = [...shared];
      writeLineState(state, shared.length, entry);
      return guard(state, () => message({ entry, texts, linkPolicy, stripTags, onRate, onResend, onCopyCode }));
    };
    return repeat(
      blocks,
      (block) => block.key,
      (block) =>
        guard([block.version], () => html`<div class="block">${repeat(entries.slice(block.start, block.end), (entry) => entry.key, line)}</div>`),
    );
  }
}

/** The lines of `options.entries` (see `TranscriptLines`); one directive per transcript element, which keeps its state. */
const transcriptLines = directive(TranscriptLines);

export const transcriptStyles = css`
  .transcript {
    flex: 1;
    /* A few lines at least, however short the panel: the panel scrolls instead (200 % zoom). */
    min-height: 8em;
    overflow-y: auto;
    /*
     * Its size is the panel's (flex), never its lines': a line added or changed is laid out and painted within it, not
     * the panel with it (traced over a call's first 6 s in Chromium, four calls each: style, layout, paint and commit
     * 14.1 ms before, 8.4 after).
     */
    contain: strict;
    padding: 16px;
    display: flex;
    flex-direction: column;
    gap: 10px;
  }
  /* Laid out (so its font faces load) but never seen: 1 px, clipped, out of the lines' flow. */
  .faces {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
    pointer-events: none;
  }
  .transcript:focus-visible {
    outline-offset: -2px;
  }
  /* The lines, in one element: the one the follow controller observes (follow-transcript.ts), in blocks. */
  .lines {
    flex: none;
    display: flex;
    flex-direction: column;
    gap: inherit;
  }
  /* A block's box reaches 6 px past its lines, so their focus rings are not clipped. */
  .block {
    display: flex;
    flex-direction: column;
    gap: inherit;
    padding: 6px;
    margin: -6px;
  }
  /*
   * A block of lines out of view skips style, layout and paint, keeping the height it had when last shown (1600 px
   * before it ever was). Not the last block: new lines go there, and the transcript follows them, so it is in view; as
   * \`content-visibility: auto\` it would be laid out at 1600 px first and again once found in view, and the browser would
   * track its intersection at every frame (a new block comes with the service's first message, as a call goes live).
   */
  .block:not(:last-child) {
    content-visibility: auto;
    contain-intrinsic-block-size: auto 1600px;
  }
`;

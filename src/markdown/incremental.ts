/**
 * Agent markdown kept rendered in one element while its text changes, re-rendering only what changed: a streamed reply
 * grows by a few words per `agent_chat_response_part` delta, and only its last block (the paragraph, list or code block
 * being written) goes through the pipeline again; the blocks before it keep their DOM (and so their layout, a text
 * selection in them, a code block's wrap toggle).
 *
 * Implements PROTOCOL.md section 2, Link policy: every block goes through the one pipeline of render.ts.
 */
import type { LinkPolicy } from '../config/link-policy.js';
import { renderMarkdown, splitMarkdown, type MarkdownBlock } from './render.js';

/** One rendered block: its source text and the nodes it put in the container (top level only). */
interface RenderedBlock {
  readonly raw: string;
  readonly nodes: readonly ChildNode[];
}

/**
 * Renders agent markdown into `container` and keeps it rendered as the text changes (`update`). The container's content
 * is always what `renderMarkdown(text, policy)` gives for the latest text (then `decorate`d); only the blocks from the
 * first one whose source differs are rendered anew. Texts that cannot be rendered block by block (see
 * `splitMarkdown`: raw HTML, reference-style link definitions) are rendered whole, on every change.
 *
 * The container belongs to this object: nothing else may change its children.
 */
export class IncrementalMarkdown {
  /** The text rendered last, or null before the first `update`. */
  #text: string | null = null;
  /** The blocks in the container, in order; null when it holds a whole rendering (not block by block). */
  #blocks: RenderedBlock[] | null = null;

  /**
   * @param container the element the rendered markdown goes in (its children are replaced)
   * @param policy the link policy of every rendering
   * @param decorate called with each freshly rendered fragment before it goes in (the code actions under code blocks)
   */
  constructor(
    readonly container: HTMLElement,
    private readonly policy: LinkPolicy,
    private readonly decorate: (fragment: DocumentFragment) => void = () => {},
  ) {}

  /**
   * Shows `markdown` (untrusted agent text) in the container.
   * @returns how many blocks went through the pipeline: 0 when the text is the one shown, 1 for a whole rendering
   * Errors: never throws (a block that fails to render makes the whole text render, which falls back to plain text).
   */
  update(markdown: string): number {
    if (markdown === this.#text) return 0;
    this.#text = markdown;
    const blocks = splitMarkdown(markdown, this.policy);
    if (blocks) {
      try {
        return this.#patch(blocks);
      } catch {
        // rendered whole below
      }
    }
    this.#blocks = null;
    const fragment = renderMarkdown(markdown, this.policy);
    this.decorate(fragment);
    this.container.replaceChildren(fragment);
    return 1;
  }

  /** Keeps the leading blocks whose source is unchanged, renders the rest; throws before touching the DOM if one fails. */
  #patch(blocks: readonly MarkdownBlock[]): number {
    const old = this.#blocks;
    let kept = 0;
    if (old) while (kept < old.length && kept < blocks.length && old[kept]!.raw === blocks[kept]!.raw) kept++;
    const fresh = blocks.slice(kept).map((block) => {
      const fragment = block.render();
      this.decorate(fragment);
      return { raw: block.raw, fragment, nodes: Array.from(fragment.childNodes) };
    });
    if (old) for (const block of old.slice(kept)) for (const node of block.nodes) node.remove();
    else this.container.replaceChildren();
    for (const { fragment } of fresh) this.container.append(fragment);
    this.#blocks = [...(old ?? []).slice(0, kept), ...fresh.map(({ raw, nodes }) => ({ raw, nodes }))];
    return fresh.length;
  }
}

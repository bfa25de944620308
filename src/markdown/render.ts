/**
 * The one pipeline that turns agent text into DOM: marked → DOMPurify → link policy.
 * This is the only module of the widget that makes HTML from strings (DESIGN.md rule 9).
 *
 * Implements PROTOCOL.md section 2, Link policy (and its sanitiser rules for agent text and `terms_html`).
 */
import DOMPurify from 'dompurify';
import type { Config, DOMPurify as DOMPurifyInstance } from 'dompurify';
import { Marked } from 'marked';
import type { Token, TokensList } from 'marked';
import { allowedUrl, type LinkPolicy } from '../config/link-policy.js';

/** The only elements the sanitiser keeps. No style, form, input, iframe, object, svg, script. */
const ALLOWED_TAGS = [
  'p', 'br', 'strong', 'em', 'b', 'i', 'u', 's', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
  'span', 'div', 'sup', 'sub',
];

/** The only attributes the sanitiser keeps. No style, class, id, srcset, event handlers, data-* or aria-*. */
const ALLOWED_ATTR = ['href', 'src', 'alt', 'title', 'colspan', 'rowspan', 'start'];

/** DOMPurify settings shared by both entry points; the fragment lives in DOMPurify's inert document. */
const PURIFY_CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
};

let purifier: DOMPurifyInstance | undefined;
let markdown: Marked | undefined;

/**
 * Our own DOMPurify instance, created on first use, so the page's DOMPurify (and its hooks) is never touched. It holds
 * {@link PURIFY_CONFIG} (`setConfig`, once): a configuration passed to each `sanitize` is parsed anew on every call,
 * its allow-lists rebuilt (measured in Chromium 156, a reply's paragraph sanitised in 1.3 ms that way, 0.6 ms with the
 * configuration set; more while the code is cold, as in a call's first reply).
 */
function getPurifier(): DOMPurifyInstance | null {
  if (typeof window === 'undefined') return null;
  if (!purifier) {
    purifier = DOMPurify(window);
    if (purifier.isSupported) purifier.setConfig(PURIFY_CONFIG);
  }
  return purifier.isSupported ? purifier : null;
}

/**
 * A bare `www.example.com` autolink gets `https://` rather than marked's `http://`, so it can pass a policy that does
 * not allow http (marked's `walkTokens`: changes the token in place).
 */
function httpsForWww(token: Token): void {
  if (token.type === 'link' && token.autolink === true && /^www\./i.test(token.raw) && token.href === `http://${token.raw}`) {
    token.href = `https://${token.raw}`;
  }
}

/**
 * Gates in front of marked's rules that JavaScriptCore (Safari) runs over the whole rest of the text each time they
 * fail (measured in WebKitGTK 2.50: 16 KB of `[` took 1.35 s in `url`; 200 KB of paragraphs 9 s in `hr`, `blockquote`,
 * `html`, `table` and `lheading`). Each gate answers "no token here" at once where its rule cannot match (it passes a
 * superset of what the rule matches); otherwise `false` hands the text to marked's own rule, which decides.
 */
const gate = (start: RegExp) => (src: string) => (start.test(src) ? false : undefined);
const underline = gate(/\n {0,3}[=-]/);
const GATES = {
  hr: gate(/^ {0,3}(?:-[ \t]*-[ \t]*-|_[ \t]*_[ \t]*_|\*[ \t]*\*[ \t]*\*)/),
  blockquote: gate(/^ {0,3}>/),
  html: gate(/^ {0,3}</),
  table: gate(/^[^\n]*\n {0,3}[|:-]/),
  // A setext heading's underline comes before the paragraph's first blank line (none: -1 >>> 0, the whole text).
  lheading: (src: string) => underline(src.slice(0, src.search(/\n[ \t]*\n/) >>> 0)),
  url: gate(/^(?:(?:mailto|xmpp):|(?:https?|ftp):\/\/|www\.|[\w.+-]+@)/i),
};

/** Our own marked instance (GFM, `breaks: true`, synchronous, with the {@link GATES}). */
function getMarked(): Marked {
  markdown ??= new Marked({ async: false, gfm: true, breaks: true, tokenizer: GATES });
  return markdown;
}

/** A text longer than this is lexed in pieces (see {@link lex}). */
const PIECE = 16384;

/**
 * marked's tokens of `markdown` (each piece's list, in order), {@link httpsForWww} applied and `visit` called on every
 * token. A text over {@link PIECE} characters is lexed in pieces of about that size, cut after a blank line outside a
 * fenced code block, so that no text costs marked's lexer more than linear time (the rules that scan the rest of the
 * text, in JavaScriptCore, scan at most a piece). At such a cut, what spans the blank line renders as two (a loose
 * list, an indented code block) and a reference-style definition serves only its own piece.
 */
function lex(markdown: string, visit: (token: Token) => void = () => {}): TokensList[] {
  const marked = getMarked();
  const pieces: string[] = [];
  let start = 0;
  let fence = '';
  for (let at = 0; at < markdown.length; ) {
    const next = (markdown.indexOf('\n', at) + 1) || markdown.length;
    const line = markdown.slice(at, next);
    const mark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (mark && (!fence || (mark[0] === fence[0] && mark.length >= fence.length))) fence = fence ? '' : mark;
    at = next;
    if (!fence && at - start >= PIECE && at < markdown.length && !line.trim()) pieces.push(markdown.slice(start, (start = at)));
  }
  pieces.push(markdown.slice(start));
  return pieces.map((piece) => {
    const tokens = marked.lexer(piece);
    marked.walkTokens(tokens, (token) => (httpsForWww(token), visit(token)));
    return tokens;
  });
}

/**
 * What keeps a text off the {@link plainParagraphs} path: a character that may open markdown, HTML, an entity or an
 * autolink (a backslash or backtick, one of `*_[]<>|~&#@`, `://`, `www.`), a control character, a line that may open a
 * block (`-`, `+`, `=`, `>`, `1.`, `1)`), white space at a line's edge, two blank lines, or a newline at either end.
 */
const NOT_PLAIN = /[\\`*_[\]<>|~&#@\0-\t\v-\x1f\x7f]|:\/\/|www\.|(?:^|\n)(?:[-+=>]|\d+[.)])|(?:^|\n)[^\S\n]|[^\S\n](?:\n|$)|\n\n\n|^\n|\n$/i;

/**
 * The paragraphs of a text that marked (GFM, `breaks: true`) would render as paragraphs of plain text and nothing else,
 * each as its lines; null for any other text. Most of what an agent says is such text: it skips marked and the
 * sanitiser (a voice reply's first rendering cost the page about 5 ms of them) and makes the same DOM.
 */
function plainParagraphs(text: string): string[][] | null {
  return text && !NOT_PLAIN.test(text) ? text.split('\n\n').map((paragraph) => paragraph.split('\n')) : null;
}

/** A paragraph as marked renders it: `<p>` with its lines between `<br>`s, then a newline (text, never parsed). */
function plainFragment(lines: readonly string[]): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const paragraph = document.createElement('p');
  lines.forEach((line, index) => (index && paragraph.append(document.createElement('br')), paragraph.append(line)));
  fragment.append(paragraph, '\n');
  return fragment;
}

/** A fragment of the current document holding just `text` as a text node (the safe fallback). */
function textFragment(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  if (text) fragment.append(document.createTextNode(text));
  return fragment;
}

/** Replaces an element by its children (keeps its text, loses the element). */
function unwrap(element: Element): void {
  element.replaceWith(...Array.from(element.childNodes));
}

/**
 * Applies the link policy to a sanitised fragment, in place, while it still lives in DOMPurify's inert document
 * (so no image starts loading before its src has passed): allowed `<a>` get their normalised href, `target="_blank"`
 * and `rel="noopener noreferrer"`; other `<a>` are replaced by their children; `<img>` keep only a src that passes
 * as a link, else become a text node of their alt text.
 */
function applyLinkPolicy(fragment: DocumentFragment, policy: LinkPolicy): void {
  for (const anchor of Array.from(fragment.querySelectorAll('a'))) {
    const href = anchor.getAttribute('href');
    const url = href === null ? null : allowedUrl(href, policy);
    if (!url) {
      unwrap(anchor);
      continue;
    }
    anchor.setAttribute('href', url.href);
    anchor.setAttribute('target', '_blank');
    anchor.setAttribute('rel', 'noopener noreferrer');
  }
  for (const image of Array.from(fragment.querySelectorAll('img'))) {
    const src = image.getAttribute('src');
    const url = src === null ? null : allowedUrl(src, policy);
    if (url) {
      image.setAttribute('src', url.href);
      continue;
    }
    const alt = image.getAttribute('alt') ?? '';
    if (alt) image.replaceWith(image.ownerDocument.createTextNode(alt));
    else image.remove();
  }
}

/** DOMPurify → link policy → import into the current document. Throws only if DOMPurify does. */
function sanitize(html: string, policy: LinkPolicy): DocumentFragment | null {
  const purify = getPurifier();
  if (!purify) return null;
  // The configuration is the instance's own (getPurifier): RETURN_DOM_FRAGMENT, so a fragment comes back.
  const clean = purify.sanitize(html) as unknown as DocumentFragment;
  applyLinkPolicy(clean, policy);
  return document.importNode(clean, true);
}

/**
 * Renders agent markdown to safe DOM: marked (GFM, `breaks: true`) → DOMPurify (allow-listed tags and attributes)
 * → link policy. Also used for every partial text while a reply streams; unfinished markdown renders safely.
 *
 * Shapes: `markdown` is untrusted text (raw HTML inside it goes through the same sanitiser and policy); the result
 * is a fresh `DocumentFragment` of the current document, safe to insert as is.
 * Errors: never throws (in a browser: it needs `document`). A non-string gives an empty fragment; if marked or the
 * sanitiser fails, the text is returned as a single text node.
 *
 * Implements PROTOCOL.md section 2, Link policy.
 */
export function renderMarkdown(markdown: string, policy: LinkPolicy): DocumentFragment {
  if (typeof markdown !== 'string') return document.createDocumentFragment();
  const plain = plainParagraphs(markdown);
  if (plain) {
    const fragment = document.createDocumentFragment();
    for (const lines of plain) fragment.append(plainFragment(lines));
    return fragment;
  }
  try {
    const html = lex(markdown).map((tokens) => getMarked().parser(tokens)).join('');
    return sanitize(html, policy) ?? textFragment(markdown);
  } catch {
    return textFragment(markdown);
  }
}

/** One top-level block of agent markdown (a paragraph, a list, a code block, a table…), see {@link splitMarkdown}. */
export interface MarkdownBlock {
  /** The block's own source text; the blocks' `raw`s joined give back the whole text. */
  readonly raw: string;
  /**
   * Renders the block through the pipeline (marked → DOMPurify → link policy) to a fresh `DocumentFragment` of the
   * current document. Throws if marked or the sanitiser does (the caller falls back to {@link renderMarkdown}).
   */
  render(): DocumentFragment;
}

/**
 * Splits agent markdown into its top-level blocks (marked's lexer, GFM with `breaks`, as {@link renderMarkdown}), so a
 * text that grows, a streamed reply, can be rendered block by block: the blocks' fragments, in order, make the same DOM
 * as `renderMarkdown(markdown, policy)`. A block keeps its rendering while its `raw`, and every `raw` before it, stay
 * the same.
 *
 * Shapes: `markdown` is untrusted text; the result lists its blocks in order (none for an empty text), or is `null`
 * when the text cannot be rendered block by block and must be rendered whole: raw HTML in it (an open tag in one block
 * may reach into the next when parsed whole; a `<` that marked escapes, in text or code, is not), reference-style link
 * definitions (`[x]: url` changes links in other blocks), a top-level run of text (which marked joins), or no sanitiser.
 * Errors: never throws; when marked fails, `null`.
 *
 * Implements PROTOCOL.md section 2, Link policy (the same pipeline as `renderMarkdown`).
 */
export function splitMarkdown(markdown: string, policy: LinkPolicy): MarkdownBlock[] | null {
  if (typeof markdown !== 'string') return null;
  const plain = plainParagraphs(markdown);
  if (plain) return plain.map((lines, index) => ({ raw: (index ? '\n\n' : '') + lines.join('\n'), render: () => plainFragment(lines) }));
  if (!getPurifier()) return null;
  try {
    let rawHtml = false;
    const pieces = lex(markdown, (token) => (rawHtml ||= token.type === 'html'));
    const tokens = pieces.flat();
    if (rawHtml || pieces.some((piece) => Object.keys(piece.links).length > 0)) return null;
    if (tokens.some((token) => token.type === 'text' || token.type === 'def')) return null;
    return tokens.map((token) => ({
      raw: token.raw,
      render: () => sanitize(getMarked().parser([token]), policy) ?? textFragment(token.raw),
    }));
  } catch {
    return null;
  }
}

/** True once {@link prepareMarkdown} has run: once per page is enough. */
let prepared = false;

/**
 * What {@link prepareMarkdown} streams through the pipeline: the blocks and inline marks agent replies use most (a
 * paragraph with emphasis, strong, a link, an autolink, code and strikethrough; a list; a heading; a quote).
 */
const PREPARATION = 'I *found* **two** answers, see [the guide](https://example.com/guide), www.example.com or `code`, ~~not this~~.\n\n'
  + '- one *item*\n- and **another**\n\n## A heading\n\n> A quote, 1. and _more_.';

/**
 * Streams a short reply ({@link PREPARATION}) through the pipeline as a streamed reply goes through it (its growing
 * text split into blocks, the last one rendered), and drops the result, once per page. A first reply costs several times
 * the next: V8 runs marked's rules (regular expressions) and functions in its interpreter until they have run a few
 * times, and DOMPurify sets up (measured in Chromium, a first streamed voice reply drew in 10 ms, the next in 6.5 ms).
 * The panel's first showing calls this when the page is idle, so that the first reply does not pay it as it streams in,
 * with the agent's voice. Never throws.
 */
export function prepareMarkdown(): void {
  if (prepared) return;
  prepared = true;
  const policy: LinkPolicy = { allowedHosts: [], includeWww: false, allowHttp: false, pageUrl: location.href };
  for (let end = 24; end < PREPARATION.length + 24; end += 24) {
    const blocks = splitMarkdown(PREPARATION.slice(0, end), policy);
    blocks?.at(-1)?.render();
  }
}

/**
 * Renders HTML that is already HTML (`terms_html`) to safe DOM: DOMPurify → link policy, the same rules as
 * {@link renderMarkdown}.
 *
 * Shapes: `html` is an untrusted HTML string; the result is a fresh `DocumentFragment` of the current document.
 * Errors: never throws. A non-string gives an empty fragment; if the sanitiser fails, the input is returned as
 * a single text node (shown, never parsed).
 *
 * Implements PROTOCOL.md section 2, Link policy.
 */
export function renderSafeHtml(html: string, policy: LinkPolicy): DocumentFragment {
  if (typeof html !== 'string') return document.createDocumentFragment();
  try {
    return sanitize(html, policy) ?? textFragment(html);
  } catch {
    return textFragment(html);
  }
}

/**
 * Serialises a fragment to its HTML string (for tests and non-DOM consumers). The fragment is not changed,
 * and serialising happens in an inert template document, so nothing loads.
 *
 * Shapes: a `DocumentFragment` (any other value gives '') → an HTML string.
 * Errors: never throws.
 *
 * Implements PROTOCOL.md section 2, Link policy (output of the rendering pipeline).
 */
export function fragmentToHtml(fragment: DocumentFragment): string {
  if (!fragment || typeof fragment !== 'object' || fragment.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return '';
  try {
    const template = document.createElement('template');
    template.content.append(template.content.ownerDocument.importNode(fragment, true));
    return template.innerHTML;
  } catch {
    return '';
  }
}


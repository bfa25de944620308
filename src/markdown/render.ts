/**
 * The one pipeline that turns agent text into DOM: marked → DOMPurify → link policy.
 * This is the only module of the widget that makes HTML from strings (DESIGN.md rule 9).
 *
 * Implements PROTOCOL.md section 2, Link policy (and its sanitiser rules for agent text and `terms_html`).
 */
import DOMPurify from 'dompurify';
import type { Config, DOMPurify as DOMPurifyInstance } from 'dompurify';
import { Marked } from 'marked';
import type { Token } from 'marked';
import { allowedUrl, type LinkPolicy } from './link-policy.js';

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

/** Our own DOMPurify instance, created on first use, so the page's DOMPurify (and its hooks) is never touched. */
function getPurifier(): DOMPurifyInstance | null {
  if (typeof window === 'undefined') return null;
  purifier ??= DOMPurify(window);
  return purifier.isSupported ? purifier : null;
}

/**
 * Our own marked instance (GFM, `breaks: true`, synchronous). A bare `www.example.com` autolink gets `https://`
 * rather than marked's `http://`, so it can pass a policy that does not allow http.
 */
function getMarked(): Marked {
  markdown ??= new Marked({
    async: false,
    gfm: true,
    breaks: true,
    walkTokens(token: Token) {
      if (token.type === 'link' && token.autolink === true && /^www\./i.test(token.raw) && token.href === `http://${token.raw}`) {
        token.href = `https://${token.raw}`;
      }
    },
  });
  return markdown;
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
  const clean = purify.sanitize(html, PURIFY_CONFIG);
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
  try {
    const html = getMarked().parse(markdown, { async: false });
    return sanitize(html, policy) ?? textFragment(markdown);
  } catch {
    return textFragment(markdown);
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


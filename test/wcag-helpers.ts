/**
 * Checks of WCAG 2.2 success criteria that axe-core cannot judge (issue 20), read from the rendered widget as a person
 * meets it: target size by 2.5.8's own rule (`targetSizeFailures`), text contrast against what is actually painted
 * behind each text (`textContrasts`, `lowContrast`), the focus ring's contrast (`focusRingContrast`), focus not
 * obscured (`focusObscured`), and text cut off or controls drawn over one another under text spacing or zoom
 * (`clippedOrOverlapping`, with `textSpacingSheet`).
 */

import { contrastRatio } from '../src/config/theme.js';

/** The widget's pointer targets: what a visitor can click or tap. */
const TARGETS = 'button, a[href], input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [tabindex]:not([tabindex="-1"])';

/** Every element of `root` matching `selector`, nested shadow roots included. */
function deepAll(root: ParentNode, selector: string): Element[] {
  const found: Element[] = [...root.querySelectorAll(selector)];
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) found.push(...deepAll(el.shadowRoot, selector));
  return found;
}

/** Shown on screen: rendered, not `visibility: hidden`, with a box. */
function shown(el: Element): boolean {
  const rect = el.getBoundingClientRect();
  return rect.width > 0 && rect.height > 0 && el.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions);
}

/**
 * 2.5.8's inline exception: a target in a sentence, sized by the line height of the text around it (a link in an agent's
 * reply): an inline box whose block holds text of its own beside the target.
 */
function inline(el: Element): boolean {
  if (getComputedStyle(el).display !== 'inline') return false;
  const block = el.parentElement!;
  return [...block.childNodes].some((n) => n !== el && (n.textContent ?? '').trim() !== '');
}

/** A target that fails WCAG 2.2 2.5.8 (Target Size, Minimum): what it is and why. */
export interface TargetSizeFailure {
  target: string;
  size: string;
  reason: string;
}

const describe = (el: Element): string => `${el.localName}${el.getAttribute('part') ? `[part="${el.getAttribute('part')}"]` : ''} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`;

/**
 * The targets of `root` that fail 2.5.8: each is at least 24 × 24 CSS px, or (the spacing exception) a 24 px circle
 * centred on its bounding box intersects no other target and no other undersized target's circle. Inline targets in a
 * sentence are exempt, as the criterion says. An empty array is a pass.
 */
export function targetSizeFailures(root: ParentNode): TargetSizeFailure[] {
  const targets = deepAll(root, TARGETS).filter((el) => shown(el) && !inline(el));
  const boxes = targets.map((el) => ({ el, rect: el.getBoundingClientRect() }));
  const small = (r: DOMRect): boolean => r.width < 23.99 || r.height < 23.99;
  const centre = (r: DOMRect): [number, number] => [r.left + r.width / 2, r.top + r.height / 2];
  /** Distance from a point to a rectangle (0 inside it). */
  const toRect = ([x, y]: [number, number], r: DOMRect): number => Math.hypot(Math.max(r.left - x, 0, x - r.right), Math.max(r.top - y, 0, y - r.bottom));
  const failures: TargetSizeFailure[] = [];
  for (const { el, rect } of boxes) {
    if (!small(rect)) continue;
    const c = centre(rect);
    for (const other of boxes) {
      if (other.el === el || other.el.contains(el) || el.contains(other.el)) continue;
      const reason = toRect(c, other.rect) < 12
        ? `its 24 px circle meets ${describe(other.el)}`
        : small(other.rect) && Math.hypot(c[0] - centre(other.rect)[0], c[1] - centre(other.rect)[1]) < 24
          ? `its 24 px circle meets the circle of ${describe(other.el)}`
          : '';
      if (reason) {
        failures.push({ target: describe(el), size: `${rect.width.toFixed(1)} × ${rect.height.toFixed(1)}`, reason });
        break;
      }
    }
  }
  return failures;
}

type Rgba = [number, number, number, number];

/** A computed colour (`rgb()`, `rgba()` or `color(srgb …)`, the forms engines compute) as 0-255 channels and alpha. */
export function parseComputedColor(value: string): Rgba | null {
  const numbers = value.match(/-?[\d.]+(?:e-?\d+)?%?/g)?.map((n) => (n.endsWith('%') ? parseFloat(n) / 100 : parseFloat(n)));
  if (!numbers) return null;
  if (value.startsWith('rgb')) return [numbers[0]!, numbers[1]!, numbers[2]!, numbers[3] ?? 1];
  if (value.startsWith('color(srgb')) return [numbers[0]! * 255, numbers[1]! * 255, numbers[2]! * 255, numbers[3] ?? 1];
  return null;
}

/** `top` painted over the opaque `bottom`. */
const over = (top: Rgba, bottom: Rgba): Rgba => [0, 1, 2].map((i) => top[i]! * top[3] + bottom[i]! * (1 - top[3])).concat(1) as Rgba;

/** WCAG 2.x contrast ratio of two opaque colours: the widget's own (config/theme.ts), on their channels. */
const contrast = (a: Rgba, b: Rgba): number => contrastRatio([a[0], a[1], a[2]], [b[0], b[1], b[2]]);

/** The parent across a shadow boundary (a shadow root's host), for the walk to what is painted behind. */
const parentOf = (el: Element): Element | null => el.parentElement ?? ((el.getRootNode() as ShadowRoot).host ?? null);

/**
 * What is painted at `from` and behind it: the background colours of `from` and its ancestors up through the host
 * page, composited over the canvas (white); their opacities multiplied; whether one of them paints an image (a
 * gradient has no one colour).
 */
function paintedBehind(from: Element | null): { color: Rgba; opacity: number; image: boolean } {
  const layers: Rgba[] = [];
  let opacity = 1;
  let image = false;
  for (let at = from; at; at = parentOf(at)) {
    const style = getComputedStyle(at);
    opacity *= parseFloat(style.opacity);
    if (style.backgroundImage !== 'none' && !style.backgroundImage.startsWith('url("data:image/svg')) image = true;
    const bg = parseComputedColor(style.backgroundColor);
    if (bg && bg[3] > 0) layers.push(bg);
  }
  let color: Rgba = [255, 255, 255, 1];
  for (const layer of layers.reverse()) color = over(layer, color);
  return { color, opacity, image };
}

/**
 * The best contrast (1.4.11) of the focused `el`'s focus indicator against what is painted around it: each colour
 * of its outline and of its box-shadow rings, against the backgrounds behind the element; 1 when it shows none.
 */
export function focusRingContrast(el: Element): number {
  const style = getComputedStyle(el);
  const colours: string[] = [];
  if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) colours.push(style.outlineColor);
  if (style.boxShadow !== 'none') colours.push(...(style.boxShadow.match(/(?:rgba?|color)\([^)]*\)/g) ?? []));
  // The ring lies outside the element's box, over its parent's.
  const behind = paintedBehind(parentOf(el)).color;
  return Math.max(1, ...colours.map((c) => parseComputedColor(c)).filter((c): c is Rgba => !!c && c[3] > 0).map((c) => contrast(over(c, behind), behind)));
}

/** One visible text of the widget and its contrast against what is painted behind it. */
export interface TextContrast {
  text: string;
  ratio: number;
  /** 4.5, or 3 for large text (24 px, or 18.66 px bold): WCAG 1.4.3. */
  needed: number;
  color: string;
  background: string;
}

/**
 * The contrast of every visible text in `root` (nested shadow roots included) against the colour painted behind it:
 * the background colours of its ancestors up through the host page to the canvas (white), composited, and the text's
 * own colour with its opacity. Texts of disabled controls count too (1.4.3 exempts them, but a visitor still reads
 * "Send" to know where to send); texts over a background image are left out (the orb has none; a gradient has no one
 * colour), as are visually hidden texts.
 */
export function textContrasts(root: ParentNode): TextContrast[] {
  const results: TextContrast[] = [];
  const walkRoots = [root, ...deepAll(root, '*').filter((e) => e.shadowRoot).map((e) => e.shadowRoot!)];
  for (const r of walkRoots) {
    const walker = document.createTreeWalker(r, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent!.trim();
      const el = node.parentElement;
      if (!text || !el || !shown(el)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const box = range.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      const style = getComputedStyle(el);
      let color = parseComputedColor(style.color);
      if (!color) throw new Error(`a colour this check cannot read: ${style.color}`);
      // Opacity of the text's element and its ancestors fades the text into what is behind it.
      const { color: behind, opacity, image } = paintedBehind(el);
      if (image) continue;
      color = over([color[0], color[1], color[2], color[3] * opacity], behind);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && parseInt(style.fontWeight, 10) >= 700);
      results.push({
        text: text.slice(0, 40),
        ratio: contrast(color, behind),
        needed: large ? 3 : 4.5,
        color: `rgb(${color.slice(0, 3).map(Math.round).join(' ')})`,
        background: `rgb(${behind.slice(0, 3).map(Math.round).join(' ')})`,
      });
    }
  }
  return results;
}

/** The texts of `root` below their needed contrast, as readable lines (an empty array is a pass). */
export const lowContrast = (root: ParentNode): string[] =>
  textContrasts(root).filter((t) => t.ratio < t.needed).map((t) => `"${t.text}" ${t.ratio.toFixed(2)}:1 < ${t.needed}:1 (${t.color} on ${t.background})`);

/** The WCAG 1.4.12 text-spacing overrides (test/fixtures/text-spacing.css), for a shadow root's adopted sheets. */
export async function textSpacingSheet(): Promise<CSSStyleSheet> {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(await (await fetch(new URL('/test/fixtures/text-spacing.css', location.href))).text());
  return sheet;
}

/** Whether an element (or an ancestor) is visually hidden the accessible way: a 1 px box that clips its content. */
const visuallyHidden = (el: Element): boolean => {
  for (let at: Element | null = el; at; at = parentOf(at)) {
    const r = at.getBoundingClientRect();
    if (r.width <= 1 && r.height <= 1 && getComputedStyle(at).overflow === 'hidden') return true;
  }
  return false;
};

/**
 * What text spacing or zoom broke in `root` (1.4.12, 1.4.4, 1.4.10): each visible text cut off by an ancestor that
 * hides its overflow (a scroll container shows it on scrolling, so it does not count), or out of the viewport's
 * width, and each pair of controls drawn over one another. An empty array is a pass.
 */
export function clippedOrOverlapping(root: ParentNode): string[] {
  const failures: string[] = [];
  const view = (root as Node).ownerDocument!.defaultView!;
  const walker = (root as Node).ownerDocument!.createTreeWalker(root as Node, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    const text = node.textContent!.trim();
    if (!text || !el || !shown(el) || visuallyHidden(el)) continue;
    const range = (root as Node).ownerDocument!.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width < 1) continue;
    if (box.left < -1 || box.right > view.innerWidth + 1) failures.push(`"${text.slice(0, 30)}" runs out of the viewport (${Math.round(box.left)}..${Math.round(box.right)} of ${view.innerWidth})`);
    // Up to the host: a box that hides its overflow must hold what is in it; a scroll container shows what it holds
    // on scrolling, so from there on it is the container's own box that must fit.
    let inner: DOMRect = box;
    for (let at = parentOf(el); at && at !== (root as ShadowRoot).host; at = parentOf(at)) {
      // A modal dialog is drawn in the top layer: nothing around it in the tree clips it.
      if (at.matches('dialog:modal')) break;
      const style = view.getComputedStyle(at);
      const edge = at.getBoundingClientRect();
      if (/auto|scroll/.test(style.overflowX + style.overflowY)) {
        inner = edge;
        continue;
      }
      const clipsX = /hidden|clip/.test(style.overflowX);
      const clipsY = /hidden|clip/.test(style.overflowY);
      if ((clipsX && (inner.left < edge.left - 1 || inner.right > edge.right + 1)) || (clipsY && (inner.top < edge.top - 1 || inner.bottom > edge.bottom + 1))) {
        failures.push(`"${text.slice(0, 30)}" cut off by ${at.localName}.${[...at.classList].join('.')}`);
        break;
      }
    }
  }
  // While a modal dialog is open, the rest is inert under it: its controls are the ones to keep apart.
  const modal = root.querySelector('dialog:modal');
  const controls = deepAll(modal ?? root, TARGETS).filter((el) => shown(el) && !visuallyHidden(el));
  /** The part of a control's box that shows: cut to the scroll containers and clipping boxes around it. */
  const visible = (el: Element): DOMRect => {
    let { left, top, right, bottom } = el.getBoundingClientRect();
    for (let at = parentOf(el); at && at !== (root as ShadowRoot).host && !at.matches('dialog:modal'); at = parentOf(at)) {
      if (view.getComputedStyle(at).overflow === 'visible') continue;
      const edge = at.getBoundingClientRect();
      [left, top, right, bottom] = [Math.max(left, edge.left), Math.max(top, edge.top), Math.min(right, edge.right), Math.min(bottom, edge.bottom)];
    }
    return new DOMRect(left, top, Math.max(0, right - left), Math.max(0, bottom - top));
  };
  for (let i = 0; i < controls.length; i++) {
    for (let j = i + 1; j < controls.length; j++) {
      const [a, b] = [controls[i]!, controls[j]!];
      if (a.contains(b) || b.contains(a)) continue;
      const [p, q] = [visible(a), visible(b)];
      const overlapX = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const overlapY = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (overlapX > 1 && overlapY > 1) failures.push(`${describe(a)} and ${describe(b)} overlap`);
    }
  }
  return failures;
}

/**
 * Why the focused `el` is hidden from view (2.4.11, Focus Not Obscured), or '' when it is not: entirely out of the
 * viewport, or covered at every one of five points (its centre and near its corners) by something else of the page
 * or the widget (the composer, the header, a sheet).
 */
export function focusObscured(el: Element): string {
  const root = el.getRootNode() as ShadowRoot | Document;
  const view = el.ownerDocument.defaultView!;
  const r = el.getBoundingClientRect();
  if (r.bottom <= 0 || r.right <= 0 || r.top >= view.innerHeight || r.left >= view.innerWidth) return 'out of the viewport';
  const points: [number, number][] = [[0.5, 0.5], [0.2, 0.2], [0.8, 0.2], [0.2, 0.8], [0.8, 0.8]].map(([fx, fy]) => [r.left + r.width * fx!, r.top + r.height * fy!]);
  const covers = points.map(([x, y]) => root.elementFromPoint(x, y));
  if (covers.some((hit) => hit && (hit === el || el.contains(hit)))) return '';
  return `covered by ${covers.map((hit) => (hit ? describe(hit) : 'nothing')).join(', ')}`;
}

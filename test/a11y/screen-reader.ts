/**
 * The widget read as a screen reader reads it (issue 20), with @guidepup/virtual-screen-reader: its virtual cursor
 * walks the accessibility tree (roles, names and states from dom-accessibility-api), it follows focus, and it speaks
 * what live regions announce ("polite: …", "assertive: …"). Its 0.33 release does not enter shadow roots from the
 * document, so it is started on the element's root inside its shadow root (the widget's tree has no nested shadow
 * root and no slot, so that is the whole widget). Its live-region phrases are the text content of what was added; it
 * does not hold back an `aria-busy` region the way some screen readers do, which makes "announced once" a stricter test.
 */
import { virtual } from '@guidepup/virtual-screen-reader/browser.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';

export { virtual };

/** What a live region announced: a phrase that starts with its politeness. */
const LIVE = /^(polite|assertive): /;

/** Starts the virtual screen reader on `el`'s tree (stop it with `virtual.stop()`). */
export async function listen(el: VoiceAgentWidget): Promise<void> {
  await virtual.start({ container: el.shadowRoot!.querySelector('.root')! });
}

/** Everything said since `listen` (the cursor's phrases and the announcements), in order. */
export const said = (): Promise<string[]> => virtual.spokenPhraseLog();

/** What live regions announced since `listen`, in order, without their politeness ("polite: Listening" → "Listening"). */
export async function announced(politeness: 'polite' | 'assertive' = 'polite'): Promise<string[]> {
  return (await said()).filter((p) => p.startsWith(`${politeness}: `)).map((p) => p.slice(politeness.length + 2));
}

/**
 * Reads the widget from the item the cursor is on to the end, phrase by phrase (the screen reader's "next" command),
 * as a visitor exploring it would: the phrases in order, each item once (the walk stops where it wraps, or after
 * `limit`).
 */
export async function readOn(limit = 120): Promise<string[]> {
  const current = (await said()).filter((p) => !LIVE.test(p)).at(-1);
  const phrases: string[] = current ? [current] : [];
  for (let i = 0; i < limit; i++) {
    const before = (await said()).length;
    await virtual.next();
    const fresh = (await said()).slice(before).filter((p) => !LIVE.test(p));
    if (!fresh.length || fresh.at(-1) === phrases[0]) break;
    phrases.push(fresh.at(-1)!);
  }
  return phrases;
}

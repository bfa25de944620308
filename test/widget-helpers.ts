/** Helpers for tests that drive the real element against the reference service (test/integration, test/component). */
import { fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { serviceUrl } from '/__service__.js';
import '../src/define.js';
import { clearWidgetConfigCache } from '../src/config/cache.js';
import type { VoiceAgentWidget } from '../src/widget/voice-agent-widget.js';
import { typeText, until } from './helpers.js';

export { serviceUrl };

/**
 * Every test of a file that uses these helpers starts as a first visit: the configuration cache (src/config/cache.ts,
 * localStorage) is emptied before each (and by each `mountWidget`), so a configuration cached earlier never stands in
 * for the service's answer (an expected loading or error state, a configuration changed through the dev switch). The
 * cache's own tests (test/integration/config-cache.test.ts) mount a returning visitor with `fixture` on purpose.
 * So is the tab's sessionStorage, where a conversation is kept for the next page (src/client/continuation.ts): the
 * tests of a file share one page, and an element of an agent an earlier test talked to would restore that conversation.
 */
beforeEach(() => {
  clearWidgetConfigCache();
  sessionStorage.clear();
});

/** The `terms_key` of the full fixture agent (`agent_demo_support`), whose terms are asked before the first conversation. */
export const FULL_TERMS_KEY = 'acme_terms_v3';

/**
 * Mounts `<voice-agent-widget>` for `agentId` against the reference service and waits until it settled (ready or error).
 * A first visit: the configuration cache is emptied first, so the configuration shown is the service's answer.
 * Unless `askTerms`, the full agent's terms count as accepted (as for a returning visitor), so tests about other
 * things are not stopped by the terms dialog; the terms tests set `askTerms`.
 */
export async function mountWidget(agentId: string, attributes: Record<string, string> = {}, askTerms = false, settleMs = 10000): Promise<VoiceAgentWidget> {
  clearWidgetConfigCache();
  sessionStorage.clear();
  if (askTerms) localStorage.removeItem(FULL_TERMS_KEY);
  else localStorage.setItem(FULL_TERMS_KEY, 'accepted');
  const el = await fixture<VoiceAgentWidget>(html`<voice-agent-widget agent-id=${agentId} server-url=${serviceUrl}></voice-agent-widget>`);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  // 10 s unless told: a read the tests make fail settles only after its tries and their backoff (seconds in WebKit on a busy machine).
  await until(() => el.shadowRoot?.querySelector('.launcher:not([disabled]), [part~="panel"], [part~="error"]'), `widget ${agentId} settled`, settleMs);
  // A panel shown at once (default_expanded, always_expanded) waits for the conversation part (loaded on intent).
  await until(() => !el.shadowRoot?.querySelector('.placeholder'), `widget ${agentId}'s conversation part loaded`);
  await el.updateComplete;
  return el;
}

/** The element's shadow root, typed. */
export const shadow = (el: VoiceAgentWidget): ShadowRoot => el.shadowRoot!;
export const $ = <T extends Element = HTMLElement>(el: VoiceAgentWidget, selector: string): T | null => shadow(el).querySelector<T>(selector);
export const $$ = <T extends Element = HTMLElement>(el: VoiceAgentWidget, selector: string): T[] => [...shadow(el).querySelectorAll<T>(selector)];

/** A button of the widget by its accessible text (its text content or aria-label). */
export function button(el: VoiceAgentWidget, name: string): HTMLButtonElement | undefined {
  return $$<HTMLButtonElement>(el, 'button').find((b) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim() === name);
}

/** Opens the panel through the launcher, as a visitor would. */
export async function openPanel(el: VoiceAgentWidget): Promise<void> {
  $<HTMLButtonElement>(el, '.launcher')!.click();
  // The panel, with its conversation part loaded (the loading state shows until then).
  await until(() => $(el, '[part~="panel"]') && !$(el, '.placeholder'), 'panel open');
  await el.updateComplete;
}

/** Types `text` into the composer with the real keyboard (Playwright) and presses Enter. */
export async function sendText(el: VoiceAgentWidget, text: string): Promise<void> {
  $<HTMLInputElement>(el, 'input[part~="input"]')!.focus();
  await typeText(text);
  await sendKeys({ press: 'Enter' });
  await el.updateComplete;
}

/** Texts of the transcript's messages, agent and user, in order. */
export function messages(el: VoiceAgentWidget): { role: string; text: string }[] {
  return $$(el, '.message').map((m) => ({ role: m.classList.contains('agent') ? 'agent' : 'user', text: m.textContent!.trim() }));
}

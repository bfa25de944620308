/**
 * Issue 3: every field of the full fixture's widget_config has a test that changes it and sees its effect.
 *
 * `EFFECTS` maps each field path (top-level keys, and `styles.*`, `text_contents.*`, `avatar.*`) to a change laid over
 * one baseline (the minimal fixture: only a first message, no terms) and a check that sees the change in the real
 * element, mounted against the reference service. Most checks are built with `sees`: the probe must give the expected
 * value with the change and a different one on a control element without it (the baseline, or the baseline plus what
 * the field needs to show at all), so no check can pass by accident.
 *
 * The voice fields are seen in real voice calls (Chromium's fake microphone plays test/fixtures/speech.wav; the reference
 * service speaks the first message): each check ends every call it starts with the End button, so no microphone stays
 * open from one check to the next.
 *
 * Fields with nothing to see in the element (those of the share page) are listed in SHARE_PAGE_ONLY with the reason;
 * their check is `readQuietly`: the service serves the value, the element's own validator keeps it (and it differs from
 * the control's), and the element mounts without a warning.
 */
import { expect, fixtureCleanup, oneEvent } from '@open-wc/testing';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import { apiKey } from '/__service__.js';
import { BOOLEAN_DEFAULTS, type WidgetConfig } from '../../src/config/types.js';
import { resolveWidgetConfig } from '../../src/config/validate.js';
import type { VoiceAgentConversationEvent } from '../../src/events/index.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';
import { captureConsole, loadFixture, until } from '../helpers.js';
import { $, $$, mountWidget, openPanel, sendText, serviceUrl } from '../widget-helpers.js';
import { parseComputedColor } from '../wcag-helpers.js';

type Widget = Record<string, unknown>;
type Probe = (el: VoiceAgentWidget) => unknown;

interface Context {
  /** console.info lines of this test so far (warnings and errors are collected and must stay empty) */
  infos: string[];
  /** Removes the previous fixture, then mounts a new one for a fresh agent with BASELINE plus `change`. */
  mount(change?: Widget, attributes?: Record<string, string>): Promise<VoiceAgentWidget>;
  /** `mount` of the entry's control configuration (BASELINE alone unless the entry says otherwise). */
  control(): Promise<VoiceAgentWidget>;
}

interface FieldCheck {
  /** What the check sees (the test's name). */
  effect: string;
  /** Laid over BASELINE (top-level keys replace). */
  change: Widget;
  /** The configuration the effect is compared with: BASELINE plus this. */
  control?: Widget;
  /** Attributes of both elements. */
  attributes?: Record<string, string>;
  check(el: VoiceAgentWidget, ctx: Context): Promise<void>;
  /** The test's timeout (ms) when the default (10 s) is too short: checks that hold voice calls. */
  timeout?: number;
}

// ---- the pending fields, with the reason they show nothing in the element ----

const SHARE_PAGE = 'read by demo/share.html, not by the element; that page needs /demo-config.json, which only the demo server serves';
/** Fields the shareable page reads, not the element. */
const SHARE_PAGE_ONLY = new Set(['shareable_page_text', 'shareable_page_show_terms']);
function pendingReason(path: string): string | null {
  if (SHARE_PAGE_ONLY.has(path)) return SHARE_PAGE;
  return null;
}

// ---- element helpers ----

const part = <T extends Element = HTMLElement>(el: VoiceAgentWidget, name: string): T | null => $<T>(el, `[part~="${name}"]`);
const text = (node: Element | null | undefined): string | null => node?.textContent?.trim() ?? null;
const attr = (node: Element | null | undefined, name: string): string | null => node?.getAttribute(name) ?? null;
const style = (node: Element | null | undefined): CSSStyleDeclaration => getComputedStyle(node!);

async function settled(el: VoiceAgentWidget): Promise<VoiceAgentWidget> {
  await until(() => $(el, '.launcher:not([disabled]), [part~="panel"], [part~="error"]'), 'widget settled');
  await el.updateComplete;
  return el;
}

async function opened(el: VoiceAgentWidget): Promise<VoiceAgentWidget> {
  if (!part(el, 'panel')) await openPanel(el);
  return el;
}

/** Opens the panel, starts a text conversation with the start button, resolves with its id once connected. */
async function startChat(el: VoiceAgentWidget): Promise<string> {
  await opened(el);
  const started = oneEvent<VoiceAgentConversationEvent>(el, 'voice-agent-conversation');
  part(el, 'start-button')!.click();
  const { conversationId } = (await started).detail;
  await el.updateComplete;
  return conversationId;
}

/** The agent's finished reply that contains `includes`. */
async function agentReply(el: VoiceAgentWidget, includes: string): Promise<HTMLElement> {
  const find = (): HTMLElement | undefined =>
    $$(el, '.message.agent').filter((m) => m.textContent!.includes(includes) && m.getAttribute('aria-busy') === 'false').at(-1);
  await until(find, `agent reply with "${includes}"`);
  return find()!;
}

/** Sends `message` and resolves with the agent's finished reply that contains `includes`. */
async function ask(el: VoiceAgentWidget, message: string, includes: string): Promise<HTMLElement> {
  await opened(el);
  await sendText(el, message);
  return agentReply(el, includes);
}

/** Texts of the links kept in the agent's reply to "show me links" (demo/service/script.mjs LINKS_REPLY). */
async function keptLinks(el: VoiceAgentWidget): Promise<string[]> {
  const reply = await ask(el, 'show me links', 'Here are some links');
  return [...reply.querySelectorAll('a')].map((a) => a.textContent!);
}

/** Opens the panel and presses the start button; resolves with the terms dialog, or null when none opened. */
async function termsDialog(el: VoiceAgentWidget): Promise<HTMLDialogElement | null> {
  await opened(el);
  part(el, 'start-button')!.click();
  await el.updateComplete;
  return part<HTMLDialogElement>(el, 'terms');
}

/** Ends a started conversation with the End button and waits for the notice. */
async function endByVisitor(el: VoiceAgentWidget): Promise<void> {
  await startChat(el);
  part(el, 'end-button')!.click();
  await until(() => part(el, 'notice'), 'ended notice');
  await el.updateComplete;
}

/** Ends a conversation, rates it 3 stars: the comment step of the rating sheet. */
async function toComment(el: VoiceAgentWidget): Promise<void> {
  await endByVisitor(el);
  await until(() => part(el, 'feedback'), 'rating sheet');
  $(el, '[part~="feedback"] button[aria-label="3 out of 5 stars"]')!.click();
  await el.updateComplete;
}

/**
 * Every text the status line shows from now on, in order: recorded on each change (a MutationObserver), so a turn of
 * well under a second is not missed between two polls. (The fake microphone's speech soon interrupts the agent: its
 * first message played for about 70 ms in the runs of this check.)
 */
function statusTexts(el: VoiceAgentWidget): (string | null)[] {
  const status = part(el, 'status')!;
  const seen: (string | null)[] = [];
  new MutationObserver(() => text(status) !== seen.at(-1) && seen.push(text(status))).observe(status, { subtree: true, childList: true, characterData: true });
  return seen;
}

/** A started voice call. */
interface Call {
  /** The listening status: the status line's first text once the call is connected (before the agent's audio plays). */
  listening: string;
  /** Every text the status line has shown since the call button was pressed (`statusTexts`). */
  statuses: (string | null)[];
}

/**
 * Opens the panel and starts a voice call with the call button: waits for the conversation (its
 * `voice-agent-conversation` event) and for the listening status, then for the call's audio to run. Whoever starts a
 * call ends it (`endCall`, or `inCall` which does both), so no microphone stays open.
 */
async function startCall(el: VoiceAgentWidget): Promise<Call> {
  await opened(el);
  const statuses = statusTexts(el);
  const started = oneEvent<VoiceAgentConversationEvent>(el, 'voice-agent-conversation');
  part(el, 'start-call-button')!.click();
  await el.updateComplete; // asking for the microphone: the status line says connecting
  const connecting = text(part(el, 'status'));
  await started;
  const connected = (): string | null | undefined => statuses.find((status) => status && status !== connecting);
  await until(connected, 'the listening status of the connected call', 8000);
  // Shown only once the call's audio runs (Firefox on an idle PulseAudio null sink connected 1.8-3.8 s before it ran).
  expect(part(el, 'root')!.classList.contains('live'), 'the call audio running when the status leaves connecting').to.equal(true);
  return { listening: connected()!, statuses };
}

/** Ends the running voice call with the End button: waits for the end of its conversation, the call released and the call button. */
async function endCall(el: VoiceAgentWidget): Promise<void> {
  const ended = oneEvent(el, 'voice-agent-conversation-end');
  part(el, 'end-button')!.click();
  await ended;
  await until(() => part(el, 'start-call-button') && !part(el, 'root')!.classList.contains('live'), 'the call released', 5000);
  await el.updateComplete;
}

/** Starts a voice call, runs `during` in it, ends the call; also when `during` fails. */
async function inCall<T>(el: VoiceAgentWidget, during: (call: Call) => Promise<T> | T): Promise<T> {
  const call = await startCall(el);
  let result: T;
  try {
    result = await during(call);
  } catch (error) {
    part(el, 'end-button')?.click();
    throw error;
  }
  await endCall(el);
  return result;
}

/** In a call: waits until the agent's first message plays; resolves with the status line's text while it played. */
async function speaking({ listening, statuses }: Call): Promise<string | null> {
  const spoken = (): string | null | undefined => statuses.slice(statuses.indexOf(listening)).find((status) => status !== listening);
  await until(() => spoken() !== undefined, 'the agent speaking its first message', 10000);
  return spoken()!;
}

/** In a call: presses the mode button (`conversation_mode_toggle_enabled`) `times` times. */
async function switchMode(el: VoiceAgentWidget, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    part(el, 'mode-button')!.click();
    await el.updateComplete;
  }
}

/** The text of the transcript's last notice. */
const lastNotice = (el: VoiceAgentWidget): string | null => text($$(el, '[part~="notice"]').at(-1));

/** Rates and sends: the thanks step. */
async function toThanks(el: VoiceAgentWidget): Promise<void> {
  await toComment(el);
  $(el, '[part~="feedback"] [type="submit"]')!.click();
  await until(() => part(el, 'feedback')?.querySelector('[role="status"]')?.textContent, 'thanks');
}

/** A socket that fails: signed-url to an agent the service does not know (the service closes it with 4004). */
const failingSocket = (): Record<string, string> => ({
  'signed-url': `${serviceUrl.replace(/^http/, 'ws')}/v1/voiceai/conversation?agent_id=no_such_agent&conversation_signature=coverage`,
});

/**
 * Sends a message over the failing socket (failingSocket attributes) and waits for the conversation's end: the error
 * notice and the message marked unsent, both drawn when the close ends it.
 */
async function failedConversation(el: VoiceAgentWidget): Promise<void> {
  await opened(el);
  await sendText(el, 'hello');
  await until(() => part(el, 'notice') && $(el, '.message.user.unsent'), 'error notice and the message marked unsent');
  await el.updateComplete;
}

/** Moves the real mouse over `node` (and presses the button when `press`). */
async function pointAt(node: Element, press = false): Promise<void> {
  const box = node.getBoundingClientRect();
  await sendMouse({ type: 'move', position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] });
  if (press) await sendMouse({ type: 'down' });
}

const launcherLabel = (el: VoiceAgentWidget): string | null => text($(el, '.launcher .label'));
const greeting = async (el: VoiceAgentWidget): Promise<HTMLElement> => (await opened(el), $<HTMLElement>(el, '.message.greeting')!);
const panel = async (el: VoiceAgentWidget): Promise<HTMLElement> => (await opened(el), part<HTMLElement>(el, 'panel')!);
const startButton = async (el: VoiceAgentWidget): Promise<HTMLElement> => (await opened(el), part<HTMLElement>(el, 'start-button')!);
const input = async (el: VoiceAgentWidget): Promise<HTMLInputElement | null> => (await opened(el), part<HTMLInputElement>(el, 'input'));
const callButton = async (el: VoiceAgentWidget): Promise<string | null> => (await opened(el), text(part(el, 'start-call-button')));
const headerAvatar = async (el: VoiceAgentWidget): Promise<HTMLElement> => (await opened(el), $<HTMLElement>(el, '.header [part~="avatar"]')!);

// ---- check builders ----

/** The probe gives `expected` with the change, and something else on the control element. */
function sees(effect: string, change: Widget, probe: Probe, expected: unknown, control?: Widget, attributes?: Record<string, string>): FieldCheck {
  return {
    effect, change, control, attributes,
    async check(el, ctx) {
      expect(await probe(el), 'with the change').to.deep.equal(expected);
      expect(await probe(await ctx.control()), 'the control (without the change) must differ').to.not.deep.equal(expected);
    },
  };
}

/**
 * A `text_contents` label: `Cov <key>` with the change, the default on the control. `extra` is what makes the label
 * show at all (on both elements); `shape` gives what the probe returns for the label (default: the label itself).
 */
function label(
  key: string, where: string, probe: (el: VoiceAgentWidget) => unknown,
  { extra = {}, attributes, shape = (v: string) => v }: { extra?: Widget; attributes?: Record<string, string>; shape?: (value: string) => unknown } = {},
): FieldCheck {
  const value = `Cov ${key}`;
  return sees(`"${value}" shows ${where}`, { ...extra, text_contents: { [key]: value } }, probe, shape(value), extra, attributes);
}
const twice = (value: string): string[] => [value, value];

/** A legacy colour or radius: wins over the default, loses to its `styles` key (PROTOCOL.md section 2). */
function legacy(field: string, styleKey: string | null, value: unknown, newer: unknown, probe: Probe, expected: string, newerExpected: string, where: string): FieldCheck {
  return {
    effect: `${where} follows ${field} (without styles)${styleKey ? `, and styles.${styleKey} wins over it` : ''}`,
    change: { [field]: value },
    async check(el, ctx) {
      expect(await probe(el), 'legacy value over the default').to.equal(expected);
      expect(await probe(await ctx.control()), 'the baseline differs').to.not.equal(expected);
      if (styleKey) expect(await probe(await ctx.mount({ [field]: value, styles: { [styleKey]: newer } })), `styles.${styleKey} wins`).to.equal(newerExpected);
    },
  };
}

/** A check that holds voice calls (1-3 s to start, up to ~8 s until the agent speaks, on both elements): more time. */
const calling = (check: FieldCheck): FieldCheck => ({ ...check, timeout: 60000 });

/** The agent's widget configuration as the service serves it. */
async function served(agentId: string): Promise<unknown> {
  const response = await fetch(`${serviceUrl}/v1/convai/agents/${agentId}/widget`);
  expect(response.status).to.equal(200);
  return (await response.json()).widget_config;
}

/**
 * For fields with nothing to see yet: the service serves the change, the element's validator keeps it without a
 * problem (and the control's value differs), and the element mounted without a warning (the runner checks that).
 */
function readQuietly(change: Widget, read: (config: WidgetConfig) => unknown, expected: unknown): FieldCheck {
  return {
    effect: `read without a warning (${JSON.stringify(change)})`,
    change,
    async check(el, ctx) {
      const problems: string[] = [];
      const resolve = async (node: VoiceAgentWidget): Promise<unknown> =>
        read(resolveWidgetConfig(await served(node.getAttribute('agent-id')!), (field, problem) => problems.push(`${field}: ${problem}`), location.href));
      expect(await resolve(el), 'the validated value').to.deep.equal(expected);
      expect(problems).to.deep.equal([]);
      expect(await resolve(await ctx.control()), 'the control differs').to.not.deep.equal(expected);
    },
  };
}

// ---- the table ----

const RED = '#ff0000';
const RED_RGB = 'rgb(255, 0, 0)';
const GREEN = '#00ff00';
const GREEN_RGB = 'rgb(0, 255, 0)';
const AVATAR = new URL('/demo/avatar.png', location.href).href;
const ACME_HOSTS = { markdown_link_allowed_hosts: [{ hostname: 'acme.example' }] };
const TWO_LANGUAGES = { language_selector: true, supported_language_overrides: ['de'] };
const TERMS = { terms_text: 'Coverage terms.' };

/** A `styles` colour seen in the computed style `property` of the node `find` gives. */
const color = (key: string, where: string, find: (el: VoiceAgentWidget) => Promise<Element | null> | Element | null, property: keyof CSSStyleDeclaration, extra: Widget = {}, attributes?: Record<string, string>): FieldCheck =>
  sees(`${where} is styles.${key}`, { ...extra, styles: { [key]: RED } }, async (el) => style(await find(el))[property], RED_RGB, extra, attributes);
/** A `styles` size (px) seen in the computed style `property` of the node `find` gives. */
const size = (key: string, where: string, find: (el: VoiceAgentWidget) => Promise<Element | null> | Element | null, property: keyof CSSStyleDeclaration, extra: Widget = {}): FieldCheck =>
  sees(`${where} is styles.${key}`, { ...extra, styles: { [key]: 7 } }, async (el) => style(await find(el))[property], '7px', extra);

/** A `styles` colour seen in the background of the node `find` gives while the real mouse is over it (and pressed when `press`). */
const pointed = (key: string, where: string, find: (el: VoiceAgentWidget) => Promise<Element | null> | Element | null, press = false): FieldCheck =>
  sees(`${where} is styles.${key}`, { styles: { [key]: RED } }, async (el) => {
    const node = (await find(el))!;
    await pointAt(node, press);
    const background = style(node).backgroundColor;
    await resetMouse();
    return background;
  }, RED_RGB);

const EFFECTS: Record<string, FieldCheck> = {
  // layout and behaviour
  variant: sees('tiny: the launcher label is visually hidden and the launcher has an aria-label', { variant: 'tiny' },
    (el) => ({ ariaLabel: attr($(el, '.launcher'), 'aria-label'), hidden: $(el, '.launcher .label')!.getBoundingClientRect().width <= 1 }),
    { ariaLabel: 'Need help?', hidden: true }),
  placement: sees('top-left: the launcher sits overlay_padding from the top-left corner', { placement: 'top-left' }, (el) => {
    const box = $(el, '.launcher')!.getBoundingClientRect();
    const padding = Number.parseFloat(style(el).getPropertyValue('--_overlay-padding'));
    return Math.abs(box.left - padding) < 1 && Math.abs(box.top - padding) < 1;
  }, true),
  expandable: {
    effect: 'always: an expand button that expands the panel; never (baseline): none',
    change: { expandable: 'always' },
    async check(el, ctx) {
      await opened(el);
      part(el, 'expand-button')!.click();
      await el.updateComplete;
      expect(part(el, 'panel')!.classList.contains('expanded')).to.equal(true);
      expect(part(await opened(await ctx.control()), 'expand-button')).to.equal(null);
    },
  },
  default_expanded: sees('the panel is open on load', { default_expanded: true }, (el) => !!part(el, 'panel'), true),
  always_expanded: sees('the panel is open with no launcher and no collapse button', { always_expanded: true },
    (el) => ({ panel: !!part(el, 'panel'), launcher: !!part(el, 'launcher'), collapse: !!part(el, 'collapse-button') }),
    { panel: true, launcher: false, collapse: false }),
  dismissible: sees('a dismiss button that removes the widget', { dismissible: true }, async (el) => {
    const dismiss = part(el, 'dismiss-button');
    dismiss?.click();
    await el.updateComplete;
    return { dismiss: !!dismiss, gone: !part(el, 'root') };
  }, { dismiss: true, gone: true }),
  show_agent_status: sees('the status line is visible in a conversation', { show_agent_status: true }, async (el) => {
    await startChat(el);
    const status = part(el, 'status')!;
    const shown = status.querySelector('span') ?? status;
    return !shown.classList.contains('visually-hidden') && shown.getBoundingClientRect().width > 1;
  }, true),
  show_conversation_id: {
    effect: 'once a conversation starts, the conversation-id part shows its id and a copy button',
    change: { show_conversation_id: true },
    async check(el, ctx) {
      const id = await startChat(el);
      expect(text(part(el, 'conversation-id')?.querySelector('code'))).to.equal(id);
      expect(text(part(el, 'copy-button'))).to.equal('Copy ID');
      const control = await ctx.control();
      await startChat(control);
      expect(part(control, 'conversation-id'), 'baseline: no id').to.equal(null);
    },
  },
  strip_audio_tags: sees('false: "[laughs]" stays in the echoed reply (the baseline strips it)', { strip_audio_tags: false },
    async (el) => text(await ask(el, 'hello [laughs] there', 'You said:'))!.includes('[laughs]'), true),
  show_avatar_when_collapsed: ((value) => sees(`${value}: the collapsed launcher ${value ? 'shows' : 'hides'} the avatar (default ${!value})`,
    { show_avatar_when_collapsed: value }, (el) => !!$(el, '.launcher [part~="avatar"]'), value))(!BOOLEAN_DEFAULTS.show_avatar_when_collapsed),
  mic_muting_enabled: calling(sees('in a call: a mute button named mute_microphone that toggles aria-pressed', { mic_muting_enabled: true },
    (el) => inCall(el, async () => {
      const name = attr(part(el, 'mute-button'), 'aria-label');
      const pressed = [attr(part(el, 'mute-button'), 'aria-pressed')];
      part(el, 'mute-button')?.click();
      await el.updateComplete;
      pressed.push(attr(part(el, 'mute-button'), 'aria-pressed'));
      return { name, pressed };
    }), { name: 'Mute microphone', pressed: ['false', 'true'] })),
  transcript_enabled: sees('false: only the last agent message is shown', { transcript_enabled: false }, async (el) => {
    await ask(el, 'hi', 'You said: hi');
    return $$(el, '.message').map((m) => (m.classList.contains('agent') ? 'agent' : 'user'));
  }, ['agent']),
  text_input_enabled: sees('false: no textbox', { text_input_enabled: false }, async (el) => !!(await input(el)), false),
  conversation_mode_toggle_enabled: calling(sees('in a call: a mode button that switches to text and back, each switch told in the transcript',
    { conversation_mode_toggle_enabled: true }, (el) => inCall(el, async () => {
      const seen: (string | null)[] = [text(part(el, 'mode-button'))];
      for (let i = 0; i < 2; i++) {
        if (!part(el, 'mode-button')) break;
        await switchMode(el, 1);
        seen.push(lastNotice(el), text(part(el, 'mode-button')));
      }
      return seen;
    }), ['Switch to text mode', 'Switched to text mode', 'Switch to voice mode', 'Switched to voice mode', 'Switch to text mode'])),
  language_selector: sees('a language select named by change_language', TWO_LANGUAGES,
    async (el) => attr(part(await opened(el), 'language-select'), 'aria-label'), 'Change language', { supported_language_overrides: ['de'] }),
  supports_text_only: sees('false (text_only false): no start_chat button and no composer', { supports_text_only: false },
    async (el) => (await opened(el), { start: !!part(el, 'start-button'), composer: !!part(el, 'composer') }), { start: false, composer: false }),
  shareable_page_show_terms: readQuietly({ shareable_page_show_terms: true }, (c) => c.shareable_page_show_terms, true),
  markdown_link_include_www: sees('false: the www.acme.example link loses its link', { ...ACME_HOSTS, markdown_link_include_www: false },
    keptLinks, ['pricing'], ACME_HOSTS),
  markdown_link_allow_http: sees('true: the http://acme.example link is kept', { ...ACME_HOSTS, markdown_link_allow_http: true },
    keptLinks, ['pricing', 'www', 'plain http'], ACME_HOSTS),
  disable_banner: sees('the "powered by" line is absent', { disable_banner: true }, async (el) => !!part(await opened(el), 'banner'), false),
  text_only: sees('true: the placeholder is input_placeholder_text_only',
    { text_only: true, text_contents: { input_placeholder: 'Plain placeholder', input_placeholder_text_only: 'Text-only placeholder' } },
    async (el) => (await input(el))?.placeholder, 'Text-only placeholder',
    { text_contents: { input_placeholder: 'Plain placeholder', input_placeholder_text_only: 'Text-only placeholder' } }),
  use_rtc: {
    effect: 'a console.info notice that the WebSocket is used',
    change: { use_rtc: true },
    async check(_el, ctx) {
      expect(ctx.infos.filter((line) => line.includes('use_rtc'))).to.have.length(1);
      await ctx.control();
      expect(ctx.infos.filter((line) => line.includes('use_rtc')), 'the baseline adds none').to.have.length(1);
    },
  },

  // avatar
  avatar: sees('the orb is a gradient of both colours', { avatar: { type: 'orb', color_1: RED, color_2: GREEN } },
    async (el) => {
      const gradient = style(await headerAvatar(el)).backgroundImage;
      return [RED_RGB, GREEN_RGB].filter((c) => gradient.includes(c));
    }, [RED_RGB, GREEN_RGB]),
  'avatar.type': sees('image (with custom_avatar_path): a picture instead of the orb', { avatar: { type: 'image' }, custom_avatar_path: AVATAR },
    async (el) => (await headerAvatar(el)).tagName, 'IMG', { custom_avatar_path: AVATAR }),
  'avatar.color_1': sees('the orb gradient holds color_1', { avatar: { color_1: RED } },
    async (el) => style(await headerAvatar(el)).backgroundImage.includes(RED_RGB), true),
  'avatar.color_2': sees('the orb gradient holds color_2', { avatar: { color_2: RED } },
    async (el) => style(await headerAvatar(el)).backgroundImage.includes(RED_RGB), true),
  custom_avatar_path: sees('with avatar.type image: <img part=avatar> with that src', { avatar: { type: 'image' }, custom_avatar_path: AVATAR },
    async (el) => (await headerAvatar(el)).getAttribute('src'), AVATAR, { avatar: { type: 'image' } }),

  // feedback (pending)
  feedback_mode: sees('during: like / dislike buttons on agent messages while the conversation runs', { feedback_mode: 'during' }, async (el) => {
    await ask(el, 'hello', 'You said: hello');
    return $$(el, '[part~="rating"] button').length > 0;
  }, true),
  end_feedback: sees('with feedback_mode end: the rating sheet after the conversation ends', { feedback_mode: 'end', end_feedback: { type: 'rating' } }, async (el) => {
    await endByVisitor(el);
    await el.updateComplete;
    return !!part(el, 'feedback');
  }, true, { feedback_mode: 'end' }),

  // legacy colours and radii
  bg_color: legacy('bg_color', 'base', RED, GREEN, async (el) => style(await panel(el)).backgroundColor, RED_RGB, GREEN_RGB, 'the panel background'),
  text_color: legacy('text_color', 'base_primary', RED, GREEN, async (el) => style(await panel(el)).color, RED_RGB, GREEN_RGB, 'the panel text colour'),
  btn_color: legacy('btn_color', 'accent', RED, GREEN, async (el) => style(await startButton(el)).backgroundColor, RED_RGB, GREEN_RGB, 'the start button background'),
  btn_text_color: legacy('btn_text_color', 'accent_primary', RED, GREEN, async (el) => style(await startButton(el)).color, RED_RGB, GREEN_RGB, 'the start button text colour'),
  border_color: legacy('border_color', 'base_border', RED, GREEN, async (el) => style(await panel(el)).borderTopColor, RED_RGB, GREEN_RGB, 'the panel border'),
  focus_color: legacy('focus_color', null, RED, null, async (el) => {
    const field = (await input(el))!;
    field.focus();
    return style(field).outlineColor;
  }, RED_RGB, '', 'the focus ring of the focused text input'),
  border_radius: legacy('border_radius', 'sheet_radius', 40, 7, async (el) => style(await panel(el)).borderTopLeftRadius, '40px', '7px', 'the panel radius'),
  btn_radius: legacy('btn_radius', 'button_radius', 3, 7, async (el) => style(await startButton(el)).borderTopLeftRadius, '3px', '7px', 'the start button radius'),

  // legacy labels
  action_text: sees('the launcher label (text_contents lacks main_label)', { action_text: 'Cov action_text' }, launcherLabel, 'Cov action_text'),
  start_call_text: sees('the call button (text_contents lacks start_call)', { start_call_text: 'Cov start_call_text' }, callButton, 'Cov start_call_text'),
  end_call_text: sees('the End button during a conversation (text_contents lacks end_call)', { end_call_text: 'Cov end_call_text' },
    async (el) => (await startChat(el), text(part(el, 'end-button'))), 'Cov end_call_text'),
  expand_text: sees('the expand button label (text_contents lacks expand)', { expandable: 'always', expand_text: 'Cov expand_text' },
    async (el) => attr(part(await opened(el), 'expand-button'), 'aria-label'), 'Cov expand_text', { expandable: 'always' }),
  listening_text: calling(sees('the status line once a call is connected (text_contents lacks listening_status)', { listening_text: 'Cov listening_text' },
    (el) => inCall(el, ({ listening }) => listening), 'Cov listening_text')),
  speaking_text: calling(sees('the status line while the agent speaks in a call (text_contents lacks speaking_status)', { speaking_text: 'Cov speaking_text' },
    (el) => inCall(el, speaking), 'Cov speaking_text')),

  // other texts
  shareable_page_text: readQuietly({ shareable_page_text: 'Talk to the coverage agent' }, (c) => c.shareable_page_text, 'Talk to the coverage agent'),
  terms_text: sees('the terms dialog shows the text, as text', { terms_text: 'Plain <b>terms</b>.' }, async (el) => {
    const dialog = await termsDialog(el);
    return dialog && { text: text(dialog.querySelector('.terms-text')), bold: !!dialog.querySelector('b') };
  }, { text: 'Plain <b>terms</b>.', bold: false }),
  terms_html: sees('the terms dialog shows the sanitised HTML', {
    terms_html: '<p>Read <strong>these</strong> <a href="https://evil.example/x" style="position:fixed;inset:0">terms</a><script>window.pwned = 1</script>.</p>',
  }, async (el) => {
    const dialog = await termsDialog(el);
    return dialog && {
      text: text(dialog.querySelector('.terms-text')), strong: text(dialog.querySelector('strong')),
      unsafe: dialog.querySelectorAll('script, [style], a[href]').length,
    };
  }, { text: 'Read these terms.', strong: 'these', unsafe: 0 }),
  terms_key: ((change: Widget): FieldCheck => ({
    effect: 'acceptance is stored under the key in localStorage, and a returning visitor is not asked again',
    change,
    control: TERMS,
    async check(el, ctx) {
      expect(localStorage.getItem('coverage_terms_v1')).to.equal(null);
      const dialog = await termsDialog(el);
      expect(dialog, 'asked before the first conversation').to.exist;
      dialog!.querySelector<HTMLElement>('[part~="accept-terms-button"]')!.click();
      await until(() => part(el, 'end-button'), 'conversation started after accepting');
      expect(localStorage.getItem('coverage_terms_v1')).to.equal('accepted');
      expect(await termsDialog(await ctx.mount(change)), 'a returning visitor is not asked again').to.equal(null);
      localStorage.removeItem('coverage_terms_v1');
      const control = await ctx.control();
      const keys = Object.keys(localStorage).sort();
      (await termsDialog(control))!.querySelector<HTMLElement>('[part~="accept-terms-button"]')!.click();
      await until(() => part(control, 'end-button'), 'control conversation started after accepting');
      expect(Object.keys(localStorage).sort(), 'without terms_key nothing is stored').to.deep.equal(keys);
    },
  }))({ ...TERMS, terms_key: 'coverage_terms_v1' }),
  override_link: sees('the banner link points there', { override_link: 'https://acme.example/agents' },
    async (el) => attr(part(await opened(el), 'banner'), 'href'), 'https://acme.example/agents'),
  first_message: sees('the greeting text', { first_message: 'Greetings from the coverage test.' }, async (el) => text(await greeting(el)), 'Greetings from the coverage test.'),
  language: sees('ar: the root has lang="ar" and the panel dir="rtl"', { language: 'ar' },
    async (el) => [attr(part(el, 'root'), 'lang'), attr(part(await opened(el), 'panel'), 'dir')], ['ar', 'rtl']),
  supported_language_overrides: sees('the selector offers them; choosing Arabic turns the root rtl',
    { language_selector: true, supported_language_overrides: ['de', 'ar'] }, async (el) => {
      const select = part<HTMLSelectElement>(await opened(el), 'language-select');
      if (!select) return null;
      const offered = [...select.options].map((o) => o.value);
      select.value = 'ar';
      select.dispatchEvent(new Event('change'));
      await el.updateComplete;
      return { offered, lang: attr(part(el, 'root'), 'lang'), dir: attr(part(el, 'panel'), 'dir') };
    }, { offered: ['en', 'de', 'ar'], lang: 'ar', dir: 'rtl' }, { language_selector: true }),
  language_presets: sees("the language's preset gives the labels and the first message",
    { language: 'de', language_presets: { de: { first_message: 'Hallo aus dem Test!', text_contents: { main_label: 'Brauchen Sie Hilfe?' } } } },
    async (el) => [launcherLabel(el), text(await greeting(el))], ['Brauchen Sie Hilfe?', 'Hallo aus dem Test!'], { language: 'de' }),
  // The control lists another host rather than none: an empty list allows the page's own origin, and the reply's
  // <img src="x"> would then load (a 404 on the test server).
  markdown_link_allowed_hosts: sees('acme.example: its links (and www) in the reply are kept, not those of another listed host',
    ACME_HOSTS, keptLinks, ['pricing', 'www'], { markdown_link_allowed_hosts: [{ hostname: 'docs.acme.example' }] }),
  text_contents: sees('text_contents wins over the legacy field', { text_contents: { main_label: 'From text_contents' }, action_text: 'From action_text' },
    launcherLabel, 'From text_contents', { action_text: 'From action_text' }),
  styles: sees('styles win over the legacy colours', { styles: { accent: RED }, btn_color: GREEN },
    async (el) => style(await startButton(el)).backgroundColor, RED_RGB, { btn_color: GREEN }),

  // styles
  'styles.base': color('base', 'the panel background', panel, 'backgroundColor'),
  'styles.base_hover': pointed('base_hover', 'the launcher background under the mouse', (el) => $(el, '.launcher')),
  'styles.base_active': color('base_active', 'the agent bubble background', greeting, 'backgroundColor'),
  'styles.base_border': color('base_border', 'the panel border', panel, 'borderTopColor'),
  // A subtle colour that reads at 4.5:1 where subtle text sits (red would be mixed with the text colour to get there),
  // drawn through color-mix (computed as color(srgb …)): compared as 0-255 channels.
  'styles.base_subtle': sees('the banner text colour is styles.base_subtle', { styles: { base_subtle: '#b91c1c' } },
    async (el) => parseComputedColor(style(part(await opened(el), 'banner')).color)!.map(Math.round), [185, 28, 28, 1]),
  'styles.base_primary': color('base_primary', 'the panel text colour', panel, 'color'),
  // Its text is base_error, mixed towards the text colour only as much as 4.5:1 needs (WCAG AA); the border is base_error itself
  // (as the frames of error notices, voice failures and the failed panel are).
  'styles.base_error': color('base_error', 'the border of a message that was not sent', async (el) => {
    await failedConversation(el);
    return $(el, '.message.user.unsent');
  }, 'borderTopColor', {}, failingSocket()),
  'styles.accent': color('accent', 'the start button background', startButton, 'backgroundColor'),
  'styles.accent_hover': pointed('accent_hover', 'the start button background under the mouse', startButton),
  'styles.accent_active': pointed('accent_active', 'the start button background while pressed', startButton, true),
  'styles.accent_border': color('accent_border', 'the start button border', startButton, 'borderTopColor'),
  'styles.accent_subtle': calling(sees('the muted microphone button background in a call is styles.accent_subtle',
    { mic_muting_enabled: true, styles: { accent_subtle: RED } },
    (el) => inCall(el, async () => {
      part(el, 'mute-button')!.click();
      await el.updateComplete;
      return style(part(el, 'mute-button')).backgroundColor;
    }), RED_RGB, { mic_muting_enabled: true })),
  'styles.accent_primary': color('accent_primary', 'the start button text colour', startButton, 'color'),
  'styles.overlay_padding': sees("the launcher's distance from the right and bottom viewport edges", { styles: { overlay_padding: 60 } }, (el) => {
    const box = $(el, '.launcher')!.getBoundingClientRect();
    return [Math.round(innerWidth - box.right), Math.round(innerHeight - box.bottom)];
  }, [60, 60]),
  'styles.button_radius': size('button_radius', 'the start button radius', startButton, 'borderTopLeftRadius'),
  'styles.input_radius': size('input_radius', 'the text input radius', input, 'borderTopLeftRadius'),
  'styles.bubble_radius': size('bubble_radius', 'the agent bubble radius', greeting, 'borderTopLeftRadius'),
  'styles.sheet_radius': size('sheet_radius', 'the panel radius', panel, 'borderTopLeftRadius'),
  'styles.compact_sheet_radius': size('compact_sheet_radius', 'the launcher radius (compact)', (el) => $(el, '.launcher'), 'borderTopLeftRadius'),
  'styles.dropdown_sheet_radius': size('dropdown_sheet_radius', 'the language select radius', async (el) => part(await opened(el), 'language-select'), 'borderTopLeftRadius', TWO_LANGUAGES),

  // text_contents labels shown today
  'text_contents.main_label': label('main_label', 'on the launcher and as the panel name',
    async (el) => [launcherLabel(el), attr(await panel(el), 'aria-label')], { shape: twice }),
  'text_contents.start_call': label('start_call', 'on the call button', callButton),
  'text_contents.new_call': calling(label('new_call', 'on the call button after a call ended', async (el) => (await inCall(el, () => {}), callButton(el)))),
  'text_contents.start_chat': label('start_chat', 'on the start button', async (el) => text(await startButton(el))),
  'text_contents.end_call': label('end_call', 'on the End button', async (el) => (await startChat(el), text(part(el, 'end-button')))),
  'text_contents.change_language': label('change_language', 'as the language select name',
    async (el) => attr(part(await opened(el), 'language-select'), 'aria-label'), { extra: TWO_LANGUAGES }),
  'text_contents.collapse': label('collapse', 'on the open launcher and the collapse button',
    async (el) => (await opened(el), [launcherLabel(el), attr(part(el, 'collapse-button'), 'aria-label')]), { shape: twice }),
  'text_contents.expand': label('expand', 'as the expand button name',
    async (el) => attr(part(await opened(el), 'expand-button'), 'aria-label'), { extra: { expandable: 'always' } }),
  'text_contents.copied': label('copied', 'on the copy button after copying', async (el) => {
    await startChat(el);
    // The headless page may not write the real clipboard: a stub records what the element copies.
    const clipboard = navigator.clipboard;
    let copied = '';
    Object.defineProperty(clipboard, 'writeText', { configurable: true, value: async (value: string) => void (copied = value) });
    try {
      part(el, 'copy-button')!.click();
      await until(() => copied, 'copied');
      expect(copied, 'the conversation id is what is copied').to.match(/^conv_/);
      await el.updateComplete;
      return text(part(el, 'copy-button'));
    } finally {
      delete (clipboard as unknown as Record<string, unknown>)['writeText'];
    }
  }, { extra: { show_conversation_id: true } }),
  'text_contents.accept_terms': label('accept_terms', 'on the terms accept button',
    async (el) => text((await termsDialog(el))?.querySelector('[part~="accept-terms-button"]')), { extra: TERMS }),
  'text_contents.dismiss_terms': label('dismiss_terms', 'on the terms decline button (not on the launcher\'s dismiss button)',
    async (el) => [attr(part(el, 'dismiss-button'), 'aria-label'), text((await termsDialog(el))?.querySelector('[part~="decline-terms-button"]'))],
    { extra: { ...TERMS, dismissible: true }, shape: (value) => ['Dismiss', value] }),
  'text_contents.connecting_status': label('connecting_status', 'in the status line while connecting', async (el) => {
    await opened(el);
    part(el, 'start-button')!.click();
    await el.updateComplete; // the socket cannot have answered within this microtask
    return text(part(el, 'status'));
  }),
  'text_contents.chatting_status': label('chatting_status', 'in the status line once a text conversation is connected (not as the transcript name)', async (el) => {
    const name = attr(part(await opened(el), 'transcript'), 'aria-label');
    await startChat(el);
    return [name, text(part(el, 'status'))];
  }, { shape: (value) => ['Transcript', value] }),
  // the status line and the controls of a voice call
  'text_contents.listening_status': calling(label('listening_status', 'in the status line once a call is connected',
    (el) => inCall(el, ({ listening }) => listening))),
  'text_contents.speaking_status': calling(label('speaking_status', 'in the status line while the agent speaks its first message in a call',
    (el) => inCall(el, speaking))),
  'text_contents.mute_microphone': calling(label('mute_microphone', 'as the mute button name in a call',
    (el) => inCall(el, () => attr(part(el, 'mute-button'), 'aria-label')), { extra: { mic_muting_enabled: true } })),
  ...Object.fromEntries(
    (
      [
        ['text_mode', 'on the mode button in a call', 0, (el: VoiceAgentWidget) => text(part(el, 'mode-button'))],
        ['voice_mode', 'on the mode button in a call switched to text', 1, (el: VoiceAgentWidget) => text(part(el, 'mode-button'))],
        ['switched_to_text_mode', 'in the transcript notice after switching a call to text', 1, lastNotice],
        ['switched_to_voice_mode', 'in the transcript notice after switching a call to text and back', 2, lastNotice],
      ] as const
    ).map(([key, where, switches, probe]) => [
      `text_contents.${key}`,
      calling(label(key, where, (el) => inCall(el, async () => (await switchMode(el, switches), probe(el))), { extra: { conversation_mode_toggle_enabled: true } })),
    ]),
  ),
  'text_contents.input_label': label('input_label', 'as the text input name', async (el) => attr(await input(el), 'aria-label')),
  'text_contents.input_placeholder': label('input_placeholder', 'as the placeholder', async (el) => (await input(el))?.placeholder),
  'text_contents.input_placeholder_text_only': label('input_placeholder_text_only', 'as the placeholder of a text_only agent',
    async (el) => (await input(el))?.placeholder, { extra: { text_only: true } }),
  'text_contents.input_placeholder_new_conversation': label('input_placeholder_new_conversation', 'as the placeholder after a conversation ended',
    async (el) => (await endByVisitor(el), part<HTMLInputElement>(el, 'input')?.placeholder)),
  'text_contents.user_ended_conversation': label('user_ended_conversation', 'in the notice after End',
    async (el) => (await endByVisitor(el), text(part(el, 'notice')))),
  'text_contents.agent_ended_conversation': label('agent_ended_conversation', 'in the notice after the agent said goodbye', async (el) => {
    await ask(el, 'bye', 'Goodbye!');
    await until(() => part(el, 'notice'), 'agent ended notice');
    return text(part(el, 'notice'));
  }),
  'text_contents.conversation_id': label('conversation_id', 'before the id on the conversation-id line',
    async (el) => (await startChat(el), text(part(el, 'conversation-id')?.querySelector('span'))?.split(':')[0]), { extra: { show_conversation_id: true } }),
  'text_contents.error_occurred': label('error_occurred', 'in the error notice and on the unsent message',
    async (el) => (await failedConversation(el), [text(part(el, 'notice')), text($(el, '.message.user.unsent'))]),
    { attributes: failingSocket(), shape: (v) => [v, `hello (${v})`] }),
  'text_contents.copy_id': label('copy_id', 'on the copy button', async (el) => (await startChat(el), text(part(el, 'copy-button'))), { extra: { show_conversation_id: true } }),
  // the end-of-call rating sheet (feedback_mode end, end_feedback rating): stars, comment, thanks
  ...Object.fromEntries(
    (
      [
        ['initiate_feedback', 'as the rating question', async (el: VoiceAgentWidget) => (await endByVisitor(el), await el.updateComplete, text(part(el, 'feedback')?.querySelector('p')))],
        ['request_follow_up_feedback', 'over the comment box', async (el: VoiceAgentWidget) => (await toComment(el), text(part(el, 'feedback')?.querySelector('label')))],
        ['follow_up_feedback_placeholder', 'in the comment box', async (el: VoiceAgentWidget) => (await toComment(el), attr(part(el, 'feedback')?.querySelector('textarea'), 'placeholder'))],
        ['go_back', 'on the back button', async (el: VoiceAgentWidget) => (await toComment(el), text(part(el, 'feedback')?.querySelector('.secondary')))],
        ['submit', 'on the submit button', async (el: VoiceAgentWidget) => (await toComment(el), text(part(el, 'feedback')?.querySelector('[type="submit"]')))],
        ['thanks_for_feedback', 'after sending', async (el: VoiceAgentWidget) => (await toThanks(el), text(part(el, 'feedback')?.querySelector('[role="status"]')))],
        ['thanks_for_feedback_details', 'after sending', async (el: VoiceAgentWidget) => (await toThanks(el), text(part(el, 'feedback')?.querySelectorAll('p')[1]))],
      ] as const
    ).map(([key, where, probe]) => [`text_contents.${key}`, label(key, where, probe, { extra: { feedback_mode: 'end', end_feedback: { type: 'rating' } } })]),
  ),
  'text_contents.send_message': label('send_message', 'on the send button', async (el) => (await opened(el), text(part(el, 'send-button')))),
  // the buttons under a code block of an agent reply (the scripted "markdown" reply holds one)
  ...Object.fromEntries(
    (['copy', 'download', 'wrap'] as const).map((key, index) => [
      `text_contents.${key}`,
      label(key, `on the code block's ${key} button`, async (el) => {
        await ask(el, 'some markdown', 'markdown sample');
        return text(part(el, 'code-actions')?.querySelectorAll('button')[index]);
      }),
    ]),
  ),
  // the client tool status line: the page's tool answers (done) or throws (error); working shows while it runs
  'text_contents.agent_done': label('agent_done', 'on the tool status line once the page answered', async (el) => {
    el.clientToolHandler = async () => 'noon';
    await ask(el, 'what time is it', 'The page answered');
    return text(part(el, 'tool-status'));
  }),
  'text_contents.agent_error': label('agent_error', 'on the tool status line when the page tool fails', async (el) => {
    el.clientToolHandler = async () => Promise.reject(new Error('no clock'));
    await ask(el, 'what time is it', 'The tool failed');
    return text(part(el, 'tool-status'));
  }),
  'text_contents.agent_working': label('agent_working', 'on the tool status line while the page tool runs', async (el) => {
    let finish: (value: string) => void = () => {};
    el.clientToolHandler = () => new Promise<string>((resolve) => (finish = resolve));
    await opened(el);
    await sendText(el, 'what time is it');
    await until(() => part(el, 'tool-status'), 'tool status shown');
    const shown = text(part(el, 'tool-status'));
    finish('noon');
    await agentReply(el, 'The page answered');
    return shown;
  }),
};

/** Element bugs found by these checks: their tests are skipped (it.skip) and reported. */
const ELEMENT_BUGS: Record<string, string> = {};

// ---- the tests ----

/** Every field path of a widget_config: top-level keys, and the keys of styles, text_contents and avatar. */
function fieldPaths(config: Record<string, unknown>): string[] {
  const paths: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    paths.push(key);
    if (['styles', 'text_contents', 'avatar'].includes(key)) for (const inner of Object.keys(value as object)) paths.push(`${key}.${inner}`);
  }
  return paths;
}

describe('widget configuration field coverage (issue 3)', () => {
  let baseline: Widget;
  const agents = new Map<string, string>();

  /** A fresh agent (cached per configuration for controls) with BASELINE plus `change`; first_message, language and text_only also in conversation_config. */
  async function agentFor(change: Widget, fresh: boolean): Promise<string> {
    const widget = { ...baseline, ...change };
    const key = JSON.stringify(widget);
    if (!fresh && agents.has(key)) return agents.get(key)!;
    const agent: Record<string, unknown> = {};
    if (typeof widget['first_message'] === 'string') agent['first_message'] = widget['first_message'];
    if (typeof widget['language'] === 'string') agent['language'] = widget['language'];
    const conversationConfig: Record<string, unknown> = { agent };
    if (typeof widget['text_only'] === 'boolean') conversationConfig['conversation'] = { text_only: widget['text_only'] };
    const response = await fetch(`${serviceUrl}/v1/convai/agents/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ name: 'field coverage', conversation_config: conversationConfig, platform_settings: { widget } }),
    });
    expect(response.status, await response.clone().text()).to.equal(200);
    const { agent_id: agentId } = await response.json();
    agents.set(key, agentId);
    return agentId;
  }

  before(async () => {
    baseline = (await loadFixture('minimal')).widget_config;
  });
  beforeEach(() => localStorage.clear());
  afterEach(async () => {
    localStorage.clear();
    await resetMouse();
  });

  it('covers every field of the full fixture', async () => {
    const paths = fieldPaths((await loadFixture('full')).widget_config);
    const missing = paths.filter((path) => !(path in EFFECTS));
    const unknown = Object.keys(EFFECTS).filter((path) => !paths.includes(path));
    const pending = paths.filter(pendingReason);
    console.log(
      `[field coverage] ${paths.length} field paths: ${paths.length - pending.length} checked in the element, ${pending.length} pending (read without a warning):\n` +
        pending.map((path) => `  ${path}: ${pendingReason(path)}`).join('\n'),
    );
    expect(missing, `fields of the full fixture with no entry in EFFECTS: ${missing.join(', ')}`).to.deep.equal([]);
    expect(unknown, `EFFECTS entries that are not fields of the full fixture: ${unknown.join(', ')}`).to.deep.equal([]);
  });

  for (const [path, entry] of Object.entries(EFFECTS)) {
    const reason = pendingReason(path);
    const bug = ELEMENT_BUGS[path];
    const test = (bug ? it.skip : it)(`${path}: ${entry.effect}${reason ? ` [pending: ${reason}]` : ''}`, async () => {
      const infos: string[] = [];
      const { info } = console;
      console.info = (...args: unknown[]) => void infos.push(args.map(String).join(' '));
      // More than one fixture per test on purpose: each check compares the changed widget with a control widget
      // (legacy and terms_key also with a third configuration). They are mounted one after the other, one on the page at a time.
      const ctx: Context = {
        infos,
        async mount(change = {}, attributes = entry.attributes ?? {}) {
          fixtureCleanup();
          return settled(await mountWidget(await agentFor(change, change === entry.change), attributes));
        },
        control: () => ctx.mount(entry.control ?? {}),
      };
      try {
        const { warnings, errors } = await captureConsole(async () => entry.check(await ctx.mount(entry.change), ctx));
        // The checks that need a failed conversation (failingSocket) expect its console.error, and nothing else.
        // (the service first says why: its error message 4004, then closes the socket)
        const expected = entry.attributes?.['signed-url'] ? /^\[voice-agent-widget\] (the conversation socket could not open|the service sent error 4004)/ : null;
        expect([...warnings, ...errors].filter((line) => !expected?.test(line)), 'no other console warnings or errors').to.deep.equal([]);
        if (expected) expect(errors.some((line) => /the conversation socket could not open/.test(line)), 'the failed conversation is told in the console').to.equal(true);
      } finally {
        console.info = info;
      }
    });
    if (entry.timeout) test.timeout(entry.timeout);
  }
});

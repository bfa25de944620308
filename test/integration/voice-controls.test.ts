/**
 * The controls of a voice call (PROTOCOL.md section 3, "Voice") against the reference service with the fake
 * microphone: mute (`mic_muting_enabled`), the voice / text switch (`conversation_mode_toggle_enabled`), typing during
 * a call (`text_input_enabled`), the orb in place of the transcript (`transcript_enabled` false), which ways to talk an
 * agent offers (`text_only`, `supports_text_only`), the keyboard, and accessibility in the muted and text states.
 */
import { expect, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { engine, pressKey, until } from '../helpers.js';
import { messages, mountWidget, openPanel, sendText } from '../widget-helpers.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';
import {
  LABEL, conversationRecord, createAgent, live, notices, openCall, part, startCall, statusText, watchEachCall,
} from './voice-helpers.js';

/** The byte of silence: 0 in 16-bit PCM (both bytes), 0xFF in μ-law. */
const SILENCE: Record<string, number> = { pcm_16000: 0, ulaw_8000: 0xff };
/**
 * Chunks (20 ms each) that may still carry sound after a click on mute: those already under way. WebKitGTK hands the
 * worklet's messages over late and in bursts: up to 15 seen there after the click (300 ms); Chromium on a busy
 * machine (another process compiling beside it) 9.
 */
const IN_FLIGHT = engine === 'webkit' ? 25 : 12;

/** Presses Tab (or Shift+Tab) until the widget's focused element matches `selector`; fails after 20 presses. */
async function tabTo(el: VoiceAgentWidget, selector: string, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<HTMLElement> {
  for (let presses = 0; presses < 20; presses += 1) {
    const focused = el.shadowRoot!.activeElement as HTMLElement | null;
    if (focused?.matches(selector)) return focused;
    await pressKey(key);
  }
  throw new Error(`${selector} is not reachable with ${key}`);
}

describe('voice call controls', () => {
  const watch = watchEachCall();

  for (const format of Object.keys(SILENCE)) {
    it(`mute (${format}): aria-pressed, chunks keep flowing holding silence, unmute brings the sound back; accessible while muted`, async function () {
      this.timeout(30000);
      const silence = SILENCE[format];
      const silent = (chunk: Uint8Array) => chunk.every((byte) => byte === silence);
      const { el } = await openCall(await createAgent({ input: format, widget: { mic_muting_enabled: true } }));
      const mute = part(el, 'mute-button')!;
      expect(mute.getAttribute('aria-label')).to.equal(LABEL.mute);
      expect(mute.getAttribute('aria-pressed')).to.equal('false');
      await until(() => watch.chunks().some((c) => !silent(c)), 'the microphone heard');

      mute.click();
      await el.updateComplete;
      expect(mute.getAttribute('aria-pressed')).to.equal('true');
      // Muted from the start of a run of 75 silent chunks (1.5 s: longer than the fake microphone's own pause, 1 s, so
      // only muting makes one) after the click. It starts past the chunks already under way (IN_FLIGHT), which a busy
      // machine stretches (WebKit's capture hands chunks over in bursts, some after a chunk of the pause).
      const clicked = watch.chunks().length;
      const silentRun = (): number => {
        const chunks = watch.chunks();
        for (let i = clicked, start = -1; i < chunks.length; i++) {
          start = silent(chunks[i]!) ? (start < 0 ? i : start) : -1;
          if (start >= 0 && i - start + 1 >= 75) return start;
        }
        return -1;
      };
      let mutedFrom = -1;
      await until(() => (mutedFrom = silentRun()) >= 0, '1.5 s of silent chunks after the click: muted', 6000);
      expect(mutedFrom - clicked, 'chunks with sound after the click').to.be.at.most(IN_FLIGHT + 25);
      const whileMuted = watch.chunks().slice(mutedFrom);
      expect(whileMuted.filter((c) => !silent(c)), 'chunks with sound while muted').to.deep.equal([]);
      expect(new Set(whileMuted.map((c) => c.length)).size, 'same size').to.equal(1);
      await expect(el).to.be.accessible();

      mute.click();
      await el.updateComplete;
      expect(mute.getAttribute('aria-pressed')).to.equal('false');
      const unmutedFrom = watch.chunks().length;
      // The agent may be speaking as the microphone comes back: the capture worklet's echo hold (holdEcho) sends the
      // microphone as silence until it is well above the agent's voice, or the agent pauses (a reply is about 9 s).
      await until(() => watch.chunks().slice(unmutedFrom).some((c) => !silent(c)), 'sound again after unmuting', 12000);
    });
  }

  it('switches to text and back (notices, labels, status); typed text reaches the agent; accessible in text mode', async function () {
    this.timeout(20000);
    const { el, id } = await openCall(await createAgent({ widget: { conversation_mode_toggle_enabled: true, mic_muting_enabled: true } }));
    const mode = part(el, 'mode-button')!;
    expect(mode.textContent!.trim()).to.equal(LABEL.textMode);

    mode.click();
    await el.updateComplete;
    expect(notices(el)).to.deep.equal([LABEL.switchedToText]);
    expect(mode.textContent!.trim()).to.equal(LABEL.voiceMode);
    expect(statusText(el)).to.equal(LABEL.chatting);
    expect(part<HTMLButtonElement>(el, 'mute-button')!.disabled, 'the microphone is off in text mode').to.equal(true);
    await expect(el).to.be.accessible();
    await sendText(el, 'some markdown please');
    await until(() => messages(el).some((m) => m.role === 'agent' && m.text.includes('A short markdown sample')), 'the reply to the typed text', 10000);
    expect((await conversationRecord(id)).transcript.some((t) => t.role === 'user' && t.message === 'some markdown please')).to.equal(true);

    mode.click();
    await el.updateComplete;
    expect(notices(el)).to.deep.equal([LABEL.switchedToText, LABEL.switchedToVoice]);
    expect(mode.textContent!.trim()).to.equal(LABEL.textMode);
    expect(live(el), 'listening or speaking again').to.equal(true);
  });

  it('typing during a voice call (text_input_enabled) reaches the agent, and the call goes on', async function () {
    this.timeout(15000);
    const { el, id } = await openCall('agent_minimal');
    await sendText(el, 'markdown, please');
    expect(watch.sent().filter((f) => f.type === 'user_message')).to.deep.equal([{ type: 'user_message', text: 'markdown, please' }]);
    await until(() => messages(el).some((m) => m.role === 'agent' && m.text.includes('A short markdown sample')), 'the reply', 10000);
    expect((await conversationRecord(id)).transcript.some((t) => t.role === 'user' && t.message === 'markdown, please')).to.equal(true);
    expect(live(el)).to.equal(true);
  });

  it('with transcript_enabled false shows the orb (part="orb") in place of the transcript during a call', async () => {
    const el = await mountWidget(await createAgent({ widget: { transcript_enabled: false } }));
    await openPanel(el);
    expect(part(el, 'orb'), 'no orb before the call').to.equal(null);
    await startCall(el);
    expect(part(el, 'orb')!.getAttribute('aria-hidden')).to.equal('true');
    expect(part(el, 'transcript')).to.equal(null);
    // The agent's words still reach a screen reader: a visually hidden log, each line added once it is complete.
    const log = part(el, 'spoken-log')!;
    expect(log.getAttribute('role')).to.equal('log');
    expect(log.getAttribute('aria-label')).to.equal('Transcript');
    const box = log.getBoundingClientRect();
    expect(box.width <= 1 && box.height <= 1, 'visually hidden').to.equal(true);
    const firstSeen = new Map<Node, string>();
    const watchLines = (): void => log.querySelectorAll('p').forEach((p) => !firstSeen.has(p) && firstSeen.set(p, p.textContent!));
    watchLines();
    new MutationObserver(watchLines).observe(log, { subtree: true, childList: true, characterData: true });
    await until(() => log.textContent!.includes('Hello! How can I help you today?'), "the agent's first message in the log", 10000);
    await until(() => log.querySelectorAll('p').length >= 2, "the agent's reply to the microphone's speech in the log", 15000);
    for (const [p, text] of firstSeen) if (p.isConnected) expect(text, 'a line is added whole, never as a streamed part').to.equal(p.textContent);
  });

  describe('what an agent offers', () => {
    it('a text_only agent: no call button, a chat that never asks for the microphone', async () => {
      const el = await mountWidget('agent_text_only');
      await openPanel(el);
      expect(part(el, 'start-call-button')).to.equal(null);
      const started = oneEvent(el, 'voice-agent-conversation');
      part(el, 'start-button')!.click();
      await started;
      await until(() => statusText(el) === 'Chatting with the text assistant', "the agent's chatting_status");
      expect(watch.sent()[0].conversation_config_override).to.deep.include({ conversation: { text_only: true } });
      expect(watch.constraints, 'getUserMedia calls').to.deep.equal([]);
      expect(watch.contexts).to.deep.equal([]);
    });

    it('supports_text_only false: the call button only, no chat button and no composer before a call', async () => {
      const el = await mountWidget(await createAgent({ widget: { supports_text_only: false } }));
      await openPanel(el);
      expect(part(el, 'start-call-button')!.textContent!.trim()).to.equal(LABEL.startCall);
      expect(part(el, 'start-button')).to.equal(null);
      expect(part(el, 'composer')).to.equal(null);
      await startCall(el);
      expect(part(el, 'composer'), 'typing during the call (text_input_enabled)').to.exist;
    });

    it('an agent of voice and text: both buttons and the composer', async () => {
      const el = await mountWidget('agent_minimal');
      await openPanel(el);
      expect(part(el, 'start-call-button')!.textContent!.trim()).to.equal(LABEL.startCall);
      expect(part(el, 'start-button')!.textContent!.trim()).to.equal(LABEL.startChat);
      expect(part(el, 'composer')).to.exist;
    });
  });

  it('the keyboard reaches and operates the call button (Enter), mute (Space) and the mode button (Enter)', async function () {
    this.timeout(20000);
    const el = await mountWidget(await createAgent({ widget: { conversation_mode_toggle_enabled: true, mic_muting_enabled: true } }));
    await openPanel(el);
    await tabTo(el, '[part~="start-call-button"]', 'Shift+Tab');
    await sendKeys({ press: 'Enter' });
    await until(() => live(el), 'the call is live', 10000);
    // The call button is gone: its focus went to the call's first control, not back to the page.
    const mute = el.shadowRoot!.activeElement as HTMLElement | null;
    expect(mute?.getAttribute('part'), 'focus on the mute toggle').to.equal('button mute-button');
    await pressKey('Space');
    await el.updateComplete;
    expect(mute!.getAttribute('aria-pressed')).to.equal('true');
    await tabTo(el, '[part~="mode-button"]');
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(notices(el)).to.deep.equal([LABEL.switchedToText]);
    // Ending the call by the keyboard: focus goes on to the panel's first control, not back to the page.
    await tabTo(el, '[part~="end-button"]');
    await sendKeys({ press: 'Enter' });
    await until(() => !live(el) && part(el, 'start-call-button'), 'the call ended', 10000);
    expect(el.shadowRoot!.activeElement?.getAttribute('part'), 'focus in the panel').to.equal('input');
  });

  it('a call started through the terms dialog puts focus on the call\'s first control (not the text input: a phone\'s keyboard)', async function () {
    this.timeout(20000);
    const el = await mountWidget(await createAgent({ widget: { terms_text: 'Calls are recorded.', mic_muting_enabled: true } }));
    await openPanel(el);
    part(el, 'start-call-button')!.click();
    await until(() => part(el, 'accept-terms-button'), 'the terms dialog');
    part(el, 'accept-terms-button')!.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => live(el), 'the call is live', 10000);
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement?.getAttribute('part')).to.equal('button mute-button');
  });
});

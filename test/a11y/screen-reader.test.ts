/**
 * A whole visit by screen reader (issue 20), against the reference service, in each engine: what a screen reader user
 * hears in each state, in order, read with a virtual screen reader (./screen-reader.ts). The launcher and the panel,
 * a text conversation with a markdown reply, the terms dialog, a voice call's turns through the status region, the
 * device sheet, the rating dialog, a refused microphone with its way forward, and a configuration that could not be read.
 */
import { expect } from '@open-wc/testing';
import { PANEL_LABELS } from '../../src/config/panel-labels.js';
import { pressKey, until } from '../helpers.js';
import { $, $$, mountWidget, openPanel, sendText } from '../widget-helpers.js';
import { LABEL, createAgent, endCall, part, service, setFaults, startCall, statusText, watchEachCall } from '../integration/voice-helpers.js';
import { announced, listen, readOn, said, virtual } from './screen-reader.js';

afterEach(() => virtual.stop());

/** `text` as a regular expression matching itself. */
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `phrases` holds `expected` in this order (others may come between). */
function inOrder(phrases: string[], expected: (string | RegExp)[]): void {
  let at = 0;
  for (const want of expected) {
    const found = phrases.findIndex((p, i) => i >= at && (typeof want === 'string' ? p === want : want.test(p)));
    expect(found, `"${want}" after "${phrases[at - 1] ?? '(start)'}" in:\n${phrases.join('\n')}`).to.be.at.least(0);
    at = found + 1;
  }
}

describe('screen reader: the launcher and the panel', () => {
  it('the launcher says its name and that it opens a panel; the panel is a named region with the transcript log and its first message', async () => {
    const el = await mountWidget('agent_demo_support');
    await listen(el);
    const closed = await readOn();
    expect(closed[0]).to.match(/^button, Need help\?, .*not expanded$/);
    await openPanel(el);
    await listen(el);
    const open = await readOn();
    // The panel comes first in the tree, the launcher (now "Collapse") after it, as they sit on screen.
    inOrder(open, [
      'region, Need help?',
      'log, Transcript',
      "Hi ! I'm the Acme assistant. How can I help?",
      'end of log, Transcript',
      'button, Start a call',
      'button, Message',
      'end of region, Need help?',
      /^button, Collapse, .*1 control, expanded$/,
    ]);
  });
});

describe('screen reader: a text conversation', () => {
  it('a streamed markdown reply is announced once, when complete; its link and its code block\'s actions are reachable and named', async function () {
    this.timeout(30000);
    const el = await mountWidget('agent_demo_support');
    await openPanel(el);
    await listen(el);
    await sendText(el, 'some markdown please');
    await until(() => $$(el, '.message.agent[aria-busy="false"]').some((m) => m.querySelector('pre')), 'the markdown reply', 10000);
    await sendText(el, 'show me links');
    await until(() => $$(el, '.message.agent[aria-busy="false"]').some((m) => m.textContent!.includes('Here are some links')), 'the reply with links', 10000);
    await new Promise((r) => setTimeout(r, 300));
    const heard = await announced();
    const replies = heard.filter((p) => p.includes('markdown sample'));
    expect(replies, 'the markdown reply announced once').to.have.length(1);
    expect(replies[0]).to.include("const greeting = 'hello';").and.include('Ask me for links next.');
    expect(heard.filter((p) => p.includes('A short') && !p.includes('Ask me for links next.')), 'no part of it announced while it streamed').to.deep.equal([]);
    expect(heard.filter((p) => p.includes('Here are some links')), 'the links reply announced once').to.have.length(1);
    await listen(el);
    const read = await readOn(250);
    inOrder(read, ['log, Transcript', /^code/i, 'button, Copy', 'button, Download', 'button, Wrap', 'link, pricing', 'link, docs', 'link, www']);
  });

  it('the terms dialog: focus moves in and it is announced as a dialog with its name; its text and both buttons are read; Escape returns focus', async () => {
    const el = await mountWidget('agent_demo_support', {}, true);
    await openPanel(el);
    await listen(el);
    $<HTMLInputElement>(el, '[part~="input"]')!.focus();
    await sendText(el, 'hello');
    await until(() => $(el, '[part~="terms"]')?.matches('[open]'), 'the terms dialog');
    await el.updateComplete;
    const phrases = await said();
    inOrder(phrases, [/^dialog, Need help\?/, /^button, Accept/]);
    const dialog = await readOn();
    expect(dialog.join('\n')).to.match(/terms|Terms/);
    await pressKey('Escape');
    await until(() => !$(el, '[part~="terms"]'), 'declined');
    expect((await said()).at(-1), 'focus back on the input').to.match(/^textbox, Text message input/);
  });
});

describe('screen reader: a voice call', () => {
  watchEachCall();

  it('each turn is announced once through the status region, focus never taken: connecting, listening, the agent speaking, muted, unmuted, switched to text, ended', async function () {
    this.timeout(40000);
    const el = await mountWidget(await createAgent({ widget: { mic_muting_enabled: true, text_input_enabled: true, conversation_mode_toggle_enabled: true } }));
    await openPanel(el);
    await listen(el);
    await startCall(el);
    // From the status a screen reader just read, the next Tab is the mute toggle, and the end button follows the
    // call's controls (mute, devices, text mode).
    const status = part(el, 'status')!;
    const tabStops = $$(el, 'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, a[href], [tabindex="0"]')
      .filter((f) => status.compareDocumentPosition(f) & Node.DOCUMENT_POSITION_FOLLOWING).map((f) => f.getAttribute('part'));
    expect(tabStops.slice(0, 4)).to.deep.equal(['button mute-button', 'button devices-button', 'button mode-button', 'button end-button']);
    // Nothing the call tells moves focus: no focus change from here but the ones the test makes.
    const moves: string[] = [];
    el.shadowRoot!.addEventListener('focusin', (event) => moves.push(String((event.target as Element).getAttribute('part'))));
    await until(() => statusText(el) === LABEL.speaking, 'the agent speaking', 15000);
    const mute = part(el, 'mute-button')!;
    await until(() => statusText(el) === LABEL.listening, 'listening again', 15000);
    mute.click();
    await until(() => statusText(el) === PANEL_LABELS.microphone_muted, 'muted');
    mute.click();
    await until(() => statusText(el) === LABEL.listening || statusText(el) === LABEL.speaking, 'unmuted');
    part(el, 'mode-button')!.click();
    await until(() => (statusText(el) as string) !== LABEL.listening && statusText(el) !== LABEL.speaking, 'switched to text');
    expect(moves, 'focus moved while the call told its turns').to.deep.equal([]);
    await endCall(el);
    await new Promise((r) => setTimeout(r, 300));
    const heard = await announced();
    inOrder(heard, [LABEL.connecting, LABEL.listening, LABEL.speaking, LABEL.listening, PANEL_LABELS.microphone_muted, /^(Listening|Talk to interrupt)$/, LABEL.switchedToText, /ended the conversation/]);
    // Once each: no status said twice in a row (a status written again unchanged would be).
    heard.forEach((p, i) => expect(p, `said twice in a row at ${i}: ${heard.join(' | ')}`).not.to.equal(heard[i - 1]));
    expect(await announced('assertive'), 'nothing assertive in a clean call').to.deep.equal([]);
  });

  it('the device sheet: its toggle says it is collapsed, then the sheet is a named group with the two lists', async function () {
    this.timeout(20000);
    const el = await mountWidget('agent_minimal');
    await openPanel(el);
    await startCall(el);
    await listen(el);
    part(el, 'devices-button')!.focus();
    await until(async () => (await said()).at(-1)!.startsWith('button, Microphone and speaker'), 'the toggle focused');
    expect((await said()).at(-1)).to.equal('button, Microphone and speaker, not expanded');
    part(el, 'devices-button')!.click();
    await until(() => part(el, 'device-sheet'), 'the sheet');
    const read = await readOn();
    inOrder(read, ['group, Microphone and speaker', /^combobox, Microphone/]);
    await endCall(el);
  });

  // Each way the microphone can fail at the press: its words, its way forward, and the call button to try again.
  for (const [name, words] of [
    ['NotAllowedError', `${PANEL_LABELS.microphone_denied} .+ ${PANEL_LABELS.type_instead}`],
    ['NotFoundError', `${PANEL_LABELS.no_microphone} ${PANEL_LABELS.type_instead}`],
    ['NotReadableError', `${PANEL_LABELS.microphone_in_use} ${PANEL_LABELS.type_instead}`],
  ] as const) {
    it(`a microphone failing with ${name}: an alert with its words and ways forward, then the call button to try again`, async () => {
      const el = await mountWidget('agent_minimal');
      await openPanel(el);
      const original = navigator.mediaDevices.getUserMedia;
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('injected', name));
      try {
        part(el, 'start-call-button')!.click();
        await until(() => part(el, 'voice-problem'), 'the failure shown');
      } finally {
        navigator.mediaDevices.getUserMedia = original;
      }
      await el.updateComplete;
      // An element inserted with role=alert is announced by the browser's alert event, which this virtual screen
      // reader does not model (it announces changes inside a live region that was already there): the walk reads it.
      await listen(el);
      const read = await readOn();
      // The words, then the ways forward (" .+ " stands for the browser's own way to allow the microphone).
      inOrder(read, ['alert', new RegExp(`^${words.split(' .+ ').map(escape).join(' .+ ')}$`), 'end of alert', 'button, Try again']);
    });
  }

  it('a message the service never got: the failure is announced in the transcript, with Send again beside the message', async function () {
    this.timeout(20000);
    const el = await mountWidget('agent_minimal');
    await openPanel(el);
    await listen(el);
    await setFaults({ socket: { refuse: true, times: 1 } });
    try {
      await sendText(el, 'hello');
      await until(() => part(el, 'resend-button'), 'the message marked unsent', 15000);
    } finally {
      await service('DELETE', '/v1/dev/faults');
    }
    await new Promise((r) => setTimeout(r, 300));
    expect((await announced()).join(' | ')).to.match(/error/i);
    await listen(el);
    inOrder(await readOn(), [/hello/, 'button, Send again']);
  });
});

describe('screen reader: the rating and the failed read', () => {
  it('the rating is a dialog: announced with its question, the stars named "n out of 5 stars", the comment named, the thanks announced', async () => {
    const el = await mountWidget('agent_demo_support');
    await openPanel(el);
    await sendText(el, 'hello');
    await until(() => $$(el, '.message.agent[aria-busy="false"]').some((m) => m.textContent!.includes('You said: hello')), 'the reply');
    await listen(el);
    part(el, 'end-button')!.click();
    await until(() => ($(el, '[part~="feedback"]') as HTMLDialogElement | null)?.open, 'the rating');
    await until(async () => (await said()).some((p) => p.startsWith('button, 1 out of 5 stars')), 'focus on the first star');
    inOrder(await said(), ['dialog, How was this conversation?', /^button, 1 out of 5 stars/]);
    const stars = await readOn();
    inOrder(stars, [/^button, 1 out of 5 stars/, /^button, 2 out of 5 stars/, /^button, 3 out of 5 stars/, /^button, 4 out of 5 stars/, /^button, 5 out of 5 stars/, 'button, Dismiss']);
    part(el, 'star-button')!.click();
    await until(() => $(el, '[part~="feedback"] textarea'), 'the comment');
    await until(async () => (await said()).some((p) => p.startsWith('textbox, Tell us more')), 'the comment focused and named');
    part(el, 'submit-button')!.click();
    await until(async () => (await announced()).includes('Thank you for your feedback!'), 'the thanks announced');
  });

  it('a configuration that could not be read: the error is an alert, and after a failure time may mend, a button to try again', async function () {
    this.timeout(30000);
    await setFaults({ widget: { agent_id: 'agent_minimal', status: 500 } });
    try {
      const el = await mountWidget('agent_minimal', {}, false, 30000);
      await listen(el);
      inOrder(await readOn(), ['alert', 'An error occurred', 'end of alert', 'button, Try again']);
    } finally {
      await service('DELETE', '/v1/dev/faults');
    }
  });
});

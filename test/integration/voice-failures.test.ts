/**
 * Voice call failures (PROTOCOL.md section 3, "Voice": told in plain words and the console, never a call stuck in
 * "Listening") against the reference service: the microphone refused or missing (getUserMedia stubbed to reject as
 * the browser does), the microphone lost during the call (its track's `ended`, which the browser fires when a device
 * goes away and a test cannot provoke otherwise), and the sound held back by the autoplay policy (the widget's
 * `<audio>` refusing to play once, as Chromium does without a user gesture).
 */
import { expect } from '@open-wc/testing';
import { sendMouse } from '@web/test-runner-commands';
import { PANEL_LABELS } from '../../src/config/panel-labels.js';
import { WIDGET_LABELS } from '../../src/config/defaults.js';
import { captureConsole, until } from '../helpers.js';
import { $, mountWidget, openPanel } from '../widget-helpers.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';
import {
  LABEL, live, nextEnd, notices, openCall, part, startCall, statusText, watchEachCall,
} from './voice-helpers.js';

const problem = (el: VoiceAgentWidget): HTMLElement | null => part(el, 'voice-problem');
const callButtonText = (el: VoiceAgentWidget): string | undefined => part(el, 'start-call-button')?.textContent?.trim();

describe('voice call failures', () => {
  const watch = watchEachCall();

  // The way forward each refusal gets in this engine: how to allow the microphone in this browser (a refusal), and text.
  const family = / Firefox\//.test(navigator.userAgent) ? 'firefox' : /Chrome\//.test(navigator.userAgent) ? 'chromium' : 'safari';
  const refusals = [
    { name: 'NotAllowedError', shown: `${PANEL_LABELS.microphone_denied} ${PANEL_LABELS[`allow_microphone_${family}`]} ${PANEL_LABELS.type_instead}`, words: 'the visitor denied the microphone' },
    { name: 'NotFoundError', shown: `${PANEL_LABELS.no_microphone} ${PANEL_LABELS.type_instead}`, words: 'no microphone could be opened' },
    { name: 'NotReadableError', shown: `${PANEL_LABELS.microphone_in_use} ${PANEL_LABELS.type_instead}`, words: 'the microphone is in use by another application' },
  ] as const;
  for (const { name, shown, words } of refusals) {
    it(`getUserMedia rejecting with ${name}: its words and way forward shown, the cause in the console, no socket, the chat still offered, the call button tries again`, async () => {
      watch.answerGetUserMedia(() => Promise.reject(new DOMException(`injected ${name}`, name)));
      const el = await mountWidget('agent_minimal');
      await openPanel(el);
      const { errors } = await captureConsole(async () => {
        part(el, 'start-call-button')!.click();
        await until(() => problem(el), 'the problem shown');
      });
      expect(problem(el)!.getAttribute('role')).to.equal('alert');
      expect(problem(el)!.textContent!.trim()).to.equal(shown);
      await expect(el, 'the state passes axe').to.be.accessible();
      expect(errors).to.have.length(1);
      expect(errors[0]).to.include('[voice-agent-widget]').and.include(words).and.include(`${name}: injected ${name}`);
      expect(watch.sockets, 'no socket opened').to.deep.equal([]);
      // The call's AudioContext opened in the press (so that Safari lets its sound out), and closed with the refusal.
      expect(watch.contexts, 'one AudioContext, opened in the press').to.have.length(1);
      await until(() => watch.contexts[0].state === 'closed', 'the AudioContext closed');
      await el.updateComplete;
      expect(part(el, 'start-button')!.textContent!.trim(), 'the chat is still offered').to.equal(LABEL.startChat);
      expect(callButtonText(el), 'a call can be tried again').to.equal(WIDGET_LABELS.retry);
      expect(statusText(el)).to.equal('');
    });
  }

  it('a microphone whose permission says denied: told without asking (no prompt); the call button then asks anew and the call starts', async function () {
    this.timeout(15000);
    const { query } = Permissions.prototype;
    const asked: string[] = [];
    Permissions.prototype.query = function (this: Permissions, descriptor: PermissionDescriptor) {
      asked.push(descriptor.name);
      return descriptor.name === ('microphone' as PermissionName) ? Promise.resolve({ state: 'denied' } as PermissionStatus) : query.call(this, descriptor);
    };
    try {
      const el = await mountWidget('agent_minimal');
      await openPanel(el);
      const { errors } = await captureConsole(async () => {
        part(el, 'start-call-button')!.click();
        await until(() => problem(el), 'the problem shown');
      });
      expect(asked, 'the permission read first').to.include('microphone');
      expect(watch.constraints, 'the visitor not asked again').to.deep.equal([]);
      expect(errors).to.have.length(1);
      expect(errors[0]).to.include('the visitor denied the microphone').and.include('Permissions API');
      await el.updateComplete;
      expect(callButtonText(el)).to.equal(WIDGET_LABELS.retry);
      part(el, 'start-call-button')!.click();
      await until(() => live(el), 'the call live after trying again');
      expect(watch.constraints, 'asked anew').to.have.length(1);
      expect(problem(el)).to.equal(null);
      $<HTMLButtonElement>(el, '[part~="end-button"]')!.click();
      await watch.released();
    } finally {
      Permissions.prototype.query = query;
    }
  });

  it('a page whose permissions policy blocks the microphone: told before the press instead of the call button, the fix in the console', async () => {
    const doc = document as Document & { permissionsPolicy?: unknown };
    const own = Object.getOwnPropertyDescriptor(doc, 'permissionsPolicy');
    // What a Permissions-Policy: microphone=() header makes the document say (the real header: test/permissions/).
    Object.defineProperty(doc, 'permissionsPolicy', { configurable: true, value: { allowsFeature: (feature: string) => feature !== 'microphone' } });
    try {
      const el = await mountWidget('agent_minimal');
      const { errors } = await captureConsole(async () => {
        await openPanel(el);
        await until(() => problem(el), 'the problem shown');
      });
      expect(problem(el)!.textContent!.trim()).to.equal(`${PANEL_LABELS.microphone_blocked_page} ${PANEL_LABELS.type_instead}`);
      expect(part(el, 'start-call-button'), 'no call button').to.equal(null);
      expect(part(el, 'start-button')!.textContent!.trim(), 'the chat offered').to.equal(LABEL.startChat);
      expect(errors).to.have.length(1);
      expect(errors[0]).to.include('Fix: send Permissions-Policy: microphone=(self)');
      await expect(el, 'the state passes axe').to.be.accessible();
      expect(watch.constraints, 'nothing asked').to.deep.equal([]);
    } finally {
      if (own) Object.defineProperty(doc, 'permissionsPolicy', own);
      else delete doc.permissionsPolicy;
    }
  });

  it('the microphone gone during a call, another left: capture moves to the default one, a notice says so, the call goes on', async function () {
    this.timeout(15000);
    const { el } = await openCall('agent_minimal');
    const [track] = watch.tracks();
    const { warnings } = await captureConsole(async () => {
      track.dispatchEvent(new Event('ended'));
      await until(() => watch.tracks().length === 2, 'a new microphone track');
      await until(() => notices(el).length === 1, 'the notice');
    });
    expect(notices(el)).to.deep.equal([PANEL_LABELS.microphone_default]);
    expect(warnings.some((w) => w.includes('capture moved to the default microphone')), warnings.join('\n')).to.equal(true);
    expect(watch.tracks()[1].readyState).to.equal('live');
    expect(live(el), 'the call goes on').to.equal(true);
    expect(problem(el)).to.equal(null);
    const sent = watch.chunks().length;
    await until(() => watch.chunks().length > sent + 10, 'chunks from the new microphone');
    $<HTMLButtonElement>(el, '[part~="end-button"]')!.click();
    await watch.released();
  });

  it('the microphone lost during a call, none left: microphone_lost notice, the call ended as an error, everything released', async function () {
    this.timeout(15000);
    const { el } = await openCall('agent_minimal');
    const [track] = watch.tracks();
    expect(track.readyState).to.equal('live');
    watch.answerGetUserMedia(() => Promise.reject(new DOMException('Requested device not found', 'NotFoundError')));
    const ended = nextEnd(el);
    const { errors, result: end } = await captureConsole(async () => {
      track.dispatchEvent(new Event('ended'));
      return ended;
    });
    expect(end).to.include({ reason: 'error', message: 'microphone_lost' });
    expect(errors).to.have.length(1);
    expect(errors[0]).to.include('the microphone went away during the call');
    await el.updateComplete;
    expect(notices(el)).to.deep.equal([PANEL_LABELS.microphone_lost]);
    expect(problem(el), 'told once: the transcript notice, no second alert').to.equal(null);
    expect(part(el, 'voice-help')?.textContent?.trim(), 'its way forward beside it').to.equal(PANEL_LABELS.type_instead);
    expect(statusText(el), 'not stuck in a call status').to.equal('');
    expect(callButtonText(el)).to.equal(LABEL.newCall);
    await watch.released();
  });

  it('the microphone lost during a call without a transcript (transcript false): told as an alert, since no notice shows', async function () {
    this.timeout(15000);
    const { el } = await openCall('agent_minimal', { transcript: 'false' });
    const [track] = watch.tracks();
    watch.answerGetUserMedia(() => Promise.reject(new DOMException('Requested device not found', 'NotFoundError')));
    const ended = nextEnd(el);
    const { errors } = await captureConsole(async () => {
      track.dispatchEvent(new Event('ended'));
      return ended;
    });
    expect(errors).to.have.length(1);
    await el.updateComplete;
    expect(problem(el)!.getAttribute('role')).to.equal('alert');
    expect(problem(el)!.textContent!.trim()).to.equal(`${PANEL_LABELS.microphone_lost} ${PANEL_LABELS.type_instead}`);
    await watch.released();
  });

  it('the sound output lost (the AudioContext reports an error): output_lost shown, a console line, the call goes on', async function () {
    this.timeout(15000);
    const { el } = await openCall('agent_minimal');
    await until(() => watch.contexts.some((c) => c.state === 'running'), "the call's AudioContext running");
    const { errors } = await captureConsole(async () => {
      // A device that goes away makes the context fire `error`; a test machine has none to unplug, so it fires it.
      watch.contexts.find((c) => c.state === 'running')!.dispatchEvent(new Event('error'));
      await until(() => problem(el), 'the problem shown');
    });
    expect(problem(el)!.textContent!.trim()).to.equal(PANEL_LABELS.output_lost);
    expect(errors).to.have.length(1);
    expect(errors[0]).to.include('the sound output failed or went away');
    expect(live(el), 'the call goes on (the output may come back)').to.equal(true);
    $<HTMLButtonElement>(el, '[part~="end-button"]')!.click();
    await watch.released();
  });

  it('the sound blocked by the autoplay policy: audio_blocked shown, the call goes on, a click resumes and clears it', async function () {
    this.timeout(15000);
    const { play } = HTMLMediaElement.prototype;
    // The browser refuses every play() until the visitor clicks in the page (the press itself counted for nothing).
    let blocked = true;
    const unblock = (event: Event): void => void (event.isTrusted && (blocked = false));
    addEventListener('click', unblock, { capture: true });
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      if (!blocked) return play.call(this);
      return Promise.reject(new DOMException("play() failed because the user didn't interact with the document first.", 'NotAllowedError'));
    };
    try {
      const el = await mountWidget('agent_minimal');
      await openPanel(el);
      const { errors } = await captureConsole(async () => {
        await startCall(el);
        await until(() => problem(el), 'the problem shown');
      });
      expect(problem(el)!.textContent!.trim()).to.equal(PANEL_LABELS.audio_blocked);
      expect(errors).to.have.length(1);
      expect(errors[0]).to.include('autoplay policy').and.include('NotAllowedError');
      expect(live(el), 'the call goes on').to.equal(true);
      // A real click (Playwright) anywhere in the page.
      await sendMouse({ type: 'click', position: [5, 5] });
      await until(() => !problem(el), 'the problem cleared');
      expect(live(el)).to.equal(true);
      await until(() => statusText(el) === LABEL.speaking, 'the agent heard after the click', 10000);
    } finally {
      HTMLMediaElement.prototype.play = play;
      removeEventListener('click', unblock, { capture: true });
    }
  });
});

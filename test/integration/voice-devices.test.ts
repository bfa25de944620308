/**
 * The device sheet of a voice call (issue 19) against the reference service, with each engine's fake devices
 * (Chromium: three inputs and three outputs, TOOLCHAIN.md): the lists ("Default" first, then the devices by the
 * browser's names), a microphone chosen mid-call (capture moves to it, the call and its chunks go on), a speaker chosen
 * (`setSinkId` with its id), the `voice-agent-device` event, and the choice kept for the next call unless the page
 * turns storage off. An engine that lists fewer than two microphones, or has no `setSinkId`, skips what needs them and
 * says so in a skip.
 */
import { expect } from '@open-wc/testing';
import { PANEL_LABELS } from '../../src/config/panel-labels.js';
import type { VoiceAgentDeviceEvent } from '../../src/events/device.js';
import { itExcept, until } from '../helpers.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';
import { mountWidget, openPanel } from '../widget-helpers.js';
import { endCall, live, openCall, part, startCall, watchEachCall } from './voice-helpers.js';

const STORE_KEY = 'voice-agent-widget:devices';

/** The options of the sheet's list of `kind`: [value, text]. */
const options = (el: VoiceAgentWidget, kind: 'microphone' | 'speaker'): [string, string][] =>
  Array.from(part(el, `${kind}-select`)?.querySelectorAll('option') ?? [], (o) => [o.value, o.textContent!.trim()]);

/** Chooses option `value` in the list of `kind`, as a visitor does (a change event). */
function choose(el: VoiceAgentWidget, kind: 'microphone' | 'speaker', value: string): void {
  const select = part(el, `${kind}-select`) as HTMLSelectElement;
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
}

/** Opens the device sheet of a running call and waits until its microphone list is read. */
async function openSheet(el: VoiceAgentWidget): Promise<void> {
  part(el, 'devices-button')!.click();
  await until(() => options(el, 'microphone').length > 1, 'the microphones listed');
}

/** Records the sink ids of every `setSinkId` on a media element (the call goes on through the real one). */
function recordSinks(): { sinks: string[]; restore: () => void } {
  const { setSinkId } = HTMLMediaElement.prototype;
  const sinks: string[] = [];
  HTMLMediaElement.prototype.setSinkId = function (this: HTMLMediaElement, id: string) {
    sinks.push(id);
    return setSinkId.call(this, id);
  };
  return { sinks, restore: () => void (HTMLMediaElement.prototype.setSinkId = setSinkId) };
}

/** The audio inputs this engine lists, without its aliases of the default. */
async function microphones(): Promise<MediaDeviceInfo[]> {
  return (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'audioinput' && d.deviceId && d.deviceId !== 'default');
}

/** What this engine cannot do here, by test: `it`, or `it.skip` titled with the engine and why (never a silent skip). */
const itUnless = {
  ONE_MICROPHONE: itExcept(['webkit'], "WebKitGTK's mock capture lists one microphone"),
  NO_SINK: itExcept(['webkit'], 'no setSinkId on media elements (the speaker list is not offered)'),
};

describe('voice call devices', () => {
  const watch = watchEachCall();
  afterEach(() => {
    localStorage.removeItem(STORE_KEY);
    document.documentElement.removeAttribute('data-voice-agent-no-storage');
  });

  it('the sheet: a named toggle (aria-expanded), the microphones and speakers by the browser\'s names, "Default" first; accessible', async function () {
    this.timeout(20000);
    const { el } = await openCall('agent_minimal');
    const toggle = part(el, 'devices-button')!;
    expect(toggle.getAttribute('aria-label')).to.equal(PANEL_LABELS.devices);
    expect(toggle.getAttribute('aria-expanded')).to.equal('false');
    await openSheet(el);
    expect(toggle.getAttribute('aria-expanded')).to.equal('true');
    const inputs = await microphones();
    expect(options(el, 'microphone')).to.deep.equal([['', PANEL_LABELS.default_device], ...inputs.map((d, i) => [d.deviceId, d.label || `${PANEL_LABELS.microphone} ${i + 1}`])]);
    const outputs = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'audiooutput' && d.deviceId && d.deviceId !== 'default');
    if ('setSinkId' in HTMLMediaElement.prototype) expect(options(el, 'speaker').map(([id]) => id)).to.deep.equal(['', ...outputs.map((d) => d.deviceId)]);
    else expect(part(el, 'speaker-select'), 'no speaker list where the engine cannot choose one').to.equal(null);
    expect(part(el, 'device-sheet')!.getAttribute('aria-label')).to.equal(PANEL_LABELS.devices);
    await expect(el).to.be.accessible();
    toggle.click();
    await until(() => !part(el, 'device-sheet'), 'the sheet closed');
    await endCall(el);
  });

  itUnless.ONE_MICROPHONE('a microphone chosen mid-call: capture moves to it, the call and its chunks go on, the choice told and kept for the next call', async function () {
    this.timeout(30000);
    const inputs = await microphones();
    expect(inputs.length, 'microphones to choose between').to.be.at.least(2);
    const { el } = await openCall('agent_minimal');
    await openSheet(el);
    const [, second] = inputs;
    const told: VoiceAgentDeviceEvent['detail'][] = [];
    el.addEventListener('voice-agent-device', (event) => told.push(event.detail));
    const before = watch.tracks().length;
    const from = performance.now();
    choose(el, 'microphone', second.deviceId);
    await until(() => told.length === 1, 'the choice told');
    expect(told[0]).to.deep.equal({ kind: 'microphone', deviceId: second.deviceId, label: second.label });
    const tracks = watch.tracks();
    expect(tracks.length, 'a new microphone track').to.equal(before + 1);
    expect(tracks.at(-1)!.getSettings().deviceId).to.equal(second.deviceId);
    expect(tracks.slice(0, -1).every((t) => t.readyState === 'ended'), 'the old microphone stopped').to.equal(true);
    // The chunks go on through the switch: the longest wait between two of them, from the choice to 1 s after it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const times = watch.events.flatMap((e) => (e.kind === 'sent' && typeof e.frame.user_audio_chunk === 'string' && e.at >= from - 300 ? [e.at] : []));
    const gap = Math.max(...times.slice(1).map((t, i) => t - times[i]));
    expect(gap, `the longest gap between chunks (ms), ${times.length} chunks`).to.be.below(300);
    expect(live(el), 'the call goes on').to.equal(true);
    expect(JSON.parse(localStorage.getItem(STORE_KEY)!)).to.deep.equal({ microphone: second.deviceId, speaker: '' });
    expect(options(el, 'microphone').find(([id]) => id === second.deviceId)).to.exist;
    expect((part(el, 'microphone-select') as HTMLSelectElement).value).to.equal(second.deviceId);
    await endCall(el);
    // The next call starts on it.
    await startCall(el);
    expect(watch.tracks().at(-1)!.getSettings().deviceId).to.equal(second.deviceId);
    await endCall(el);
  });

  itUnless.NO_SINK('a speaker chosen: setSinkId with its id on the call\'s output, told and kept', async function () {
    this.timeout(20000);
    const { sinks, restore } = recordSinks();
    try {
      const { el } = await openCall('agent_minimal');
      await openSheet(el);
      await until(() => options(el, 'speaker').length > 1, 'the speakers listed');
      const [, [second, label]] = options(el, 'speaker');
      const told: VoiceAgentDeviceEvent['detail'][] = [];
      el.addEventListener('voice-agent-device', (event) => told.push(event.detail));
      sinks.length = 0;
      choose(el, 'speaker', second);
      await until(() => told.length === 1, 'the choice told');
      expect(sinks).to.deep.equal([second]);
      expect(told[0]).to.deep.equal({ kind: 'speaker', deviceId: second, label });
      expect(JSON.parse(localStorage.getItem(STORE_KEY)!).speaker).to.equal(second);
      expect(live(el)).to.equal(true);
      await endCall(el);
      // The next call plays on it, routed once: the sheet shows it chosen.
      await startCall(el);
      await openSheet(el);
      await until(() => options(el, 'speaker').length > 1, 'the speakers listed');
      expect((part(el, 'speaker-select') as HTMLSelectElement).value).to.equal(second);
      expect(sinks, 'not routed again').to.deep.equal([second]);
      await endCall(el);
    } finally {
      restore();
    }
  });

  itUnless.ONE_MICROPHONE('host API: microphoneId set by the page mid-call moves capture and reflects it; set before a call, the next call asks for it', async function () {
    this.timeout(30000);
    const inputs = await microphones();
    const el = await mountWidget('agent_minimal');
    // Set before the conversation part has loaded: held, then handed to it.
    el.microphoneId = inputs[1].deviceId;
    expect(el.microphoneId).to.equal(inputs[1].deviceId);
    await openPanel(el);
    expect(el.microphoneId, 'reflected by the conversation part').to.equal(inputs[1].deviceId);
    expect(localStorage.getItem(STORE_KEY), 'nothing kept before a call was started').to.equal(null);
    await startCall(el);
    expect(watch.tracks().at(-1)!.getSettings().deviceId, 'the call starts on it').to.equal(inputs[1].deviceId);
    expect(JSON.parse(localStorage.getItem(STORE_KEY)!).microphone, 'kept once a call started').to.equal(inputs[1].deviceId);
    // Mid-call: capture moves, the call goes on, the event tells it.
    const told: VoiceAgentDeviceEvent['detail'][] = [];
    el.addEventListener('voice-agent-device', (event) => told.push(event.detail));
    el.microphoneId = inputs[0].deviceId;
    await until(() => told.length === 1, 'the change told');
    expect(told[0]).to.include({ kind: 'microphone', deviceId: inputs[0].deviceId });
    expect(watch.tracks().at(-1)!.getSettings().deviceId).to.equal(inputs[0].deviceId);
    expect(el.microphoneId).to.equal(inputs[0].deviceId);
    expect(live(el)).to.equal(true);
    await endCall(el);
  });

  itUnless.NO_SINK('host API: speakerId routes the output at once (setSinkId), before and during a call; a bad value is told and ignored', async function () {
    this.timeout(20000);
    const { sinks, restore } = recordSinks();
    const warned: string[] = [];
    const { warn } = console;
    console.warn = (...args: unknown[]) => void warned.push(args.join(' '));
    try {
      const outputs = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'audiooutput' && d.deviceId && d.deviceId !== 'default');
      const el = await mountWidget('agent_minimal');
      await openPanel(el);
      el.speakerId = outputs[1].deviceId;
      await until(() => sinks.length === 1, 'routed before the call');
      expect(sinks).to.deep.equal([outputs[1].deviceId]);
      expect(el.speakerId).to.equal(outputs[1].deviceId);
      await startCall(el);
      expect(sinks, 'the call plays there, not routed again').to.deep.equal([outputs[1].deviceId]);
      el.speakerId = outputs[0].deviceId;
      await until(() => el.speakerId === outputs[0].deviceId, 'moved during the call, and reflected');
      expect(sinks).to.deep.equal([outputs[1].deviceId, outputs[0].deviceId]);
      (el as unknown as { speakerId: unknown }).speakerId = 42;
      expect(warned.some((line) => line.includes('speakerId must be a device id')), warned.join('\n')).to.equal(true);
      expect(el.speakerId).to.equal(outputs[0].deviceId);
      await endCall(el);
    } finally {
      restore();
      console.warn = warn;
    }
  });

  itUnless.ONE_MICROPHONE('before a call, once the microphone is granted: the sheet beside the call button, its microphone taken by the next call', async function () {
    this.timeout(30000);
    const inputs = await microphones();
    const { el } = await openCall('agent_minimal');
    await endCall(el);
    await until(() => part(el, 'start-call-button'), 'the call button back');
    const toggle = part(el, 'devices-button');
    expect(toggle, 'the devices toggle before a call').to.exist;
    expect(toggle!.nextElementSibling).to.equal(part(el, 'start-call-button'));
    // The sheet shows what the next call asks for: here the page's choice.
    el.microphoneId = inputs[0].deviceId;
    await openSheet(el);
    expect((part(el, 'microphone-select') as HTMLSelectElement).value, 'the next call\'s microphone shown').to.equal(inputs[0].deviceId);
    await expect(el).to.be.accessible();
    choose(el, 'microphone', inputs[1].deviceId);
    await until(() => el.microphoneId === inputs[1].deviceId, 'the choice reflected');
    expect(localStorage.getItem(STORE_KEY), 'not kept until a call starts with it').to.equal(null);
    await startCall(el);
    expect(watch.tracks().at(-1)!.getSettings().deviceId).to.equal(inputs[1].deviceId);
    expect(JSON.parse(localStorage.getItem(STORE_KEY)!).microphone).to.equal(inputs[1].deviceId);
    await endCall(el);
  });

  it('host API: speakerId where the engine has no setSinkId is told in the console and changes nothing (no exception)', async () => {
    const descriptor = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'setSinkId');
    delete (HTMLMediaElement.prototype as { setSinkId?: unknown }).setSinkId;
    try {
      const el = await mountWidget('agent_minimal');
      await openPanel(el);
      const told: string[] = [];
      const { warn } = console;
      console.warn = (...args: unknown[]) => void told.push(args.map(String).join(' '));
      try {
        el.speakerId = 'some-speaker';
        await until(() => told.length > 0, 'told');
      } finally {
        console.warn = warn;
      }
      expect(told.join('\n')).to.include('voice call: the speaker "some-speaker" could not be used');
      expect(el.speakerId).to.equal('');
    } finally {
      if (descriptor) Object.defineProperty(HTMLMediaElement.prototype, 'setSinkId', descriptor);
    }
  });

  itUnless.ONE_MICROPHONE('<html data-voice-agent-no-storage>: the choice holds for the call, nothing is written', async function () {
    this.timeout(20000);
    const inputs = await microphones();
    document.documentElement.setAttribute('data-voice-agent-no-storage', '');
    const { el } = await openCall('agent_minimal');
    await openSheet(el);
    choose(el, 'microphone', inputs[1].deviceId);
    await until(() => watch.tracks().at(-1)!.getSettings().deviceId === inputs[1].deviceId, 'capture moved');
    expect(localStorage.getItem(STORE_KEY)).to.equal(null);
    await endCall(el);
  });
});

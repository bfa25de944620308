/**
 * What the audio controller acquires and releases (DESIGN.md rule 4), and how it reports failures, in each engine.
 * The browser's getUserMedia, AudioContext and URL functions are real; they are only counted on the way through.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { captureWorkletSource, playbackWorkletSource, RESUME_WAIT_MS, SUSPENDED_GRACE_MS } from '../../src/audio/index.js';
import { engine } from '../helpers.js';
import { sleep, until, type AudioTestHost } from './audio-host.js';
import './audio-host.js';

const FORMATS = { inputFormat: 'pcm_16000', outputFormat: 'pcm_16000' };

/** Records every stream, context and Blob URL made while the test runs. */
function watch() {
  const streams: MediaStream[] = [];
  const contexts: AudioContext[] = [];
  const created: string[] = [];
  const revoked: string[] = [];
  const { getUserMedia } = MediaDevices.prototype;
  const NativeAudioContext = window.AudioContext;
  const { createObjectURL, revokeObjectURL } = URL;
  MediaDevices.prototype.getUserMedia = async function (this: MediaDevices, constraints?: MediaStreamConstraints) {
    const stream = await getUserMedia.call(this, constraints);
    streams.push(stream);
    return stream;
  };
  window.AudioContext = class extends NativeAudioContext {
    constructor(options?: AudioContextOptions) {
      super(options);
      contexts.push(this);
    }
  };
  URL.createObjectURL = (object: Blob | MediaSource) => {
    const url = createObjectURL(object);
    created.push(url);
    return url;
  };
  URL.revokeObjectURL = (url: string) => {
    revoked.push(url);
    revokeObjectURL(url);
  };
  return {
    streams,
    contexts,
    created,
    revoked,
    restore() {
      MediaDevices.prototype.getUserMedia = getUserMedia;
      window.AudioContext = NativeAudioContext;
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
    },
    /** Every track ended, every context closed, every Blob URL revoked. */
    async allReleased() {
      await until(() => contexts.every((c) => c.state === 'closed'), 'every context closed', 2000);
      expect(streams.flatMap((s) => s.getTracks()).every((t) => t.readyState === 'ended')).to.equal(true);
      expect(revoked).to.include.members(created);
    },
  };
}

describe('acquiring and releasing', () => {
  let watching: ReturnType<typeof watch>;
  beforeEach(() => (watching = watch()));
  afterEach(() => watching.restore());

  it('stop() ends every track, closes the context, revokes the worklet Blob URLs and empties the <audio>', async () => {
    const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
    expect(await host.audio.start({ ...FORMATS, output: host.player })).to.equal(true);
    const stream = host.audio.stream!;
    const context = host.audio.context!;
    expect(stream.getAudioTracks()).to.have.length(1);
    expect(stream.getAudioTracks()[0].readyState).to.equal('live');
    // Firefox and WebKit report `suspended` for a moment while their output device opens.
    await until(() => context.state === 'running', 'the context running', 3000);
    expect(watching.created).to.have.length(2);
    // The Blob URLs are revoked as soon as the worklets are loaded.
    expect(watching.revoked).to.include.members(watching.created);
    await until(() => host.chunks.length > 3, 'chunks');
    host.audio.stop();
    expect(stream.getTracks().every((t) => t.readyState === 'ended')).to.equal(true);
    await until(() => context.state === 'closed', 'context closed');
    expect(host.player.srcObject).to.equal(null);
    expect(host.audio.context).to.equal(null);
    expect(host.audio.stream).to.equal(null);
    expect(host.audio.output).to.equal(null);
    const count = host.chunks.length;
    await sleep(100);
    expect(host.chunks.length).to.equal(count);
    host.audio.stop();
    expect(host.errors).to.deep.equal([]);
    await watching.allReleased();
  });

  it('removing the host element releases everything the same way', async () => {
    const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
    expect(await host.audio.start({ ...FORMATS, output: host.player })).to.equal(true);
    const stream = host.audio.stream!;
    const context = host.audio.context!;
    host.remove();
    expect(stream.getTracks().every((t) => t.readyState === 'ended')).to.equal(true);
    await until(() => context.state === 'closed', 'context closed');
    await watching.allReleased();
  });

  it('removal during start() leaves nothing running: start() resolves false', async function () {
    // 14 starts, each waiting for its two worklets, one after the other (worklets.ts): seconds on a busy machine.
    this.timeout(40000);
    const interrupted: number[] = [];
    for (const delay of [0, 0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 30]) {
      const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
      let done = false;
      const starting = host.audio.start({ ...FORMATS, output: host.player }).finally(() => (done = true));
      await sleep(delay);
      const early = !done;
      host.remove();
      expect(await starting, `removed after ${delay} ms`).to.equal(!early);
      if (early) interrupted.push(delay);
    }
    expect(interrupted.length).to.be.above(2);
    await watching.allReleased();
    expect(watching.streams.length).to.be.above(0);
  });

  it('start() again stops the previous run first', async () => {
    const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
    await host.audio.start(FORMATS);
    const first = host.audio.context!;
    await host.audio.start({ inputFormat: 'pcm_24000', outputFormat: 'pcm_24000' });
    expect(host.audio.context).not.to.equal(first);
    await until(() => first.state === 'closed', 'first context closed');
    expect(watching.streams[0].getTracks()[0].readyState).to.equal('ended');
    expect(watching.streams[1].getTracks()[0].readyState).to.equal('live');
    host.remove();
    await watching.allReleased();
  });

  it('start() takes over the context and the playing <audio> of prepare() without loading the element again', async () => {
    const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
    const loads: string[] = [];
    host.player.addEventListener('loadstart', () => loads.push('loadstart'));
    host.audio.prepare(host.player);
    const stream = host.player.srcObject;
    await until(() => loads.length === 1, 'the prepared element loads its stream');
    expect(await host.audio.start(FORMATS)).to.equal(true);
    expect(host.audio.context).to.equal(watching.contexts[0]);
    expect(host.player.srcObject === stream, 'the same stream').to.equal(true);
    // a second load (setting srcObject again) would rebuild the element's media pipeline as the call goes live
    await sleep(300);
    expect(loads).to.deep.equal(['loadstart']);
    expect(host.player.paused).to.equal(false);
    host.remove();
    await watching.allReleased();
  });

  it('prepare() feeds its output silence at once, so the browser sets the output up while the call connects', async function () {
    // Whether a track carries audio is visible only through Chromium's MediaStreamTrackProcessor.
    const Processor = (window as { MediaStreamTrackProcessor?: new (init: { track: MediaStreamTrack }) => { readable: ReadableStream<{ numberOfFrames: number; close(): void }> } }).MediaStreamTrackProcessor;
    if (!Processor) this.skip();
    const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
    host.audio.prepare(host.player);
    const track = (host.player.srcObject as MediaStream).getAudioTracks()[0]!;
    const reader = new Processor!({ track }).readable.getReader();
    const frame = await Promise.race([reader.read().then(({ value }) => value), sleep(2000).then(() => null)]);
    expect(frame?.numberOfFrames, 'audio on the output track before start()').to.be.above(0);
    frame?.close();
    reader.releaseLock();
    host.remove();
    await watching.allReleased();
  });

  // WebKitGTK takes about a second a start (its capture pipeline): 30 there.
  const STARTS = engine === 'webkit' ? 30 : 100;
  it(`${STARTS} starts and removals leave no track, context or Blob URL behind`, async function () {
    this.timeout(60000);
    const deadline = Date.now() + 55000;
    // The loop stops at the deadline, so that it never runs on into the next test after a timeout.
    for (let i = 0; i < STARTS && Date.now() < deadline; i++) {
      const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
      await host.audio.start({ ...FORMATS, output: host.player });
      host.remove();
    }
    expect(watching.contexts).to.have.length(STARTS);
    await watching.allReleased();
  });

  it('loads the worklets from given URLs (a page with a strict CSP) and makes no Blob URL', async () => {
    const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
    const url = (source: string) => `data:text/javascript,${encodeURIComponent(source)}`;
    expect(await host.audio.start({ ...FORMATS, workletUrls: { capture: url(captureWorkletSource), playback: url(playbackWorkletSource) } })).to.equal(true);
    expect(watching.created).to.deep.equal([]);
    await until(() => host.chunks.length > 3, 'chunks');
    host.remove();
  });
});

describe('failures', () => {
  it('reports a microphone that cannot be had as no-microphone, and keeps nothing', async () => {
    const watching = watch();
    try {
      const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
      expect(await host.audio.start({ ...FORMATS, constraints: { deviceId: { exact: 'no-such-microphone' } } })).to.equal(false);
      expect(host.errors.map(([kind]) => kind)).to.deep.equal(['no-microphone']);
      expect((host.errors[0][1] as Error).name).to.equal('OverconstrainedError');
      expect(watching.contexts).to.deep.equal([]);
    } finally {
      watching.restore();
    }
  });

  it('reports a bad format as failed before asking for the microphone', async () => {
    const watching = watch();
    try {
      const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
      expect(await host.audio.start({ inputFormat: 'pcm_11025', outputFormat: 'pcm_16000' })).to.equal(false);
      expect(host.errors.map(([kind]) => kind)).to.deep.equal(['failed']);
      expect(watching.streams).to.deep.equal([]);
    } finally {
      watching.restore();
    }
  });

  it('reports a worklet that does not load (a CSP that blocks it) as failed, and releases the microphone', async () => {
    const watching = watch();
    try {
      const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
      expect(await host.audio.start({ ...FORMATS, workletUrls: { capture: 'data:text/javascript,not javascript(' } })).to.equal(false);
      expect(host.errors.map(([kind]) => kind)).to.deep.equal(['failed']);
      await watching.allReleased();
    } finally {
      watching.restore();
    }
  });

  it('moves capture to the default microphone when its own track ends (device unplugged) and another is left: no error, chunks go on', async () => {
    const watching = watch();
    try {
      const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
      await host.audio.start(FORMATS);
      const [track] = host.audio.stream!.getAudioTracks();
      // The browser fires `ended` when the device goes away; a test cannot unplug the fake device, so it fires it.
      track.dispatchEvent(new Event('ended'));
      await until(() => host.fallbacks === 1, 'capture moved');
      expect(watching.streams).to.have.length(2);
      expect(host.audio.stream).to.equal(watching.streams[1]);
      expect(track.readyState, 'the old track stopped').to.equal('ended');
      expect(host.errors).to.deep.equal([]);
      const count = host.chunks.length;
      await until(() => host.chunks.length > count + 5, 'chunks from the new microphone');
      host.remove();
      await watching.allReleased();
    } finally {
      watching.restore();
    }
  });

  it('reports the microphone track ending (device unplugged) with none left as no-microphone and releases everything', async () => {
    const watching = watch();
    try {
      const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
      await host.audio.start(FORMATS);
      // No microphone left to move to.
      const { getUserMedia } = MediaDevices.prototype;
      MediaDevices.prototype.getUserMedia = () => Promise.reject(new DOMException('Requested device not found', 'NotFoundError'));
      try {
        host.audio.stream!.getAudioTracks()[0].dispatchEvent(new Event('ended'));
        await until(() => host.errors.length > 0, 'the error');
      } finally {
        MediaDevices.prototype.getUserMedia = getUserMedia;
      }
      expect(host.errors.map(([kind]) => kind)).to.deep.equal(['no-microphone']);
      expect(host.audio.context).to.equal(null);
      await watching.allReleased();
    } finally {
      watching.restore();
    }
  });

  it('reports a suspended context as suspended, keeps running, and resume() brings it back', async function () {
    // The engine's own suspend() and resume() wait for its output device: seconds in WebKit on a loaded machine.
    this.timeout(20000);
    const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
    await host.audio.start({ ...FORMATS, output: host.player });
    const context = host.audio.context!;
    await until(() => context.state === 'running', 'the context running', 3000);
    // What the browser does to a page without a user gesture, or on a phone call.
    void context.suspend();
    await until(() => host.errors.length > 0, 'an error');
    expect(host.errors.map(([kind]) => kind)).to.deep.equal(['suspended']);
    expect(host.audio.context).to.equal(context);
    const count = host.chunks.length;
    const started = performance.now();
    const resumed = await host.audio.resume();
    // Answered within its bound even where the engine's resume() stays pending, and true once the context runs.
    expect(performance.now() - started).to.be.below(RESUME_WAIT_MS + 1000);
    await until(() => context.state === 'running', 'the context running again', 5000);
    if (!resumed) expect(await host.audio.resume()).to.equal(true);
    await until(() => host.chunks.length > count + 5, 'chunks again');
    host.remove();
  });

  /**
   * Contexts made from now on start `suspended` and stay so (their `resume()` does nothing) until `release()`: what
   * Firefox and WebKit do while their output device opens, or any engine without an output. Returns the restore.
   */
  function heldContexts() {
    const Native = window.AudioContext;
    const made: AudioContext[] = [];
    let held = true;
    window.AudioContext = class extends Native {
      constructor(options?: AudioContextOptions) {
        super(options);
        made.push(this);
        void super.suspend();
      }
      override resume(): Promise<void> {
        return held ? Promise.resolve() : super.resume();
      }
    };
    return {
      made,
      release: () => ((held = false), Promise.all(made.map((c) => c.resume()))),
      restore: () => void (window.AudioContext = Native),
    };
  }

  it(`a context that starts suspended and runs within ${SUSPENDED_GRACE_MS} ms (Firefox, WebKit) is no autoplay refusal`, async () => {
    const contexts = heldContexts();
    try {
      const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
      expect(await host.audio.start({ ...FORMATS, output: host.player })).to.equal(true);
      expect(host.audio.context!.state).to.equal('suspended');
      await sleep(SUSPENDED_GRACE_MS / 2);
      await contexts.release();
      await until(() => host.audio.context!.state === 'running', 'running', 3000);
      await sleep(SUSPENDED_GRACE_MS);
      expect(host.errors, 'nothing told').to.deep.equal([]);
      host.remove();
    } finally {
      contexts.restore();
    }
  });

  it(`a context still suspended after ${SUSPENDED_GRACE_MS} ms is told then, and the call keeps its resources`, async () => {
    const contexts = heldContexts();
    try {
      const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
      expect(await host.audio.start({ ...FORMATS, output: host.player })).to.equal(true);
      await sleep(SUSPENDED_GRACE_MS - 500);
      expect(host.errors, 'nothing told within the grace').to.deep.equal([]);
      await until(() => host.errors.length > 0, 'told after the grace', 2000);
      // No user gesture in this page yet: a click may bring the sound (else the engine has no output: output-lost).
      const gesture = (navigator as { userActivation?: { hasBeenActive: boolean } }).userActivation?.hasBeenActive;
      expect(host.errors.map(([kind]) => kind)).to.deep.equal([gesture === false ? 'suspended' : 'output-lost']);
      expect(String(host.errors[0][1])).to.include(`did not start within ${SUSPENDED_GRACE_MS} ms`);
      expect(host.audio.context, 'kept: a click may still resume it').not.to.equal(null);
      host.remove();
    } finally {
      contexts.restore();
    }
  });

  it(`resume() answers within ${RESUME_WAIT_MS} ms where the engine's resume() stays pending`, async () => {
    const contexts = heldContexts();
    try {
      const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
      expect(await host.audio.start({ ...FORMATS, output: host.player })).to.equal(true);
      const context = host.audio.context!;
      context.resume = () => new Promise<void>(() => {});
      const started = performance.now();
      expect(await host.audio.resume(), 'the context is not running').to.equal(false);
      expect(performance.now() - started).to.be.within(RESUME_WAIT_MS - 50, RESUME_WAIT_MS + 1000);
      host.remove();
    } finally {
      contexts.restore();
    }
  });

  it('reports an output failure of the context as output-lost and keeps running', async () => {
    const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
    await host.audio.start(FORMATS);
    // Chromium fires `error` on the context when its output device fails; a test cannot break the fake one, so it fires it.
    host.audio.context!.dispatchEvent(new Event('error'));
    expect(host.errors.map(([kind]) => kind)).to.deep.equal(['output-lost']);
    expect(host.audio.context!.state).to.equal('running');
    host.remove();
  });

  it('a devicechange that leaves the microphone in place reports nothing', async () => {
    const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
    await host.audio.start(FORMATS);
    navigator.mediaDevices.dispatchEvent(new Event('devicechange'));
    await sleep(200);
    expect(host.errors).to.deep.equal([]);
    host.remove();
  });
});

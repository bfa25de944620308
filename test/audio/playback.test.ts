/**
 * Playback of the agent's voice in each engine, heard at an AnalyserNode tapped on the playback path
 * (`controller.output`, the node that feeds the `<audio>` element). Nothing is faked.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { engine } from '../helpers.js';
import { sleep, tap, tone, until, type AudioTestHost } from './audio-host.js';
import './audio-host.js';

async function started(outputFormat = 'pcm_16000', inputFormat = 'pcm_16000', playout?: { prebufferMs?: number; hangoverMs?: number }) {
  const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
  expect(await host.audio.start({ inputFormat, outputFormat, output: host.player, playout }), String(host.errors[0]?.[1])).to.equal(true);
  return host;
}

describe('playback', () => {
  it('plays a 440 Hz tone (PCM 16 kHz, base64) into the <audio> element, heard on the playback path with its level and turn', async () => {
    const host = await started();
    const ear = tap(host.audio.output!, 4096);
    expect(host.player.srcObject).to.be.instanceOf(MediaStream);
    expect((host.player.srcObject as MediaStream).getAudioTracks()).to.have.length(1);
    await until(() => !host.player.paused, 'the <audio> element plays');
    expect(ear.rms()).to.equal(0);
    expect(host.audio.play(tone(440, 16000, 1), 1)).to.equal(true);
    await ear.steady(440, 0.5 / Math.SQRT2);
    // The worklet's level and turn messages: WebKitGTK hands them over late and in bursts, so waited for.
    await until(() => host.levels.some(([, output]) => Math.abs(output - 0.5 / Math.SQRT2) < 0.01), 'the output level reported', 2000);
    await until(() => host.states.length >= 2, 'speaking reported', 2000);
    expect(host.states.slice(0, 2).map(([state]) => state)).to.deep.equal(['listening', 'speaking']);
    await until(() => host.states.length === 3, 'drained', 2000);
    expect(host.states[2][0]).to.equal('listening');
    // The tone lasted 1 s of context time.
    expect(host.states[2][1] - host.states[1][1]).to.be.closeTo(1, 0.02);
    await until(() => ear.silent(), 'silence after the tone');
    await until(() => host.levels.at(-1)![1] === 0, 'output level 0');
    expect(host.errors).to.deep.equal([]);
  });

  it('interrupt() silences it at once, drops a late chunk of the interrupted event, and plays the next event', async function () {
    this.timeout(15000);
    const host = await started();
    const ear = tap(host.audio.output!, 128);
    for (let round = 0; round < 10; round++) {
      const id = round * 2 + 1;
      expect(host.audio.play(tone(440, 16000, 2), id)).to.equal(true);
      // Heard, and reported: WebKitGTK's worklet messages (the turn) may come after the analyser hears the tone.
      await until(() => ear.rms() > 0.3 && host.states.at(-1)![0] === 'speaking', 'the tone, reported as speaking');
      await sleep(50 + 10 * round);
      host.audio.interrupt(id);
      await until(() => ear.silent(), 'silence after interrupt', 1000);
      await until(() => host.states.at(-1)![0] === 'listening', 'listening after interrupt', 1000);
      // A late chunk of the same event (and an older one) is dropped.
      expect(host.audio.play(tone(440, 16000, 0.5), id)).to.equal(false);
      expect(host.audio.play(tone(440, 16000, 0.5), id - 1)).to.equal(false);
      await sleep(100);
      expect(ear.silent()).to.equal(true);
    }
    // How fast is for npm run bench:audio to measure; here: silence comes (within 1 s, above) and late audio stays out.
    // The next event plays.
    expect(host.audio.play(tone(440, 16000, 0.3), 21)).to.equal(true);
    await until(() => ear.rms() > 0.3, 'the next event');
    host.audio.stop();
  });

  it('resamples the agent voice to the context rate: 16 kHz PCM into a 24 kHz context keeps its pitch', async () => {
    const host = await started('pcm_16000', 'pcm_24000');
    expect(host.audio.context!.sampleRate).to.equal(24000);
    const ear = tap(host.audio.output!, 8192);
    host.audio.play(tone(440, 16000, 1), 1);
    await ear.steady(440, 0.5 / Math.SQRT2);
    await until(() => host.states.length === 3, 'drained', 2000);
    expect(host.states[2][1] - host.states[1][1]).to.be.closeTo(1, 0.02);
  });

  it('plays μ-law 8 kHz agent audio (ulaw_8000) at its pitch', async () => {
    const host = await started('ulaw_8000');
    const ear = tap(host.audio.output!, 4096);
    host.audio.play(tone(440, 8000, 1, { ulaw: true }), 1);
    await ear.steady(440, 0.5 / Math.SQRT2);
  });

  it('queues consecutive chunks without gaps: 25 chunks of 40 ms play as 1 s of unbroken tone', async () => {
    const host = await started();
    const ear = tap(host.audio.output!, 128);
    const samples = Math.round(16000 * 0.04);
    // One continuous sine cut into chunks: the phase carries on across chunk edges.
    const whole = atob(tone(440, 16000, 1));
    for (let i = 0; i < 25; i++) host.audio.play(btoa(whole.slice(i * samples * 2, (i + 1) * samples * 2)), 1);
    await until(() => host.states.length === 3, 'drained', 3000);
    expect(host.states.map(([state]) => state)).to.deep.equal(['listening', 'speaking', 'listening']);
    expect(host.states[2][1] - host.states[1][1]).to.be.closeTo(1, 0.02);
    await until(() => ear.silent(), 'silence after the tone');
  });

  it('a playout delay holds a talk spurt back by prebufferMs of context time, then plays it whole', async () => {
    const host = await started('pcm_16000', 'pcm_16000', { prebufferMs: 60 });
    const queuedAt = host.audio.context!.currentTime;
    host.audio.play(tone(440, 16000, 0.2), 1);
    await until(() => host.states.length === 3, 'played and drained', 3000);
    const [, speaking, listening] = host.states;
    // The first sample goes out no sooner than 60 ms (one render quantum of slack for when play() landed) after it came.
    expect(speaking![1] - queuedAt).to.be.at.least(0.06 - 128 / host.audio.context!.sampleRate);
    expect(listening![1] - speaking![1]).to.be.closeTo(0.2, 0.01);
  });

  it('a hangover keeps the turn through a gap shorter than hangoverMs, and the drained time is the last sample out', async () => {
    // WebKitGTK renders in bursts and runs the page's timers late beside them: a 100 ms gap timed by the page once came
    // to more than 300 ms at the worklet in a whole run, so there the hangover is 600 ms (the gap stays far shorter).
    const hangover = engine === 'webkit' ? 0.6 : 0.3;
    // A machine busy enough (a CI run's other work beside WebKitGTK's bursts) can still make the gap at the worklet
    // longer than the hangover; then a second turn is right, and the worklet's own times show it: the case is run
    // again (three tries at most). A second turn after a gap shorter than the hangover fails at once.
    let host: AudioTestHost;
    for (let attempt = 1; ; attempt++) {
      host = await started('pcm_16000', 'pcm_16000', { hangoverMs: hangover * 1000 });
      host.audio.play(tone(440, 16000, 0.1), 1);
      // The second chunk 200 ms after the first (a gap of about 100 ms), timed from the play, not from the speaking
      // state: WebKitGTK hands the worklet's messages over late and in bursts.
      await sleep(200);
      host.audio.play(tone(440, 16000, 0.1), 1);
      await until(() => host.states.length >= 2, 'speaking');
      await until(() => host.states.length >= 3, 'drained after the hangover', 3000);
      await sleep(hangover * 1000 + 100); // long enough for a second turn's states to show, had the gap ended the first
      // The gap the worklet saw (context time): from the end of the first chunk (0.1 s) to the second turn's start.
      const gap = host.states.length > 3 ? host.states[3]![1] - host.states[1]![1] - 0.1 : 0;
      if (gap <= hangover || attempt === 3) break;
      host.remove();
    }
    expect(host.states.map(([state]) => state), 'one turn, no flicker').to.deep.equal(['listening', 'speaking', 'listening']);
    // Drained at the end of the second chunk's last sample (about 0.3 s after the first began, later by as much as
    // the second chunk came late), not at the end of the hangover (a hangover after that: 0.3 + hangover s or more).
    expect(host.states[2]![1] - host.states[1]![1]).to.be.lessThan(0.2 + hangover);
  });

  it('holds audio played while start() is under way, and plays it once running', async () => {
    const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
    const starting = host.audio.start({ inputFormat: 'pcm_16000', outputFormat: 'pcm_16000', output: host.player });
    expect(host.audio.play(tone(440, 16000, 0.5), 1)).to.equal(true);
    expect(await starting).to.equal(true);
    await until(() => host.states.some(([state]) => state === 'speaking'), 'the held audio plays');
  });

  it('plays nothing before start(), and drops bad base64', async () => {
    const host = await fixture<AudioTestHost>(html`<audio-test-host></audio-test-host>`);
    expect(host.audio.play(tone(440, 16000, 0.1), 1)).to.equal(false);
    await host.audio.start({ inputFormat: 'pcm_16000', outputFormat: 'pcm_16000', output: host.player });
    expect(host.audio.play('not base64!', 1)).to.equal(false);
    expect(host.errors).to.deep.equal([]);
  });
});

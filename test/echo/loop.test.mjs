// "Never hears itself" (issue 19, PROTOCOL.md section 3): the built widget in a voice call on a real audio loop
// (rig.mjs: a private PulseAudio whose microphone is its speaker's monitor, headful Chromium and Firefox under Xvfb
// with their real devices, the reference service in this process), judged at the service:
// - while the agent speaks its 5.5 s greeting, its first second included, every user_audio_chunk stays under
//   -45 dBFS and the service's VAD detects no speech (no self-interruption), although the loop brings the agent's
//   voice back to the microphone at about -22 dBFS (asserted too: the loop works, so a quiet input means something);
// - a visitor who speaks over the agent (test/fixtures/speech.wav, about -20 dBFS, played into the loop 0.5 s into the
//   greeting) interrupts it: the service sends `interruption` for the greeting.
// Run: npm run build && node --test test/echo/ (needs chromium, firefox-esr, xvfb, pulseaudio, pulseaudio-utils).
// ENGINES=chromium (or firefox) runs one engine; ECHO_DIST=<folder> judges another build than dist/ (a widget before a
// change, to see the checks fail).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { callOnce, ECHO_LIMIT_DBFS, launchBrowser, startEchoService, startLoop } from './rig.mjs';

/** The loop brings the agent's voice back at least this loud (dBFS, RMS over the greeting): the echo is there to hold. */
const LOOP_MIN_DBFS = -30;
/** When the visitor speaks over the agent (ms after the greeting's first chunk went out): its first second. */
const BARGE_IN_AT_MS = 500;
/** The longest a barge-in may take to interrupt the agent (ms from the voice's start; measured about 1.1 s). */
const BARGE_IN_LIMIT_MS = 2500;

const engines = (process.env.ENGINES || 'chromium,firefox').split(',').filter((e) => ['chromium', 'firefox'].includes(e));

let loop;
let service;
before(async () => {
  loop = await startLoop();
  service = await startEchoService(process.env.ECHO_DIST ? { dist: pathToFileURL(`${resolve(process.env.ECHO_DIST)}/`) } : {});
});
after(async () => {
  await service?.close();
  await loop?.stop();
});

/** The chunks (`[ms from the greeting's first chunk, dBFS]`) at or above the limit, as text for a failure. */
const loud = (chunks) => chunks.filter(([, db]) => db >= ECHO_LIMIT_DBFS).map(([ms, db]) => `${ms} ms: ${db} dBFS`).join(', ');

for (const engine of engines) {
  describe(`${engine} on a real audio loop`, () => {
    let browser;
    before(async () => {
      browser = await launchBrowser(engine, loop.env);
    });
    after(async () => {
      await browser?.close();
    });

    test('the agent\'s voice comes back in the microphone, and never reaches the service as the visitor\'s', async () => {
      const call = await callOnce(browser, { service, loop });
      assert.deepEqual(call.errors, []);
      assert.ok(call.echo.first.maxDbfs < ECHO_LIMIT_DBFS, `first second: ${loud(call.chunks)}`);
      assert.ok(call.echo.rest.maxDbfs < ECHO_LIMIT_DBFS, `after the first second: ${loud(call.chunks)}`);
      assert.deepEqual(call.speech, [], `the service's VAD detected speech: the agent interrupted itself (${loud(call.chunks)})`);
      assert.equal(call.cancelledAtMs, null);
      // The checks above judged something: the loop brought the agent's voice back, loud, the whole greeting long, and
      // the microphone ran all along (50 chunks a second; some may come in a burst).
      assert.ok(call.raw >= LOOP_MIN_DBFS, `the loop brought the agent back at ${call.raw} dBFS: no echo to judge`);
      assert.ok(call.heardMs[1] - call.heardMs[0] > 4000, `the loop carried the greeting ${call.heardMs.join('–')} ms`);
      const restMs = call.heardMs[1] + 500 - (call.heardMs[0] + 1000);
      assert.ok(call.echo.first.count >= 40, `${call.echo.first.count} chunks in the first second`);
      assert.ok(call.echo.rest.count >= (restMs / 20) * 0.8, `${call.echo.rest.count} chunks in the ${restMs} ms after the first second`);
    });

    test('a visitor who speaks over the agent in its first second interrupts it', async () => {
      const call = await callOnce(browser, { service, loop, bargeInAtMs: BARGE_IN_AT_MS });
      assert.deepEqual(call.errors, []);
      const before = call.chunks.filter(([ms]) => ms < call.bargeIn.voiceAtMs);
      assert.ok(before.every(([, db]) => db < ECHO_LIMIT_DBFS), `before the visitor spoke: ${loud(before)}`);
      assert.ok(call.speech.every((s) => s.atMs >= call.bargeIn.voiceAtMs), `speech detected before the visitor spoke: ${JSON.stringify(call.speech)}`);
      assert.notEqual(call.bargeIn.detectedMs, null, `no interruption (VAD: ${JSON.stringify(call.speech)})`);
      assert.ok(call.bargeIn.detectedMs <= BARGE_IN_LIMIT_MS, `the interruption came ${call.bargeIn.detectedMs} ms after the voice`);
      assert.notEqual(call.cancelledAtMs, null, 'the greeting was cut short');
      // The voice itself reached the service, loud.
      assert.ok(call.chunks.some(([ms, db]) => ms >= call.bargeIn.voiceAtMs && db > -30), 'the visitor\'s voice never reached the service');
    });
  });
}

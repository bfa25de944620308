// npm run bench:echo: the echo figures of issue 19 ("Never hears itself"), measured at the reference service on a real
// audio loop (test/echo/rig.mjs: PulseAudio's speaker monitor as the microphone, headful Chromium and Firefox under
// Xvfb, the built widget in a voice call, the agent greeting for 5.5 s). For each engine, over `--runs` calls (default 3):
// - the echo: the level of the user_audio_chunks the service received while the loop carried the agent's voice, its
//   first second and the rest (the loudest 20 ms chunk, and the RMS over the window, dBFS), and the loop's own level;
// - the VAD: how many starts of speech the service detected while the agent spoke (each one interrupts it);
// - the barge-in: a recorded voice (test/fixtures/speech.wav, about -20 dBFS) played into the loop 0.5 s into the
//   greeting (`--barge-in-at ms` for another moment); the time from its start (the player's) to the service's
//   interruption, or "none".
// `--dist <folder>` measures another build (default dist/: `npm run build` first), e.g. one of the widget before a change.
// ECHO_GREETING=<text> has the agent say another greeting (test/echo/rig.mjs `GREETING`), e.g. one with no pause.
// A benchmark: it prints, it asserts nothing (test/echo/loop.test.mjs asserts).
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { callOnce, ECHO_LIMIT_DBFS, launchBrowser, meanDbfs, startEchoService, startLoop } from '../test/echo/rig.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'barge-in-at': { type: 'string', default: '500' },
    dist: { type: 'string' },
    engines: { type: 'string', default: process.env.ENGINES || 'chromium,firefox' },
  },
});
const runs = Number(values.runs);
const bargeInAtMs = Number(values['barge-in-at']);
const dist = values.dist ? pathToFileURL(`${resolve(values.dist)}/`) : undefined;

const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : NaN;
};

const loop = await startLoop();
const service = await startEchoService(dist ? { dist } : {});
console.log(`load average before: ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}`);
try {
  for (const engine of values.engines.split(',')) {
    const browser = await launchBrowser(engine, loop.env);
    try {
      const echo = [];
      const barge = [];
      for (let i = 0; i < runs; i++) echo.push(await callOnce(browser, { service, loop }));
      for (let i = 0; i < runs; i++) barge.push(await callOnce(browser, { service, loop, bargeInAtMs }));
      const window = (part) => {
        const max = Math.max(...echo.map((c) => c.echo[part].maxDbfs));
        const mean = meanDbfs(echo.map((c) => c.echo[part].meanDbfs));
        return `loudest chunk ${max} dBFS, RMS ${mean} dBFS`;
      };
      const overLimit = echo.map((c) => Math.max(c.echo.first.maxDbfs, c.echo.rest.maxDbfs) >= ECHO_LIMIT_DBFS).filter(Boolean).length;
      const detections = echo.reduce((n, c) => n + c.speech.length, 0);
      const times = barge.map((c) => c.bargeIn.detectedMs);
      const early = barge.filter((c) => c.speech.some((s) => s.atMs < c.bargeIn.voiceAtMs)).length;
      console.log(`\n${engine} (${runs} calls of the greeting, ${runs} with a barge-in at ${bargeInAtMs} ms)`);
      console.log(`  the loop's own level (the agent's voice back in the microphone, raw): ${median(echo.map((c) => c.raw))} dBFS (median)`);
      console.log(`  echo at the service, first second: ${window('first')}`);
      console.log(`  echo at the service, the rest:      ${window('rest')}`);
      console.log(`  calls with a chunk at or over ${ECHO_LIMIT_DBFS} dBFS: ${overLimit} of ${runs}`);
      console.log(`  VAD detections while the agent spoke alone: ${detections} (each one a self-interruption)`);
      console.log(`  barge-in: detected in ${times.filter((t) => t !== null).length} of ${runs}, ${times.map((t) => (t === null ? 'none' : `${t} ms`)).join(', ')} from the voice's start to the interruption (median ${median(times.filter((t) => t !== null))} ms); self-interrupted before the voice: ${early}`);
    } finally {
      await browser.close();
    }
  }
} finally {
  console.log(`\nload average after: ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  await service.close();
  await loop.stop();
}

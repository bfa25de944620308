// Audio latency benchmark (`npm run bench:audio`): bundles bench/audio-page.ts with esbuild (in memory), serves it on
// 127.0.0.1 (a secure context, so getUserMedia works), runs it in headless Debian Chromium with the fake microphone
// playing test/fixtures/speech.wav (the flags of scripts/chromium.mjs), and prints medians (ms) with p90 and n:
// the capture chunk interval, play() → first sample at the output, interrupt() → silence. Exits 1 on failure.
// Measures only; it asserts nothing (no timing assertions belong in the tests).
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumArgsWithFakeMicrophone, chromiumPath } from '../scripts/chromium.mjs';

const TIMEOUT_MS = 60_000;

// Whatever hangs, the process ends (the page has its own 60 s limit below).
const watchdog = setTimeout(() => {
  console.error('bench:audio: no result after 120 s, giving up');
  process.exit(1);
}, 120_000);
watchdog.unref();

let server;
let browser;
let failed = false;
try {
  if (!existsSync(chromiumPath)) throw new Error(`no Chromium at ${chromiumPath} (set CHROMIUM_PATH)`);

  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./audio-page.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)),
    write: false,
    logLevel: 'error',
  });
  const script = bundle.outputFiles[0].contents;
  const html = '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>bench:audio</title><body><script src="/audio-page.js"></script>';

  server = createServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else if (req.url === '/audio-page.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else res.writeHead(404).end();
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/`;

  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgsWithFakeMicrophone(),
  });
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && console.error(`page console: ${message.text()}`));
  await page.goto(url);
  await page.waitForFunction(() => window.__done === true, null, { timeout: TIMEOUT_MS, polling: 100 });
  const { results, error } = await page.evaluate(() => ({ results: window.__results, error: window.__error }));
  if (error) throw new Error(`the benchmark page failed: ${error}`);
  if (!results) throw new Error('the benchmark page gave no results');

  const ms = (v) => (Number.isFinite(v) ? v.toFixed(1) : '-').padStart(8);
  const row = (label, s) => console.log(`${label.padEnd(48)}${ms(s.median)}${ms(s.mean)}${ms(s.p90)}${ms(s.min)}${ms(s.max)}${String(s.n).padStart(5)}`);
  const { context: c, analyser: a, capture, firstSample: f, interruption: i } = results;
  console.log(`Chromium ${browser.version()}, AudioContext ${c.sampleRate} Hz, baseLatency ${c.baseLatencyMs.toFixed(1)} ms, outputLatency ${c.outputLatencyMs.toFixed(1)} ms`);
  console.log(
    `analyser window ${a.fftSize} samples (${a.windowMs.toFixed(1)} ms), polled every ${a.meanPollIntervalMs.toFixed(3)} ms on average; ` +
      `capture chunks of ${capture.bytesPerChunk} bytes recorded for ${capture.recordedMs} ms`,
  );
  console.log('');
  console.log(`${'(ms)'.padEnd(48)}${'median'.padStart(8)}${'mean'.padStart(8)}${'p90'.padStart(8)}${'min'.padStart(8)}${'max'.padStart(8)}${'n'.padStart(5)}`);
  row('capture chunk interval (onChunk, main thread)', capture.intervalMs);
  row('  same, in context time', capture.contextIntervalMs);
  row('play() -> first sample at the output', f.atOutputMs);
  row('  heard at the analyser', f.atAnalyserMs);
  row("  'speaking' on the main thread", f.speakingOnMainThreadMs);
  row('  rendered (context time)', f.renderedContextMs);
  row('interrupt() -> silence at the analyser', i.toSilenceMs);
  row("  'listening' rendered (context time)", i.toDrainedContextMs);
  if (Math.abs(capture.intervalMs.median - capture.intervalMs.mean) > 2) {
    console.log('note: the capture chunks reach the main thread in bursts of the audio device callback, so the interval median depends on their phase; the mean is the rate');
  }
  if (!c.outputTimestampValid) console.log('note: getOutputTimestamp() returned zeros, so "at the output" is not meaningful');
  if (results.errors.length) {
    console.error(`the audio controller reported errors: ${results.errors.join('; ')}`);
    failed = true;
  }
} catch (error) {
  console.error(`bench:audio failed: ${error?.stack ?? error}`);
  failed = true;
} finally {
  await browser?.close().catch(() => {});
  await new Promise((resolve) => (server?.listening ? server.close(resolve) : resolve()));
}
process.exit(failed ? 1 : 0);

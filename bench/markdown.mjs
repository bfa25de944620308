#!/usr/bin/env node
// npm run bench:markdown: how long the markdown pipeline (src/markdown/render.ts: marked → DOMPurify → link policy)
// takes to render one long agent text, in each engine (Chromium, Firefox ESR, WebKitGTK; scripts/engines.mjs;
// ENGINES=… picks). Three texts at 16, 50 and 200 KB: `lines` (one paragraph of lines with bold, a link, raw HTML and
// code), `paragraphs` (the same lines as paragraphs) and `brackets` (one line of `[` then `(`, marked's worst case).
// Prints the median of --runs (3) renderMarkdown calls per text, in ms. --module PATH bundles another copy of
// render.ts (an older version, to compare). Nothing here is a test: it measures and prints.
import { build } from 'esbuild';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import * as puppeteer from 'puppeteer-core';
import { chromiumPath } from '../scripts/chromium.mjs';
import { chosenEngines, firefoxPath, firefoxPrefs, startEngineServices, webkitSession } from '../scripts/engines.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, module: { type: 'string', default: 'src/markdown/render.ts' } } });
const RUNS = Number(values.runs);
const SIZES = [16_000, 50_000, 200_000];

const bundle = (await build({ entryPoints: [values.module], bundle: true, format: 'iife', globalName: 'R', write: false, minify: true, logLevel: 'error' }))
  .outputFiles[0].text;

/** The page's measurement, as source text (each driver evaluates a string): resolves to [text, size, median ms][]. */
const measure = `(() => {
  const policy = { allowedHosts: ['acme.example.com'], includeWww: false, allowHttp: false, pageUrl: location.href };
  const line = '**Item** with [a link](https://acme.example.com/x) and <b onclick="x">html</b> and \`code\`.\\n';
  const texts = { lines: (n) => line.repeat(Math.ceil(n / line.length)), paragraphs: (n) => line.repeat(Math.ceil(n / line.length)).replace(/\\n/g, '\\n\\n'), brackets: (n) => '['.repeat(n / 2) + '('.repeat(n / 2) };
  const rows = [];
  for (const size of ${JSON.stringify(SIZES)}) for (const [name, make] of Object.entries(texts)) {
    const text = make(size);
    const times = [];
    for (let i = 0; i < ${RUNS}; i++) { const t = performance.now(); R.renderMarkdown(text, policy); times.push(performance.now() - t); }
    times.sort((a, b) => a - b);
    rows.push([name, size, Math.round(times[Math.floor(times.length / 2)])]);
  }
  return rows;
})()`;

const server = createServer((req, res) =>
  req.url === '/render.js'
    ? res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle)
    : res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>markdown bench</title><script src="/render.js"></script>'),
).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

/** Opens the page in a Playwright or Puppeteer browser (the same calls in both), evaluates `measure`, closes it. */
async function inPage(browser) {
  try {
    const page = await browser.newPage();
    await page.goto(url);
    return await page.evaluate(measure);
  } finally {
    await browser.close();
  }
}

/** Each engine: opens the page, evaluates `measure`, closes. */
const runners = {
  chromium: async () => inPage(await chromium.launch({ executablePath: chromiumPath, headless: true })),
  firefox: async (services) =>
    inPage(await puppeteer.launch({ browser: 'firefox', executablePath: firefoxPath, headless: true, extraPrefsFirefox: firefoxPrefs, env: services.env })),
  async webkit(services) {
    const { call, close } = await webkitSession(services.webkitDriverPort);
    try {
      await call('POST', '/timeouts', { script: 3_600_000 });
      await call('POST', '/url', { url });
      return await call('POST', '/execute/sync', { script: `return ${measure}`, args: [] });
    } finally {
      await close();
    }
  },
};

const engines = chosenEngines();
const services = await startEngineServices(engines);
try {
  console.log(`renderMarkdown, median of ${RUNS} (ms), ${values.module}`);
  for (const engine of engines) {
    const rows = await runners[engine](services);
    console.log(`${engine.padEnd(9)} ${rows.map(([name, size, ms]) => `${name} ${size / 1000} KB ${ms}`).join(' · ')}`);
  }
} finally {
  services.stop();
  server.close();
}

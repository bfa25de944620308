// Transcript benchmark (`npm run bench:transcript`): the main-thread cost of one streamed agent delta with 10, 100,
// 1,000 and 2,000 messages already in the transcript (issue 11 item 5: 1,000 within 1.5x of 10). Measures only; it
// asserts nothing (no timing assertions belong in the tests), and exits 1 only when it could not measure.
//
// The real <voice-agent-widget> as a site embeds it (the script-tag build, `vite build --mode script` into a temporary
// folder: minified templates, the conversation chunk loaded on intent; SOURCE=1 bundles src/define.ts with esbuild
// instead) in headless Debian Chromium (scripts/chromium.mjs), in a real text conversation with the reference service
// (demo/service, startService on 127.0.0.1, one origin with the page) over a real socket, driven by
// bench/transcript-page.ts. For each size, a page of its own fills the transcript (frames handed to the widget's
// socket, as the integration tests inject them); then, round by round (the sizes taking turns, so a shared machine's
// load falls on each alike), one long markdown reply (REPLY below, about 1,500 characters: paragraphs, emphasis, links,
// lists, a code block, a table) is streamed as `agent_chat_response_part` deltas of 2-3 words (the reference service's
// own split), one delta per rendered frame.
//
// Per delta, medians over the reply's deltas (ms):
// - main thread (trace): every task the renderer's main thread ran from the delta's dispatch until its frame was
//   rendered (RunTask events of a Chromium trace, between the page's User Timing marks), split into script (the rest:
//   the socket's message, the element's update, and the frame's own bookkeeping), style + layout (UpdateLayoutTree,
//   Layout) and paint (PrePaint, Paint, Layerize, Commit, and the intersection observations that content-visibility
//   runs on);
// - in the page: dispatch → the element's update done (`updateComplete`), and a forced style + layout right after it.
// The table ends with the shadow elements one plain text message adds (a visitor's, an agent's with its like and
// dislike), and the ratios of the 1,000- and 2,000-message medians to the 10-message ones.
//
// SIZES=10,1000 (comma-separated message counts), REPEAT=n (replies per size, default 3), SOURCE=1 (see above) and
// TRACE_OUT=/tmp/t (writes each trace to /tmp/t-<size>-<round>.json, for the DevTools performance panel) change the run.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startService } from '../demo/service/service.mjs';
import { splitReply } from '../demo/service/script.mjs';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';

const SIZES = (process.env.SIZES ?? '10,100,1000,2000').split(',').map(Number).filter((n) => n > 0);
const REPEAT = Math.max(1, Number(process.env.REPEAT ?? 3));
const SOURCE = process.env.SOURCE === '1';
const TRACE_OUT = process.env.TRACE_OUT;
const TIMEOUT_MS = 240_000;

/** The streamed reply: long markdown, as an agent might answer (links to the allowed host, a code block, a table). */
const REPLY = [
  '## What the plans include',
  'Thanks for asking! Here is **everything** you need to know about the plans, with links to the [pricing page](https://example.com/pricing) and the [documentation](https://example.com/docs/start).',
  'Each plan includes:\n\n1. **Starter**: up to 3 agents, 1,000 minutes a month, email support.\n2. **Team**: up to 20 agents, 10,000 minutes, _priority_ support and analytics.\n3. **Enterprise**: unlimited agents, custom minutes, a dedicated manager and single sign-on.',
  'You can change plans at any time: the difference is prorated to the day, and unused minutes carry over for one month. Downgrades take effect at the end of the billing period, so nothing is lost in between.',
  '> Tip: the yearly billing saves two months compared with paying monthly.',
  'To estimate your usage, this snippet adds up the minutes of your recent conversations:',
  '```js\nconst minutes = conversations\n  .filter((c) => c.status === "done")\n  .reduce((sum, c) => sum + c.durationSecs / 60, 0);\nconsole.log(`${Math.ceil(minutes)} minutes`);\n```',
  '| Plan | Agents | Minutes |\n| --- | --- | --- |\n| Starter | 3 | 1,000 |\n| Team | 20 | 10,000 |\n| Enterprise | unlimited | custom |',
  'If you have questions about invoices, taxes or payment methods, the [billing FAQ](https://example.com/docs/billing) answers most of them; otherwise reply here and I will help you find the right plan for your team.',
  'Would you like me to compare two plans in more detail, or to explain how the minutes are counted for voice calls and text conversations?',
].join('\n\n');

/** The agent of the run: a text conversation with the transcript, ratings during it, links to example.com allowed. */
const AGENT = {
  name: 'bench transcript agent',
  conversation_config: { agent: { first_message: 'Hello! How can I help you today?' } },
  platform_settings: {
    widget: {
      transcript_enabled: true, text_input_enabled: true, supports_text_only: true, feedback_mode: 'during',
      markdown_link_allowed_hosts: [{ hostname: 'example.com' }],
    },
  },
};

const watchdog = setTimeout(() => {
  console.error(`bench:transcript: no result after ${TIMEOUT_MS / 1000} s, giving up`);
  process.exit(1);
}, TIMEOUT_MS);
watchdog.unref();

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** Median of `values` (NaN for none). */
function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  if (!n) return NaN;
  return n % 2 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** Trace events that are rendering work of a frame, by the column they count in. */
const STYLE_LAYOUT = new Set(['UpdateLayoutTree', 'Layout', 'RecalculateStyles']);
const PAINT = new Set(['PrePaint', 'Paint', 'PaintImage', 'Layerize', 'Commit', 'UpdateLayer', 'UpdateLayerTree', 'CompositeLayers', 'IntersectionObserverController::computeIntersections']);

/**
 * Per delta, the renderer main thread's busy time in the window between the page's `delta:<i>:start` and
 * `delta:<i>:end` marks: `total` (RunTask events, clipped to the window), `styleLayout` and `paint` (their events,
 * outermost only) and `script` (the rest), in ms.
 * @param {{traceEvents: any[]} | any[]} trace
 */
function perDelta(trace) {
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const marks = events.filter((e) => e.cat?.includes('blink.user_timing') && /^delta:\d+:(start|end)$/.test(e.name));
  if (!marks.length) throw new Error('no User Timing marks in the trace');
  const { pid, tid } = marks[0];
  const main = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && typeof e.dur === 'number');
  const windows = new Map();
  for (const mark of marks) {
    const [, i, edge] = mark.name.split(':');
    const w = windows.get(i) ?? {};
    w[edge] = mark.ts;
    windows.set(i, w);
  }
  const tasks = main.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
  const sum = (list, start, end) => {
    // Outermost events only: an event inside one already counted is skipped.
    let total = 0;
    let coveredUntil = -Infinity;
    for (const e of list) {
      const s = Math.max(e.ts, start);
      const f = Math.min(e.ts + e.dur, end);
      if (f <= s || e.ts + e.dur <= coveredUntil) continue;
      total += f - Math.max(s, coveredUntil);
      coveredUntil = Math.max(coveredUntil, f);
    }
    return total / 1000;
  };
  const sorted = (filter) => main.filter(filter).sort((a, b) => a.ts - b.ts);
  const taskList = tasks.sort((a, b) => a.ts - b.ts);
  const styleList = sorted((e) => STYLE_LAYOUT.has(e.name));
  const paintList = sorted((e) => PAINT.has(e.name));
  const rows = [];
  for (const { start, end } of windows.values()) {
    if (start === undefined || end === undefined) continue;
    const total = sum(taskList, start, end);
    const styleLayout = sum(styleList, start, end);
    const paint = sum(paintList, start, end);
    rows.push({ total, styleLayout, paint, script: Math.max(0, total - styleLayout - paint) });
  }
  return rows;
}

/**
 * One page per size, its transcript filled (`__setup`). All stay open, and the replies are streamed round by round,
 * one size after the other, so the load of a shared machine falls on every size alike.
 */
async function openPage(browser, url, size) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(`${url.service}/transcript`);
  await page.waitForFunction(() => typeof window.__setup === 'function');
  const { messages, userElements, agentElements } = await page.evaluate((options) => window.__setup(options), { serverUrl: url.service, agentId: url.agentId, size });
  return { page, errors, size, messages, userElements, agentElements, rows: [], renderMs: [], layoutMs: [], rounds: 0 };
}

/** Streams one reply in `run`'s page under a Chromium trace and adds its deltas' figures to `run`. */
async function streamOnce(browser, run, deltas) {
  await run.page.bringToFront();
  await browser.startTracing(run.page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'toplevel'] });
  const result = await run.page.evaluate((d) => window.__stream(d), deltas);
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8'));
  if (TRACE_OUT) writeFileSync(`${TRACE_OUT}-${run.size}-${run.rounds++}.json`, JSON.stringify(trace));
  run.rows.push(...perDelta(trace));
  run.renderMs.push(...result.renderMs);
  run.layoutMs.push(...result.layoutMs);
  if (run.errors.length) throw new Error(`the page of ${run.size} messages logged errors: ${run.errors.join('; ')}`);
}

/** The medians of one size's deltas (ms). */
function summary(run) {
  const of = (key) => median(run.rows.map((r) => r[key]));
  return {
    size: run.size, messages: run.messages, deltas: run.rows.length, total: of('total'), script: of('script'),
    styleLayout: of('styleLayout'), paint: of('paint'), render: median(run.renderMs), layout: median(run.layoutMs),
  };
}

const ms = (v, width) => (Number.isFinite(v) ? v.toFixed(2) : '-').padStart(width);

let running;
let browser;
/** The temporary folder of the script-tag build. */
let built;
let failed = false;
try {
  if (!existsSync(chromiumPath)) throw new Error(`no Chromium at ${chromiumPath} (set CHROMIUM_PATH)`);
  const bundle = async (entry) =>
    (await build({ entryPoints: [here(entry)], bundle: true, format: 'esm', target: 'es2022', tsconfig: here('../tsconfig.json'), write: false, logLevel: 'error' })).outputFiles[0].contents;
  /** The widget's scripts by URL path, and the tags that load them. */
  const widget = {};
  let widgetTag;
  if (SOURCE) {
    widget['/define.js'] = await bundle('../src/define.ts');
    widgetTag = '<script type="module" src="/define.js"></script>';
  } else {
    built = mkdtempSync(join(tmpdir(), 'bench-transcript-'));
    execFileSync('npx', ['vite', 'build', '--mode', 'script', '--outDir', built, '--emptyOutDir', '--logLevel', 'error'], { cwd: here('..'), stdio: 'inherit' });
    for (const file of readdirSync(built).filter((name) => /^voice-agent-widget.*\.js$/.test(name))) widget[`/${file}`] = readFileSync(join(built, file));
    widgetTag = '<script src="/voice-agent-widget.js" async></script>';
  }
  const files = {
    '/transcript': ['text/html; charset=utf-8', `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>bench:transcript</title><body>${widgetTag}<script type="module" src="/transcript-page.js"></script>`],
    '/transcript-page.js': ['text/javascript', await bundle('./transcript-page.ts')],
    ...Object.fromEntries(Object.entries(widget).map(([path, body]) => [path, ['text/javascript', body]])),
  };
  running = await startService({
    host: '127.0.0.1', port: 0, log: () => {}, replyDelayMs: 5,
    fallback(req, res) {
      const file = files[req.url.split('?')[0]];
      if (file) res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
      else res.writeHead(404).end();
    },
  });
  const created = await fetch(`${running.url}/v1/convai/agents/create`, {
    method: 'POST', headers: { 'x-api-key': running.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(AGENT),
  });
  if (created.status !== 200) throw new Error(`could not create the agent: ${created.status} ${await created.text()}`);
  const { agent_id: agentId } = await created.json();
  const deltas = splitReply(REPLY);

  browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
  console.log(`${SOURCE ? 'src/define.ts (esbuild)' : 'the script-tag build'} in Chromium ${browser.version()}; one reply of ${REPLY.length} characters streamed as ${deltas.length} deltas, ${REPEAT}x per size; medians per delta (ms)`);
  console.log('');
  const head = ['messages', 'main thread', 'script', 'style+layout', 'paint', 'render (page)', 'layout (page)', 'deltas'];
  console.log(head.map((h, i) => (i ? h.padStart(14) : h.padEnd(10))).join(''));
  const runs = [];
  for (const size of SIZES) runs.push(await openPage(browser, { service: running.url, agentId }, size));
  for (let round = 0; round < REPEAT; round++) for (const run of runs) await streamOnce(browser, run, deltas);
  const results = runs.map(summary);
  for (const r of results) {
    console.log(
      [String(r.messages).padEnd(10), ms(r.total, 14), ms(r.script, 14), ms(r.styleLayout, 14), ms(r.paint, 14), ms(r.render, 14), ms(r.layout, 14), String(r.deltas).padStart(14)].join(''),
    );
  }
  const base = results.find((r) => r.size === 10) ?? results[0];
  console.log('');
  console.log(`shadow elements per plain text message: a visitor's ${runs[0].userElements}, an agent's ${runs[0].agentElements} (with its like and dislike)`);
  for (const r of results.filter((x) => x !== base && x.size >= 1000)) {
    const ratio = (key) => (r[key] / base[key]).toFixed(2);
    console.log(
      `${r.size}/${base.size} ratio: main thread ${ratio('total')}x, script ${ratio('script')}x, style+layout ${ratio('styleLayout')}x, ` +
        `render (page) ${ratio('render')}x, render + layout (page) ${((r.render + r.layout) / (base.render + base.layout)).toFixed(2)}x` +
        (r.size === 1000 ? ` (target: main thread within 1.5x: ${r.total / base.total <= 1.5 ? 'met' : 'NOT met'})` : ''),
    );
  }
} catch (error) {
  console.error(`bench:transcript failed: ${error?.stack ?? error}`);
  failed = true;
} finally {
  await browser?.close().catch(() => {});
  await running?.close().catch(() => {});
  if (built) rmSync(built, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

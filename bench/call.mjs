// Voice call main-thread benchmark (`npm run bench:call`; it builds first). Measures only, asserts nothing (no timing
// belongs in the tests); exits 1 only when it could not measure.
//
// The built script-tag widget (dist/voice-agent-widget.js, as a site embeds it) on a page of the reference service
// (demo/service on 127.0.0.1, replyDelayMs 5 as in the browser tests), in headless Debian Chromium with the fake
// microphone looping test/fixtures/speech.wav (2 s of speech, 1 s of silence: the service answers each utterance with
// a spoken reply). From one Chromium trace per condition (bench/launch-trace.mjs: the renderer main thread's events,
// each event's self time in Lighthouse's groups), in ms of main-thread time per second:
//
// - `idle`: the panel open, no call, for 3 s;
// - `listening` and `speaking`: a call of `--seconds` (12), cut into the turns the widget reports
//   (`voice-agent-status`, whose `turn` the page marks with performance.mark): each turn's work over its length.
//
// The same windows without a trace (a trace itself slows the page): CDP Performance.getMetrics (TaskDuration,
// ScriptDuration, RecalcStyleDuration + LayoutDuration; no paint), read every 250 ms, rows marked `(no trace)`; the
// turn comes from a console message the page logs at each change (no script is run in the page to read it).
//
// Columns: task (all main-thread work), script (evaluation, parse and compile), style+layout, paint (paint, composite,
// layerize, hit tests), other (GC and the rest). Conditions: `none` and `cpu4x` (CDP Emulation.setCPUThrottlingRate 4,
// a mid-range phone as in Lighthouse's mobile preset).
//
// Options: --agent ID (agent_demo_support) · --seconds N (12) · --conditions none,cpu4x · --dist DIR (dist) ·
// --runs N (3; the median run of each window is printed) · --trace-dir DIR (keeps the traces) · --reduced-motion (the
// page emulates prefers-reduced-motion: reduce, so no level is drawn: what the rest of the call costs).
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { startService } from '../demo/service/service.mjs';
import { chromiumArgsWithFakeMicrophone, chromiumPath } from '../scripts/chromium.mjs';
import { mainThreadWork, startTrace } from './launch-trace.mjs';

const { values: options } = parseArgs({
  options: {
    agent: { type: 'string', default: 'agent_demo_support' },
    seconds: { type: 'string', default: '12' },
    conditions: { type: 'string', default: 'none,cpu4x' },
    dist: { type: 'string', default: 'dist' },
    runs: { type: 'string', default: '3' },
    'trace-dir': { type: 'string' },
    'reduced-motion': { type: 'boolean', default: false },
  },
});
const CALL_MS = Number(options.seconds) * 1000;
const RUNS = Math.max(1, Number(options.runs));
const THROTTLING = { none: 1, cpu4x: 4 };
const conditions = options.conditions.split(',').map((c) => c.trim()).filter(Boolean);
for (const condition of conditions) if (!THROTTLING[condition]) throw new Error(`--conditions: no condition ${condition} (none, cpu4x)`);

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.resolve(root, options.dist);
if (!existsSync(path.join(dist, 'voice-agent-widget.js'))) {
  console.error(`bench:call: ${dist}/voice-agent-widget.js is missing (npm run build)`);
  process.exit(1);
}
/** The script-tag build: the first script, its chunks and worklets, served as a site's host would. */
const files = Object.fromEntries(
  readdirSync(dist).filter((file) => /^voice-agent-.*\.js$/.test(file)).map((file) => [`/${file}`, readFileSync(path.join(dist, file))]),
);
const page = (agent) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>bench:call</title><script src="/voice-agent-widget.js"></script></head>
<body><h1>A page with a voice agent</h1>
<voice-agent-widget agent-id="${agent}"></voice-agent-widget>
<script>
  // The harness's only code in the page: a mark at each turn the widget reports.
  document.addEventListener('voice-agent-status', (e) => {
    if (!e.detail.turn) return;
    performance.mark('turn:' + e.detail.turn);
    console.debug('turn:' + e.detail.turn);
  });
</script></body></html>`;

/** Work in [from, to] (trace µs) of the main thread, by column, in ms. */
function columns(events, thread, from, to) {
  const work = mainThreadWork(events, { ...thread, from, to });
  const g = work.byGroup;
  const script = (g.scriptEvaluation ?? 0) + (g.scriptParseCompile ?? 0);
  const styleLayout = g.styleLayout ?? 0;
  const paint = g.paintCompositeRender ?? 0;
  return { task: work.total, script, styleLayout, paint, other: work.total - script - styleLayout - paint };
}
const KEYS = ['task', 'script', 'styleLayout', 'paint', 'other'];
const add = (a, b) => Object.fromEntries(KEYS.map((k) => [k, (a?.[k] ?? 0) + b[k]]));
const perSecond = (sum, ms) => Object.fromEntries(KEYS.map((k) => [k, ms > 0 ? (sum[k] * 1000) / ms : NaN]));

/** Opens `url`, presses the launcher, and waits until the panel offers a call and the conversation chunk settled. */
async function openPanel(tab, url) {
  if (options['reduced-motion']) await tab.emulateMedia({ reducedMotion: 'reduce' });
  await tab.goto(url);
  const widget = tab.locator('voice-agent-widget');
  await widget.locator('.launcher:not([disabled])').waitFor({ timeout: 15000 });
  await widget.locator('.launcher').click();
  await widget.locator('[part~="start-call-button"]').waitFor({ timeout: 15000 });
  await tab.waitForTimeout(1500);
  return widget;
}

/** Presses the call button and waits until the call is live. An agent with terms asks first: accepted here. */
async function startCall(widget) {
  await widget.locator('[part~="start-call-button"]').click();
  const accept = widget.locator('[part~="accept-terms-button"]');
  const live = widget.locator('.root.live');
  await Promise.race([accept.waitFor({ timeout: 20000 }).then(() => accept.click()), live.waitFor({ state: 'attached', timeout: 20000 })]);
  await live.waitFor({ state: 'attached', timeout: 20000 });
}

/** One run: the idle window and the call's turns, from one trace. */
async function run(browser, url, condition, index) {
  const context = await browser.newContext();
  const tab = await context.newPage();
  const errors = [];
  tab.on('pageerror', (error) => errors.push(error.message));
  tab.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  const cdp = await context.newCDPSession(tab);
  try {
    const widget = await openPanel(tab, url);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING[condition] });
    const stop = await startTrace(cdp);
    await tab.evaluate(() => performance.mark('idle:start'));
    await tab.waitForTimeout(3000);
    await tab.evaluate(() => performance.mark('idle:end'));
    await startCall(widget);
    await tab.evaluate(() => performance.mark('call:live'));
    await tab.waitForTimeout(CALL_MS);
    await tab.evaluate(() => performance.mark('call:end'));
    const events = await stop();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    if (options['trace-dir']) {
      mkdirSync(options['trace-dir'], { recursive: true });
      writeFileSync(path.join(options['trace-dir'], `call-${condition}-${index}.json`), JSON.stringify(events));
    }
    const marks = events.filter((e) => e.cat?.includes('blink.user_timing') && /^(idle|call|turn):/.test(e.name) && e.ph !== 'e')
      .sort((a, b) => a.ts - b.ts);
    const at = (name) => marks.findLast((m) => m.name === name);
    const [idleStart, idleEnd, live, end] = ['idle:start', 'idle:end', 'call:live', 'call:end'].map(at);
    if (!idleStart || !idleEnd || !live || !end) throw new Error('the page marks are missing from the trace');
    const thread = { pid: idleStart.pid, tid: idleStart.tid };
    const idle = perSecond(columns(events, thread, idleStart.ts, idleEnd.ts), (idleEnd.ts - idleStart.ts) / 1000);
    // The call cut into turns: from `live` (listening) to each turn mark, the last turn to `end`.
    const sums = {};
    const lengths = { listening: 0, speaking: 0 };
    let turn = 'listening';
    let from = live.ts;
    for (const mark of [...marks.filter((m) => m.name.startsWith('turn:') && m.ts > live.ts && m.ts < end.ts), { name: 'end', ts: end.ts }]) {
      sums[turn] = add(sums[turn], columns(events, thread, from, mark.ts));
      lengths[turn] += (mark.ts - from) / 1000;
      from = mark.ts;
      if (mark.name.startsWith('turn:')) turn = mark.name.slice(5);
    }
    return {
      idle,
      listening: perSecond(sums.listening ?? {}, lengths.listening),
      speaking: perSecond(sums.speaking ?? {}, lengths.speaking),
      seconds: { listening: lengths.listening / 1000, speaking: lengths.speaking / 1000 },
      errors,
    };
  } finally {
    await context.close().catch(() => {});
  }
}

/**
 * One run without a trace (a trace slows the page down): CDP Performance.getMetrics, read every 250 ms, each interval
 * counted for the turn the page was in at both of its ends (an interval across a turn change counts for neither).
 * @returns ms per second of TaskDuration, ScriptDuration, RecalcStyleDuration + LayoutDuration, per window
 */
async function metricsRun(browser, url, condition) {
  const context = await browser.newContext();
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  try {
    await cdp.send('Performance.enable');
    // The turn as the page logs it (a console message at each change: no script run in the page to read it).
    let turn = 'idle';
    tab.on('console', (message) => {
      const [, next] = /^turn:(\w+)$/.exec(message.text()) ?? [];
      if (next) turn = next;
    });
    const widget = await openPanel(tab, url);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING[condition] });
    const read = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const m = Object.fromEntries(metrics.map(({ name, value }) => [name, value * 1000]));
      return { t: performance.now(), turn, task: m.TaskDuration, script: m.ScriptDuration, styleLayout: m.RecalcStyleDuration + m.LayoutDuration };
    };
    const sums = {};
    const lengths = {};
    const sample = async (until) => {
      let last = await read();
      while (performance.now() < until) {
        await tab.waitForTimeout(250);
        const next = await read();
        if (next.turn === last.turn) {
          const turn = next.turn;
          sums[turn] ??= { task: 0, script: 0, styleLayout: 0 };
          for (const k of ['task', 'script', 'styleLayout']) sums[turn][k] += next[k] - last[k];
          lengths[turn] = (lengths[turn] ?? 0) + (next.t - last.t);
        }
        last = next;
      }
    };
    await sample(performance.now() + 3000);
    await startCall(widget);
    await sample(performance.now() + CALL_MS);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    return Object.fromEntries(['idle', 'listening', 'speaking'].map((w) => [w, {
      ...Object.fromEntries(['task', 'script', 'styleLayout'].map((k) => [k, lengths[w] ? (sums[w][k] * 1000) / lengths[w] : NaN])),
      seconds: (lengths[w] ?? 0) / 1000,
    }]));
  } finally {
    await context.close().catch(() => {});
  }
}

const median = (values) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : NaN;
};
const cell = (v) => (Number.isFinite(v) ? v.toFixed(1) : '-').padStart(13);

let service;
let browser;
let failed = false;
try {
  service = await startService({
    host: '127.0.0.1',
    port: 0,
    log: () => {},
    replyDelayMs: 5,
    fallback(req, res) {
      const pathname = req.url.split('?')[0];
      if (pathname === '/call') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(options.agent));
      const file = files[pathname];
      if (file) res.writeHead(200, { 'content-type': 'text/javascript' }).end(file);
      else res.writeHead(404).end();
    },
  });
  browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgsWithFakeMicrophone() });
  console.log(`bench:call: the built widget (${options.dist}/) in Chromium ${browser.version()}, agent ${options.agent}, a call of ${CALL_MS / 1000} s, ${RUNS} run(s) per condition (medians)`);
  console.log('main-thread ms per second of each window (trace self times, Lighthouse groups)');
  console.log(`${'condition / window'.padEnd(28)}${KEYS.map((k) => (k === 'styleLayout' ? 'style+layout' : k).padStart(13)).join('')}${'seconds'.padStart(10)}`);
  for (const condition of conditions) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await run(browser, `${service.url}/call`, condition, i));
    for (const window of ['idle', 'listening', 'speaking']) {
      const row = Object.fromEntries(KEYS.map((k) => [k, median(runs.map((r) => r[window][k]))]));
      const seconds = window === 'idle' ? 3 * RUNS : runs.reduce((sum, r) => sum + r.seconds[window], 0);
      console.log(`${`${condition} / ${window}`.padEnd(28)}${KEYS.map((k) => cell(row[k])).join('')}${seconds.toFixed(1).padStart(10)}`);
    }
    const metrics = [];
    for (let i = 0; i < RUNS; i++) metrics.push(await metricsRun(browser, `${service.url}/call`, condition));
    for (const window of ['idle', 'listening', 'speaking']) {
      const cells = ['task', 'script', 'styleLayout'].map((k) => cell(median(metrics.map((m) => m[window][k]))));
      const seconds = metrics.reduce((sum, m) => sum + m[window].seconds, 0);
      console.log(`${`${condition} / ${window} (no trace)`.padEnd(28)}${cells.join('')}${'-'.padStart(13)}${'-'.padStart(13)}${seconds.toFixed(1).padStart(10)}`);
    }
    const errors = runs.flatMap((r) => r.errors);
    if (errors.length) {
      console.error(`page errors (${condition}): ${[...new Set(errors)].join(' | ')}`);
      failed = true;
    }
  }
  console.log('seconds: the time the windows covered, all runs together (a window with no time prints -)');
} catch (error) {
  console.error(`bench:call failed: ${error?.stack ?? error}`);
  failed = true;
} finally {
  await browser?.close().catch(() => {});
  await service?.close().catch(() => {});
}
process.exit(failed ? 1 : 0);

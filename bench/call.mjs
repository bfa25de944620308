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
// Then without a trace (a trace itself slows the page), as a page owner would measure from outside: CDP
// Performance.getMetrics (TaskDuration, ScriptDuration, RecalcStyleDuration + LayoutDuration; no paint; and ThreadTime,
// the main thread's CPU time: TaskDuration is wall-clock, so on a busy machine it counts time the thread waited for a
// CPU while the call's audio threads, the worker and the service ran) over whole 3 s windows, nothing dropped at a turn
// change: the panel idle; the call's first 3 s (the first exchange, and the first use of code and fonts); each later
// 3 s of it (an exchange each); and, in a second browser whose microphone says its sentence once in 15 s (speech.wav
// then silence, written to a temporary file), the windows through which the agent spoke. The turns come from the
// times the page noted them (`window.benchTurns`), read once after the windows (nothing runs in the page meanwhile).
//
// Columns: task (all main-thread work), script (evaluation, parse and compile), style+layout, paint (paint, composite,
// layerize, hit tests), other (GC and the rest). Conditions: `none` and `cpu4x` (CDP Emulation.setCPUThrottlingRate 4,
// a mid-range phone as in Lighthouse's mobile preset).
//
// Options: --agent ID (agent_demo_support) · --seconds N (12) · --conditions none,cpu4x · --dist DIR (dist) ·
// --runs N (3; the median run of each window is printed) · --trace-dir DIR (keeps the traces) · --reduced-motion (the
// page emulates prefers-reduced-motion: reduce, so no level is drawn: what the rest of the call costs).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { startService } from '../demo/service/service.mjs';
import { chromiumArgsWithFakeMicrophone, chromiumPath, fakeMicrophoneWav } from '../scripts/chromium.mjs';
import { callPage, median, scriptTagFiles, servePages, speechOnce } from './call-page.mjs';
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
/** The 3 s windows of a call without a trace (`--seconds` of call). */
const WINDOWS = Math.max(1, Math.floor(CALL_MS / 3000));
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
const files = scriptTagFiles(dist);

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
 * One call without a trace (a trace slows the page down itself): CDP Performance.getMetrics read as the call goes live
 * and every 3 s after, so each 3 s window is whole (an exchange's transcript, reply and turn changes fall inside one, as
 * they would in any window a page owner measures), with the turns the page noted (`window.benchTurns`, read after the
 * windows). Before the call, the panel open and still for 3 s (`idle`).
 * @returns `idle` and `windows` (in order): ms per second of TaskDuration, ScriptDuration, RecalcStyle + Layout,
 * ThreadTime (`cpu`), and `speaking`, true when the agent spoke through the whole window
 */
async function windowsRun(browser, url, condition, count) {
  const context = await browser.newContext();
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  try {
    await cdp.send('Performance.enable');
    const widget = await openPanel(tab, url);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING[condition] });
    const read = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const m = Object.fromEntries(metrics.map(({ name, value }) => [name, value * 1000]));
      return { t: performance.now(), wall: Date.now(), task: m.TaskDuration, script: m.ScriptDuration, styleLayout: m.RecalcStyleDuration + m.LayoutDuration, cpu: m.ThreadTime };
    };
    const rates = (a, b) => Object.fromEntries(['task', 'script', 'styleLayout', 'cpu'].map((k) => [k, ((b[k] - a[k]) * 1000) / (b.t - a.t)]));
    let last = await read();
    await tab.waitForTimeout(3000);
    let next = await read();
    const idle = rates(last, next);
    await startCall(widget);
    last = await read();
    const spans = [];
    for (let i = 0; i < count; i++) {
      await tab.waitForTimeout(3000);
      next = await read();
      spans.push([last, next]);
      last = next;
    }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    // The turns the page noted ([Date.now(), turn]), read once the windows are over: a window is the agent's when the
    // turn before it is `speaking` and none changes within it.
    /** @type {[number, string][]} */
    const turns = await tab.evaluate(() => window.benchTurns);
    const turnAt = (wall) => turns.findLast(([at]) => at <= wall)?.[1] ?? null;
    const windows = spans.map(([a, b]) => ({
      ...rates(a, b),
      speaking: turnAt(a.wall) === 'speaking' && !turns.some(([at]) => at > a.wall && at <= b.wall),
    }));
    return { idle, windows };
  } finally {
    await context.close().catch(() => {});
  }
}

const cell = (v) => (Number.isFinite(v) ? v.toFixed(1) : '-').padStart(13);

let service;
let browser;
let failed = false;
const noTrace = {};
/** The temporary directory of the speak-once microphone's WAV file, removed at the end. */
let longDir;
try {
  service = await startService({
    host: '127.0.0.1',
    port: 0,
    log: () => {},
    replyDelayMs: 5,
    fallback: servePages({ '/call': callPage(options.agent, 'bench:call') }, files),
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
    noTrace[condition] = { loop: [], long: [] };
    for (let i = 0; i < RUNS; i++) noTrace[condition].loop.push(await windowsRun(browser, `${service.url}/call`, condition, WINDOWS));
    const errors = runs.flatMap((r) => r.errors);
    if (errors.length) {
      console.error(`page errors (${condition}): ${[...new Set(errors)].join(' | ')}`);
      failed = true;
    }
  }
  console.log('seconds: the time the windows covered, all runs together (a window with no time prints -)');
  await browser.close();
  // The agent speaking at length: a microphone that says its sentence once in 15 s, so the reply is not interrupted.
  longDir = mkdtempSync(path.join(tmpdir(), 'bench-call-'));
  const longWav = path.join(longDir, 'speech-once.wav');
  writeFileSync(longWav, speechOnce(fakeMicrophoneWav, 15));
  browser = await chromium.launch({
    executablePath: chromiumPath, headless: true,
    args: chromiumArgsWithFakeMicrophone().map((arg) => (arg.startsWith('--use-file-for-fake-audio-capture=') ? `--use-file-for-fake-audio-capture=${longWav}` : arg)),
  });
  for (const condition of conditions) {
    for (let i = 0; i < RUNS; i++) noTrace[condition].long.push(await windowsRun(browser, `${service.url}/call`, condition, 5));
  }
  console.log('');
  console.log('3 s windows without a trace (CDP Performance.getMetrics: TaskDuration, ScriptDuration, RecalcStyle + Layout, ThreadTime),');
  console.log('ms per second: the median window of all runs, and the largest task figure of them. task is wall-clock time, so it');
  console.log('grows when other threads of the machine take the main thread\'s CPU; thread CPU is the main thread\'s own CPU time');
  console.log(`${'condition / window'.padEnd(34)}${['task', 'script', 'style+layout', 'thread CPU', 'largest task', 'windows'].map((h) => h.padStart(13)).join('')}`);
  for (const condition of conditions) {
    const { loop, long } = noTrace[condition];
    const rows = [
      ['idle (panel open)', loop.map((r) => r.idle)],
      ['call, first 3 s', loop.map((r) => r.windows[0])],
      ['call, each later 3 s', loop.flatMap((r) => r.windows.slice(1))],
      ['agent speaking 3 s', long.flatMap((r) => r.windows.filter((w) => w.speaking))],
    ];
    for (const [name, windows] of rows) {
      // Under CPU throttling ThreadTime counts the time the emulation holds the thread too: not shown.
      const keys = THROTTLING[condition] === 1 ? ['task', 'script', 'styleLayout', 'cpu'] : ['task', 'script', 'styleLayout'];
      const cells = keys.map((k) => cell(median(windows.map((w) => w[k]))));
      if (keys.length === 3) cells.push(cell(NaN));
      const largest = windows.length ? Math.max(...windows.map((w) => w.task)) : NaN;
      console.log(`${`${condition} / ${name}`.padEnd(34)}${cells.join('')}${cell(largest)}${String(windows.length).padStart(13)}`);
    }
  }
  console.log('call: the microphone says its sentence every 3 s, so each window holds an exchange (the speech, its transcript, the');
  console.log('streamed reply, the agent speaking, the interruption); the first also the first use of code and fonts. agent speaking:');
  console.log('a microphone that speaks once in 15 s, the windows through which the agent spoke (its reply is about 9 s).');
} catch (error) {
  console.error(`bench:call failed: ${error?.stack ?? error}`);
  failed = true;
} finally {
  await browser?.close().catch(() => {});
  await service?.close().catch(() => {});
  if (longDir) rmSync(longDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

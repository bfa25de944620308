// Launch benchmark (`npm run bench:launch`; it builds first). Measures only, asserts nothing (no timing belongs in the
// tests); exits 1 only when it could not measure. What it measures, for the script-tag build in dist/ as a site embeds
// it (README "Embed it"), in headless Debian Chromium (scripts/chromium.mjs), each a median of N runs with min and max:
//
// 1. Launcher usable from navigation, cold (a fresh browser context: empty HTTP cache and localStorage) and warm (the
//    same context, the next visit: cache and localStorage kept): the page's own clock from the navigation's start to
//    the end of the frame that shows the launcher in the element's shadow root visible, enabled and configured (not
//    aria-busy); bench/launch-probe.mjs has the exact definition. Beside it, the launcher past the page's first paint:
//    that time less the page's `first-paint` (Paint Timing), what a visitor waits for the widget once the page shows
//    (below 0 when the launcher is in the first frame painted: the paint's time is its presentation, after the frame).
// 2. Main-thread JS until then: from a Chromium trace (bench/launch-trace.mjs), the renderer main thread's Script
//    Evaluation + Script Parsing & Compilation self time (Lighthouse's groups) from the navigation's start to that
//    frame, the probe's own JS left out; beside it all main-thread work in that window, and the JS heap then
//    (CDP Performance.getMetrics JSHeapUsedSize, read the moment the page reports the launcher).
// 3. Bytes the browser fetched (CDP Network.loadingFinished encodedDataLength: on the wire, headers included, 0 for
//    a cache hit) before the launcher was usable and in the whole visit (until the network is quiet after the panel
//    opened), split into the widget's files and the service's JSON (the page itself apart), the files listed.
// 4. Intent → panel usable: the launcher pressed (a real mouse click, from its pointerdown's timeStamp) to the end of
//    the frame that shows the panel's first control (`.composer input` or `.actions button`) visible and enabled;
//    cold: pressed the moment the launcher is usable (before anything else could load); warm: on the warm visit,
//    pressed once the network is quiet and the page idle (after any idle preload). Also: press → panel shown.
// 5. The JS heap the widget adds once the page is idle (warm visit, before the press, after the idle preload): the page's
//    CDP JSHeapUsedSize after two HeapProfiler.collectGarbage, less the same page's without a widget, measured alike.
//
// The servers (bench/launch-servers.mjs): the page on one origin, the widget's files and the reference service
// (demo/service) on another (the widget is a cross-origin script, talking to the origin it came from), files gzipped
// at level 9 with CDN-like cache headers. Conditions: `none` (no throttling) and `4g-cpu4x` (CDP
// Network.emulateNetworkConditions 40 ms latency, 9 Mbit/s down, 1.5 Mbit/s up, and Emulation.setCPUThrottlingRate 4
// as Lighthouse's mobile preset); `slow4g-cpu4x` (Lighthouse's slow 4G: 150 ms, 1.6 Mbit/s, 750 kbit/s) on request.
//
// Options: --runs N (9) · --conditions none,4g-cpu4x · --dist DIR (dist) · --agent ID (agent_demo_support) ·
// --elevenlabs[=VERSION] (a side-by-side row with the ElevenLabs widget, bench/launch-elevenlabs.mjs) ·
// --compare FILE|URL --compare-tag TAG [--compare-launcher SELECTOR (button)] (another widget script on its own page:
// launcher, JS and bytes; with TAG voice-agent-widget, another build of this widget, measured in full) ·
// --json FILE (every run's figures) · --quiet-ms MS (1000: how long the network must be idle to call a visit done) ·
// --trace-dir DIR (keeps every trace, for chrome://tracing or the DevTools Performance panel).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';
import { ELEVENLABS_API_HOST, prepareElevenLabs } from './launch-elevenlabs.mjs';
import { PROBE_URL, probeScript } from './launch-probe.mjs';
import { startBenchServers } from './launch-servers.mjs';
import { findMark, findNavigationStart, mainThreadWork, startTrace } from './launch-trace.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const CONDITIONS = {
  none: { label: 'no throttling', network: null, cpu: 1 },
  '4g-cpu4x': { label: '4G (40 ms latency, 9 Mbit/s down, 1.5 Mbit/s up) + CPU 4x slower', network: { latency: 40, down: 9e6, up: 1.5e6 }, cpu: 4 },
  'slow4g-cpu4x': { label: 'slow 4G (150 ms latency, 1.6 Mbit/s down, 750 kbit/s up) + CPU 4x slower', network: { latency: 150, down: 1.6e6, up: 750e3 }, cpu: 4 },
};

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '9' },
    conditions: { type: 'string', default: 'none,4g-cpu4x' },
    dist: { type: 'string', default: path.join(ROOT, 'dist') },
    agent: { type: 'string', default: 'agent_demo_support' },
    elevenlabs: { type: 'boolean', default: false },
    'elevenlabs-version': { type: 'string', default: 'latest' },
    compare: { type: 'string' },
    'compare-tag': { type: 'string' },
    'compare-launcher': { type: 'string', default: 'button' },
    json: { type: 'string' },
    'quiet-ms': { type: 'string', default: '1000' },
    'trace-dir': { type: 'string' },
  },
});
const RUNS = Math.max(1, Number.parseInt(opts.runs, 10) || 9);
const QUIET_MS = Math.max(200, Number.parseInt(opts['quiet-ms'], 10) || 1000);
const conditionIds = opts.conditions.split(',').map((c) => c.trim()).filter(Boolean);
for (const id of conditionIds) if (!CONDITIONS[id]) throw new Error(`unknown condition ${id} (known: ${Object.keys(CONDITIONS).join(', ')})`);
const LAUNCHER_TIMEOUT_MS = 30_000;
const PANEL_TIMEOUT_MS = 30_000;
const QUIET_CAP_MS = 20_000;

// Whatever hangs, the process ends.
const watchdogMs = 120_000 + RUNS * conditionIds.length * (opts.elevenlabs || opts.compare ? 2 : 1) * 60_000;
setTimeout(() => {
  console.error(`bench:launch: not done after ${Math.round(watchdogMs / 1000)} s, giving up`);
  process.exit(1);
}, watchdogMs).unref();

// ---------------------------------------------------------------------------------------------------------------------
// Helpers

const deferred = () => {
  let resolve;
  const promise = new Promise((r) => (resolve = r));
  return { promise, resolve };
};
const withTimeout = (promise, ms, what) => {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms / 1000} s`)), ms)))]).finally(() => clearTimeout(timer));
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The requests of one page from CDP Network events; `quiet(ms)` waits until none has been in flight for `ms`. */
function networkLog(cdp) {
  /** @type {Map<string, {url: string, start: number, end?: number, bytes?: number, status?: number, fromCache?: boolean, failed?: string}>} */
  const requests = new Map();
  let inflight = 0;
  let lastActivity = Date.now();
  cdp.on('Network.requestWillBeSent', (e) => {
    if (!/^https?:/.test(e.request.url)) return;
    let r = requests.get(e.requestId);
    if (!r) {
      r = { url: e.request.url, start: e.timestamp, type: e.type };
      requests.set(e.requestId, r);
      inflight++;
    }
    r.url = e.request.url; // after a redirect
    lastActivity = Date.now();
  });
  cdp.on('Network.requestServedFromCache', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.fromCache = true;
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (r) Object.assign(r, { status: e.response.status, fromCache: r.fromCache || e.response.fromDiskCache || e.response.fromPrefetchCache });
  });
  const finish = (e, patch) => {
    const r = requests.get(e.requestId);
    if (!r || r.end !== undefined) return;
    Object.assign(r, { end: e.timestamp }, patch);
    inflight--;
    lastActivity = Date.now();
  };
  cdp.on('Network.loadingFinished', (e) => finish(e, { bytes: e.encodedDataLength }));
  cdp.on('Network.loadingFailed', (e) => finish(e, { bytes: 0, failed: e.errorText }));
  return {
    requests,
    async quiet(ms, cap = QUIET_CAP_MS) {
      const until = Date.now() + cap;
      while (Date.now() < until) {
        if (inflight <= 0 && Date.now() - lastActivity >= ms) return true;
        await sleep(50);
      }
      return false;
    },
  };
}

/**
 * The bytes of `requests` that finished by `untilSec` (CDP monotonic seconds; all when undefined), by category, and
 * the files. `classify(url)` → 'widget' | 'service' | 'page' | 'other'.
 */
function bytesOf(requests, classify, untilSec) {
  const sums = { widget: 0, service: 0, page: 0, other: 0 };
  const files = [];
  for (const r of requests.values()) {
    if (r.end === undefined || (untilSec !== undefined && r.end > untilSec)) continue;
    const category = classify(r.url);
    sums[category] += r.bytes ?? 0;
    files.push({ url: r.url, category, bytes: r.bytes ?? 0, status: r.status, fromCache: !!r.fromCache, failed: r.failed, end: r.end });
  }
  return { ...sums, files: files.sort((a, b) => a.end - b.end) };
}

async function clickAt(page, rect) {
  await page.mouse.click(rect.x + rect.width / 2, rect.y + rect.height / 2);
}

// ---------------------------------------------------------------------------------------------------------------------
// One visit

/**
 * Opens `widget.pageUrl` in a new page of `context` under `condition`, waits for the launcher, then presses it at once
 * (`press: 'at-once'`) or once the page is idle (`press: 'after-idle'`), and waits for the network to be quiet.
 */
async function visit(context, widget, condition, press) {
  const page = await context.newPage();
  let stopTrace = null;
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    const cdp = await context.newCDPSession(page);
    const net = networkLog(cdp);
    await cdp.send('Network.enable');
    await cdp.send('Performance.enable');
    if (condition.network) {
      const { latency, down, up } = condition.network;
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency, downloadThroughput: down / 8, uploadThroughput: up / 8 });
    }
    if (condition.cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: condition.cpu });
    const launcherReport = deferred();
    const panelReport = deferred();
    let pressed = Promise.resolve();
    const canPress = !!widget.probe.panelControls;
    await page.exposeBinding('__benchReport', (_source, kind, state) => {
      if (kind === 'launcher') {
        const metrics = cdp.send('Performance.getMetrics').catch(() => ({ metrics: [] }));
        if (press === 'at-once' && canPress) pressed = clickAt(page, state.launcherRect);
        metrics.then(({ metrics: list }) => launcherReport.resolve({ state, heap: list.find((m) => m.name === 'JSHeapUsedSize')?.value ?? null }));
      } else if (kind === 'panel') panelReport.resolve(state);
    });
    await page.addInitScript({ content: probeScript(widget.probe) });
    stopTrace = await startTrace(cdp);
    await page.goto(widget.pageUrl, { waitUntil: 'commit', timeout: LAUNCHER_TIMEOUT_MS });
    const launcher = await withTimeout(launcherReport.promise, LAUNCHER_TIMEOUT_MS, 'the launcher did not become usable');
    let panel = null;
    let heapIdle = null;
    if (canPress) {
      if (press === 'after-idle') {
        await net.quiet(QUIET_MS);
        await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 5000 })));
        heapIdle = await heapAfterGc(cdp);
        await clickAt(page, launcher.state.launcherRect);
      }
      await pressed;
      panel = await withTimeout(panelReport.promise, PANEL_TIMEOUT_MS, 'the panel did not become usable');
    }
    const events = await stopTrace();
    stopTrace = null;
    // The page's own first paint (Paint Timing), read once the visit is done: the launcher's delay past it is what a
    // visitor waits for the widget once the page shows.
    const firstPaintMs = await page.evaluate(() => performance.getEntriesByName('first-paint')[0]?.startTime ?? null);
    if (opts['trace-dir']) {
      mkdirSync(opts['trace-dir'], { recursive: true });
      writeFileSync(path.join(opts['trace-dir'], `${widget.id}-${press === 'at-once' ? 'cold' : 'warm'}-${Date.now()}.json`), JSON.stringify({ traceEvents: events }));
    }
    const quiet = await net.quiet(QUIET_MS);

    // The trace: the launcher-usable mark gives the renderer's main thread and the moment in trace time (µs).
    const mark = findMark(events, 'bench:launcher-usable');
    if (!mark) throw new Error('the trace holds no bench:launcher-usable mark');
    // The window starts at the page's time origin (its navigation start, performance.now() = 0), which the mark gives;
    // else at the trace's navigationStart of the page.
    const navigationStart = mark.timeOrigin ?? findNavigationStart(events, { pid: mark.pid, url: widget.pageUrl, before: mark.ts });
    if (navigationStart === undefined) throw new Error('the trace holds no navigationStart of the page');
    const isHarness = (url) => url === PROBE_URL || url.startsWith('__playwright') || url.startsWith('__puppeteer');
    const toLauncher = mainThreadWork(events, { pid: mark.pid, tid: mark.tid, from: navigationStart, to: mark.ts, isHarness });
    let toPanel = null;
    const intentMark = findMark(events, 'bench:intent');
    const panelMark = findMark(events, 'bench:panel-usable');
    if (intentMark && panelMark) toPanel = mainThreadWork(events, { pid: mark.pid, tid: mark.tid, from: intentMark.ts, to: panelMark.ts, isHarness });

    // CDP network timestamps and trace timestamps are the same monotonic clock (seconds vs µs).
    const launcherSec = mark.ts / 1e6;
    const s = launcher.state;
    return {
      launcherUsableMs: s.launcherUsableAt,
      firstPaintMs,
      launcherPastFirstPaintMs: firstPaintMs === null ? null : s.launcherUsableAt - firstPaintMs,
      heapAtLauncher: launcher.heap,
      heapAtLauncherInPage: s.heapUsedAtLauncher,
      heapIdleAfterGc: heapIdle,
      scriptingToLauncherMs: toLauncher.scripting,
      scriptingInclusiveToLauncherMs: toLauncher.scriptingInclusive,
      mainThreadToLauncherMs: toLauncher.total,
      harnessScriptingMs: toLauncher.harnessScripting,
      breakdownToLauncher: toLauncher.byGroup,
      scriptingByUrl: toLauncher.scriptingByUrl,
      intentToPanelShownMs: panel && panel.panelShownAt - panel.intentAt,
      intentToPanelUsableMs: panel && panel.panelUsableAt - panel.intentAt,
      pressedAtMs: panel?.intentAt ?? null,
      scriptingIntentToPanelMs: toPanel?.scripting ?? null,
      bytesBeforeLauncher: bytesOf(net.requests, widget.classify, launcherSec),
      bytesVisit: bytesOf(net.requests, widget.classify),
      networkQuiet: quiet,
      pageErrors: errors,
      // A check that CDP's network clock and the trace's are one (small and positive: the page's request follows its
      // navigation start).
      clockCheckMs: (() => {
        const doc = [...net.requests.values()].find((r) => r.url === widget.pageUrl);
        return doc ? doc.start * 1000 - navigationStart / 1000 : null;
      })(),
    };
  } finally {
    if (stopTrace) await stopTrace().catch(() => {}); // a failed visit: end its trace before the next one starts
    await page.close().catch(() => {});
  }
}

/** The page's JS heap (CDP JSHeapUsedSize, bytes) after two full garbage collections. */
async function heapAfterGc(cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? null;
}

/**
 * The heap's baseline: the same page with no widget (`bareUrl`), its probe script included, in `context` under
 * `condition`, once its network is quiet and it is idle, after a garbage collection (bytes).
 */
async function bareHeap(context, bareUrl, probe, condition) {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    const net = networkLog(cdp);
    await cdp.send('Network.enable');
    await cdp.send('Performance.enable');
    if (condition.cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: condition.cpu });
    await page.exposeBinding('__benchReport', () => {});
    await page.addInitScript({ content: probeScript(probe) });
    await page.goto(bareUrl, { waitUntil: 'load', timeout: LAUNCHER_TIMEOUT_MS });
    await net.quiet(QUIET_MS);
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 5000 })));
    return await heapAfterGc(cdp);
  } finally {
    await page.close().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// Statistics and printing

const stat = (values) => {
  const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  const mid = v.length >> 1;
  return { median: v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2, min: v[0], max: v.at(-1), n: v.length };
};
const fmt = {
  ms: (x) => `${x.toFixed(0)} ms`,
  msFine: (x) => `${x.toFixed(1)} ms`,
  mb: (x) => `${(x / 1048576).toFixed(2)} MB`,
  kb: (x) => `${(x / 1024).toFixed(1)} KB`,
};
const cell = (s, unit) => (s ? `${unit(s.median)} [${unit(s.min).replace(/ .*/, '')}–${unit(s.max)}]` : '-');

/** Rows: [label, visit kind, value getter, unit]. */
const ROWS = [
  ['launcher usable, cold', 'cold', (r) => r.launcherUsableMs, fmt.ms],
  ['launcher usable, warm', 'warm', (r) => r.launcherUsableMs, fmt.ms],
  ["launcher past the page's first paint, cold", 'cold', (r) => r.launcherPastFirstPaintMs, fmt.ms],
  ["launcher past the page's first paint, warm", 'warm', (r) => r.launcherPastFirstPaintMs, fmt.ms],
  ['main-thread scripting to launcher, cold', 'cold', (r) => r.scriptingToLauncherMs, fmt.msFine],
  ['main-thread scripting to launcher, warm', 'warm', (r) => r.scriptingToLauncherMs, fmt.msFine],
  ['all main-thread tasks to launcher, cold', 'cold', (r) => r.mainThreadToLauncherMs, fmt.msFine],
  ['JS heap at launcher, cold', 'cold', (r) => r.heapAtLauncher, fmt.mb],
  ['JS heap added, idle after GC, warm', 'warm', (r) => r.heapAddedIdle, fmt.mb],
  ['bytes before launcher, cold: widget files', 'cold', (r) => r.bytesBeforeLauncher.widget, fmt.kb],
  ['bytes before launcher, cold: service JSON', 'cold', (r) => r.bytesBeforeLauncher.service, fmt.kb],
  ['bytes whole visit, cold: widget files', 'cold', (r) => r.bytesVisit.widget, fmt.kb],
  ['bytes whole visit, cold: service JSON', 'cold', (r) => r.bytesVisit.service, fmt.kb],
  ['bytes before launcher, warm: widget files', 'warm', (r) => r.bytesBeforeLauncher.widget, fmt.kb],
  ['bytes before launcher, warm: service JSON', 'warm', (r) => r.bytesBeforeLauncher.service, fmt.kb],
  ['bytes whole visit, warm: widget + service', 'warm', (r) => r.bytesVisit.widget + r.bytesVisit.service, fmt.kb],
  ['press → panel shown, cold (at once)', 'cold', (r) => r.intentToPanelShownMs, fmt.ms],
  ['press → panel usable, cold (at once)', 'cold', (r) => r.intentToPanelUsableMs, fmt.ms],
  ['press → panel usable, warm (after idle)', 'warm', (r) => r.intentToPanelUsableMs, fmt.ms],
  ['main-thread scripting press → panel, cold', 'cold', (r) => r.scriptingIntentToPanelMs, fmt.msFine],
];

function printCondition(conditionId, widgets, results) {
  const condition = CONDITIONS[conditionId];
  console.log(`\n== ${conditionId}: ${condition.label} · median [min–max] of ${RUNS} runs ==`);
  const widths = [44, ...widgets.map(() => 30)];
  const ratio = widgets.length > 1;
  const line = (cells) => console.log(cells.map((c, i) => (i === 0 ? c.padEnd(widths[0]) : c.padStart(widths[i] ?? 10))).join(' '));
  line(['', ...widgets.map((w) => w.label), ...(ratio ? ['ratio'.padStart(8)] : [])]);
  for (const [label, kind, get, unit] of ROWS) {
    const stats = widgets.map((w) => stat(results[conditionId][w.id][kind].filter((r) => !r.error).map((r) => get(r))));
    if (stats.every((s) => !s)) continue;
    const cells = [label, ...stats.map((s) => cell(s, unit))];
    if (ratio) cells.push(stats[0] && stats[1] && stats[1].median ? `${(stats[0].median / stats[1].median).toFixed(2)}x`.padStart(8) : '-'.padStart(8));
    line(cells);
  }
  for (const w of widgets) {
    for (const kind of ['cold', 'warm']) {
      const failed = results[conditionId][w.id][kind].filter((r) => r.error);
      if (failed.length) console.log(`${w.label}, ${kind}: ${failed.length} of ${RUNS} runs failed: ${[...new Set(failed.map((r) => r.error))].join('; ')}`);
    }
  }
}

function printFiles(widget, conditionId, results) {
  for (const kind of ['cold', 'warm']) {
    const run = results[conditionId][widget.id][kind].find((r) => !r.error);
    if (!run) continue;
    console.log(`\n${widget.label}, ${kind} visit (${conditionId}, first run): what the browser fetched (on the wire, headers included)`);
    const before = new Set(run.bytesBeforeLauncher.files.map((f) => f.url));
    for (const f of run.bytesVisit.files) {
      const name = f.url.replace(/^https?:\/\/127\.0\.0\.1:\d+/, '');
      const note = f.failed ? `failed: ${f.failed}` : f.fromCache ? 'from cache' : String(f.status ?? '');
      console.log(`  ${before.has(f.url) ? 'before launcher' : 'after launcher '}  ${f.category.padEnd(7)} ${String(f.bytes).padStart(8)} B  ${note.padEnd(12)} ${name}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// Main

let servers;
let browser;
let elevenlabs;
let failed = false;
try {
  if (!existsSync(chromiumPath)) throw new Error(`no Chromium at ${chromiumPath} (set CHROMIUM_PATH)`);
  const distDir = path.resolve(opts.dist);
  if (!existsSync(path.join(distDir, 'voice-agent-widget.js'))) throw new Error(`${distDir}/voice-agent-widget.js is missing: run npm run build`);
  if (opts.elevenlabs) {
    console.log(`fetching @elevenlabs/convai-widget-embed@${opts['elevenlabs-version']} (npm pack, into a temporary folder) ...`);
    elevenlabs = prepareElevenLabs(opts['elevenlabs-version']);
  }
  // --compare: a local script file is served beside ours (on the widget origin); a URL is loaded as it is.
  const compareFile = opts.compare && existsSync(opts.compare) ? path.resolve(opts.compare) : null;
  const mounts = {
    '/widget/': distDir,
    ...(elevenlabs && { '/vendor/elevenlabs/': elevenlabs.distDir }),
    ...(compareFile && { '/vendor/compare/': path.dirname(compareFile) }),
  };
  servers = await startBenchServers({ mounts, https: elevenlabs?.tls });
  const { widgetUrl, siteUrl } = servers;

  const classifyWith = (own) => (url) => {
    if (url.startsWith(`${siteUrl}/`)) return 'page';
    if (own.some((prefix) => url.startsWith(prefix))) return 'widget';
    if (new URL(url).pathname.startsWith('/v1/')) return 'service';
    return 'other';
  };
  /** The widgets measured: ours first; each on its own page of the same content. */
  const widgets = [
    {
      id: 'ours',
      label: 'voice-agent-widget',
      tag: 'voice-agent-widget',
      scriptUrl: `${widgetUrl}/widget/voice-agent-widget.js`,
      attributes: { 'agent-id': opts.agent },
      probe: {
        tag: 'voice-agent-widget',
        launcher: 'button[part~="launcher"], button.launcher',
        panel: '[part~="panel"]',
        panelControls: '.composer input, .actions button',
      },
      own: [`${widgetUrl}/widget/`],
    },
  ];
  if (elevenlabs) {
    widgets.push({
      id: 'elevenlabs',
      label: `ElevenLabs ${elevenlabs.version}`,
      tag: 'elevenlabs-convai',
      scriptUrl: `${widgetUrl}/vendor/elevenlabs/${elevenlabs.script}`,
      attributes: { 'agent-id': opts.agent },
      // Its collapsed card: the first visible, enabled button ("Start a call"). Pressing the card starts a
      // conversation (after the terms) rather than opening a panel, so no press → panel row.
      probe: { tag: 'elevenlabs-convai', launcher: 'button' },
      own: [`${widgetUrl}/vendor/elevenlabs/`],
    });
  }
  if (opts.compare) {
    if (!opts['compare-tag']) throw new Error('--compare needs --compare-tag (the element\'s tag name)');
    const scriptUrl = compareFile ? `${widgetUrl}/vendor/compare/${path.basename(compareFile)}` : new URL(opts.compare).href;
    const same = opts['compare-tag'] === widgets[0].tag; // another build of this widget: measured in full
    widgets.push({
      id: 'compare',
      label: same ? `${opts['compare-tag']} (${path.basename(path.dirname(compareFile ?? opts.compare))})` : opts['compare-tag'],
      tag: opts['compare-tag'],
      scriptUrl,
      attributes: { 'agent-id': opts.agent },
      probe: same ? widgets[0].probe : { tag: opts['compare-tag'], launcher: opts['compare-launcher'] },
      own: [scriptUrl.replace(/[^/]*$/, '')],
    });
  }
  const bareUrl = servers.addPage('bare', { title: 'bench:launch (no widget)', widget: null });
  for (const w of widgets) {
    w.pageUrl = servers.addPage(w.id, { title: `bench:launch (${w.label})`, widget: w });
    w.classify = classifyWith(w.own);
  }

  // No host but ours resolves (nothing leaves the machine), except a --compare URL's host.
  const hostRules = ['MAP * ~NOTFOUND', 'EXCLUDE 127.0.0.1'];
  if (elevenlabs) hostRules.unshift(`MAP ${ELEVENLABS_API_HOST} 127.0.0.1:${servers.apiPort}`);
  if (opts.compare && !compareFile) hostRules.push(`EXCLUDE ${new URL(opts.compare).hostname}`);
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [...chromiumArgs, '--enable-precise-memory-info', `--host-resolver-rules=${hostRules.join(', ')}`],
  });
  console.log(`bench:launch: Chromium ${browser.version()}, ${RUNS} runs per condition, dist: ${path.relative(process.cwd(), distDir) || '.'}; page ${siteUrl}, widget origin ${widgetUrl}`);
  const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`machine: ${cpus().length} cores, load average ${load()} at the start (a busy machine widens every range)`);

  // One visit of each page first, not counted: the browser's first page pays one-time costs (a renderer process,
  // caches of its own) that no later visit does.
  for (const widget of widgets) {
    const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 720 } });
    await visit(context, widget, CONDITIONS.none, 'at-once').catch((error) => console.error(`warm-up visit of ${widget.label} failed: ${error.message}`));
    await context.close().catch(() => {});
  }

  const results = {};
  for (const conditionId of conditionIds) {
    results[conditionId] = Object.fromEntries(widgets.map((w) => [w.id, { cold: [], warm: [] }]));
    for (let run = 0; run < RUNS; run++) {
      // Alternate the order of the widgets from run to run, so neither always goes first.
      const order = run % 2 ? [...widgets].reverse() : widgets;
      for (const widget of order) {
        const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 720 } });
        try {
          for (const [kind, press] of [['cold', 'at-once'], ['warm', 'after-idle']]) {
            let result;
            try {
              result = await visit(context, widget, CONDITIONS[conditionId], press);
              // The heap the widget adds: its page's, idle after a GC, less the same page's without a widget.
              if (kind === 'warm' && result.heapIdleAfterGc !== null) {
                const bare = await bareHeap(context, bareUrl, widget.probe, CONDITIONS[conditionId]);
                result.heapAddedIdle = bare === null ? null : result.heapIdleAfterGc - bare;
              }
            } catch (error) {
              result = { error: error.message.split('\n')[0] };
            }
            results[conditionId][widget.id][kind].push(result);
          }
        } finally {
          await context.close().catch(() => {});
        }
      }
      if (process.stdout.isTTY) process.stdout.write(`\r${conditionId}: run ${run + 1} of ${RUNS} done`);
    }
    process.stdout.write(`${process.stdout.isTTY ? '\r' : ''}${conditionId}: ${RUNS} runs done\n`);
  }

  console.log(`load average ${load()} at the end`);
  for (const conditionId of conditionIds) printCondition(conditionId, widgets, results);
  for (const w of widgets) printFiles(w, conditionIds[0], results);
  console.log(
    '\nnotes: times are the page\'s clock from the navigation\'s start (launcher) or from the press\'s pointerdown (panel), each to the end of the frame ' +
      'showing it; scripting = Script Evaluation + Parsing & Compilation self time on the renderer main thread (Lighthouse groups), the probe left out; ' +
      'bytes on the wire (gzip -9, headers included; the service\'s JSON is sent uncompressed); warm = the same browser context\'s next visit. ' +
      'The trace is recorded in every run, which slows the page a little.',
  );
  const pageErrors = new Set(Object.values(results).flatMap((byWidget) => Object.entries(byWidget).flatMap(([id, k]) =>
    [...k.cold, ...k.warm].flatMap((r) => (r.pageErrors ?? []).map((e) => `${id}: ${e}`)))));
  for (const e of pageErrors) console.log(`page error: ${e}`);
  const allRuns = Object.values(results).flatMap((byWidget) => Object.values(byWidget).flatMap((k) => [...k.cold, ...k.warm]));
  const harness = stat(allRuns.filter((r) => !r.error).map((r) => r.harnessScriptingMs));
  if (harness) console.log(`the probe's own scripting before the launcher (left out): median ${harness.median.toFixed(1)} ms, max ${harness.max.toFixed(1)} ms`);
  if (opts.json) {
    writeFileSync(opts.json, JSON.stringify({ chromium: browser.version(), runs: RUNS, dist: distDir, conditions: Object.fromEntries(conditionIds.map((c) => [c, CONDITIONS[c]])), widgets: widgets.map(({ id, label, scriptUrl }) => ({ id, label, scriptUrl })), results }, null, 1));
    console.log(`every run's figures: ${opts.json}`);
  }
  failed = allRuns.every((r) => r.error);
  if (failed) console.error('bench:launch: no run could be measured');
} catch (error) {
  console.error(`bench:launch failed: ${error?.stack ?? error}`);
  failed = true;
} finally {
  await browser?.close().catch(() => {});
  await servers?.close().catch(() => {});
  elevenlabs?.cleanup();
}
process.exit(failed ? 1 : 0);

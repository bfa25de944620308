// Voice call main-thread benchmark in every engine (`npm run bench:call-engines`; build first). Measures only,
// asserts nothing; exits 1 only when it could not measure.
//
// Firefox and WebKit have no CDP performance metrics, so this measures what the operating system counts for each
// engine alike: the CPU time of the page process's main thread (`/proc/<pid>/task/<pid>/schedstat`, nanoseconds on
// a CPU), summed over the engine's page processes (Chromium's renderers, Firefox's content processes, WebKitGTK's web
// processes; the other pages' are idle), over whole 3 s windows, in ms per second. Unlike CDP's TaskDuration it counts
// everything the thread did, the engine's own idle work too: compare windows and builds with each other, not with
// bench:call's figures (Chromium is measured here as well, for that).
//
// Each engine as the browser tests start it (scripts/engines.mjs): Debian's Chromium with its fake microphone, Firefox
// ESR over WebDriver BiDi and WebKitGTK's MiniBrowser over WebDriver under Xvfb, both with a PulseAudio microphone. The
// built script-tag widget (`--dist`, default dist/) on a page of the reference service; the panel opened, then:
// - `idle`: the panel open, no call, 3 s;
// - `call, first 3 s` and `call, each later 3 s`: the microphone says its sentence every 3 s (test/fixtures/speech.wav),
//   so each window holds an exchange (the speech, its transcript, the streamed reply, the agent speaking, the
//   interruption);
// - `agent speaking 3 s` (`--speaking`): a microphone that says its sentence once in 15 s, the windows through which
//   the agent spoke.
// The harness reads nothing from the page during the windows (the turns it logged are read once, after them).
// `--floor` adds the engine's own share, with none of the widget: a page whose "call" is only the microphone into an
// AudioContext through a capture AudioWorklet that posts a 20 ms chunk to a Worker, and the context's output playing
// through an <audio> element (as the widget plays the agent); then the same with the Worker sending each chunk on a
// WebSocket (base64 in JSON, to a socket that answers nothing), as the widget's call worker does.
//
// Options: --engines chromium,firefox,webkit · --dist DIR (dist) · --agent ID (agent_demo_support) · --runs N (2) ·
// --windows N (4) · --speaking (also the speak-once windows) · --floor (also the floor).
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { WebSocketServer } from 'ws';
import { startService } from '../demo/service/service.mjs';
import * as puppeteer from 'puppeteer-core';
import { remote } from 'webdriverio';
import { chromiumArgsWithFakeMicrophone, chromiumPath, fakeMicrophoneWav } from '../scripts/chromium.mjs';
import { firefoxPath, firefoxPrefs, miniBrowserArgs, miniBrowserPath, startEngineServices } from '../scripts/engines.mjs';
import { callPage, median, scriptTagFiles, servePages, speechOnce } from './call-page.mjs';

const { values: options } = parseArgs({
  options: {
    engines: { type: 'string', default: 'chromium,firefox,webkit' },
    dist: { type: 'string', default: 'dist' },
    agent: { type: 'string', default: 'agent_demo_support' },
    runs: { type: 'string', default: '2' },
    windows: { type: 'string', default: '4' },
    speaking: { type: 'boolean', default: false },
    floor: { type: 'boolean', default: false },
  },
});
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.resolve(root, options.dist);
if (!existsSync(path.join(dist, 'voice-agent-widget.js'))) {
  console.error(`bench:call-engines: ${dist}/voice-agent-widget.js is missing (npm run build)`);
  process.exit(1);
}
const RUNS = Math.max(1, Number(options.runs));
const WINDOWS = Math.max(2, Number(options.windows));
const files = scriptTagFiles(dist);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every process: its parent and command line (a process gone meanwhile is left out). */
function processes() {
  const list = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      list.push({ pid: Number(name), ppid, cmdline: readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ') });
    } catch {
      // Gone.
    }
  }
  return list;
}

/** The page processes of an engine whose browser runs as `rootPid` (or, without one, any on this machine). */
function pageProcesses(engine, rootPid) {
  const all = processes();
  const under = new Set(rootPid ? [rootPid] : []);
  for (let grew = true; grew && rootPid;) {
    grew = false;
    for (const p of all) if (under.has(p.ppid) && !under.has(p.pid)) (under.add(p.pid), (grew = true));
  }
  const page = { chromium: / --type=renderer /, firefox: / -contentproc /, webkit: /WebKitWebProcess /}[engine];
  return all.filter((p) => (!rootPid || under.has(p.pid)) && page.test(`${p.cmdline} `)).map((p) => p.pid);
}

/** The CPU time (ms) of each page process's main thread, by pid. */
function mainThreadTimes(engine, rootPid) {
  const times = new Map();
  for (const pid of pageProcesses(engine, rootPid)) {
    try {
      times.set(pid, Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6);
    } catch {
      // Gone.
    }
  }
  return { at: Date.now(), times };
}

/** ms per second of main-thread CPU from `a` to `b` (a process new in `b` counts from 0). */
const rate = (a, b) => {
  let ms = 0;
  for (const [pid, t] of b.times) ms += t - (a.times.get(pid) ?? 0);
  return (ms * 1000) / (b.at - a.at);
};

/**
 * An engine driven the same way whatever its protocol: `open(url)`, `run(fn, ...args)` (a function run in the page,
 * its result returned), `rootPid` (the browser's process, whose descendants are measured), `close()`.
 */
async function launch(engine, services, microphone) {
  if (engine === 'webkit') {
    const browser = await remote({
      hostname: '127.0.0.1', port: services.webkitDriverPort, path: '/', logLevel: 'error',
      capabilities: { browserName: 'MiniBrowser', 'wdio:enforceWebDriverClassic': true, 'webkitgtk:browserOptions': { binary: miniBrowserPath, args: miniBrowserArgs } },
    });
    return { open: (url) => browser.url(url), run: (fn, ...args) => browser.execute(fn, ...args), rootPid: null, close: () => browser.deleteSession() };
  }
  let browser;
  if (engine === 'firefox') {
    browser = await puppeteer.launch({ browser: 'firefox', executablePath: firefoxPath, headless: true, extraPrefsFirefox: firefoxPrefs, env: services.env });
  } else {
    const args = chromiumArgsWithFakeMicrophone().map((arg) => (arg.startsWith('--use-file-for-fake-audio-capture=') ? `--use-file-for-fake-audio-capture=${microphone}` : arg));
    browser = await puppeteer.launch({ executablePath: chromiumPath, headless: true, args });
  }
  const [tab] = await browser.pages();
  return { open: (url) => tab.goto(url), run: (fn, ...args) => tab.evaluate(fn, ...args), rootPid: browser.process().pid, close: () => browser.close() };
}

/** The floor's page: `go()` starts its "call" (see `--floor`). */
const FLOOR_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>floor</title></head><body><h1>A page</h1><script>
const worklet = URL.createObjectURL(new Blob([\`registerProcessor('capture', class extends AudioWorkletProcessor {
  constructor() { super(); this.n = 0; this.pcm = new Int16Array(960); this.port.onmessage = ({ data }) => (this.out = data); }
  process([input]) { const x = input[0]; if (!x || !this.out) return true;
    for (let i = 0; i < x.length; i++) { this.pcm[this.n++] = x[i] * 32767; if (this.n === this.pcm.length) { this.out.postMessage(this.pcm); this.pcm = new Int16Array(960); this.n = 0; } }
    return true; } });\`], { type: 'text/javascript' }));
// The sender: with a socket URL, each chunk sent on it as the widget's call worker sends it (base64 in JSON); run in
// the Worker, or on the page itself with \`&page\` (the widget's call where no worker runs).
const sender = ({ port, socket }) => {
  const ws = socket ? new WebSocket(socket) : null;
  port.onmessage = ({ data: pcm }) => {
    if (ws?.readyState !== 1) return;
    const bytes = new Uint8Array(pcm.buffer);
    let binary = '';
    for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    ws.send(JSON.stringify({ user_audio_chunk: btoa(binary) }));
  };
};
const worker = URL.createObjectURL(new Blob([\`onmessage = ({ data }) => (\${sender})(data);\`], { type: 'text/javascript' }));
window.go = async () => {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true } });
  const ctx = new AudioContext();
  await ctx.audioWorklet.addModule(worklet);
  const node = new AudioWorkletNode(ctx, 'capture', { numberOfOutputs: 0 });
  const channel = new MessageChannel();
  node.port.postMessage(channel.port1, [channel.port1]);
  const query = new URLSearchParams(location.search);
  if (query.has('page')) sender({ port: channel.port2, socket: query.get('socket') });
  else new Worker(worker).postMessage({ port: channel.port2, socket: query.get('socket') }, [channel.port2]);
  ctx.createMediaStreamSource(stream).connect(node);
  const out = ctx.createMediaStreamDestination();
  ctx.createConstantSource().connect(out);
  const audio = new Audio();
  audio.srcObject = out.stream;
  await audio.play();
  window.live = true;
};
</script></body></html>`;

/** Polls `check` (before the windows only: polling runs script in the page) until it is true. @throws Error after 20 s */
async function until(check, what) {
  const end = Date.now() + 20000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} did not happen within 20 s`);
    await sleep(100);
  }
}

/** `count` consecutive 3 s windows from now: `{from, to}` (ms since the epoch) and `ms` (ms per second). */
async function windowsFrom(engine, rootPid, count) {
  let last = mainThreadTimes(engine, rootPid);
  const windows = [];
  for (let i = 0; i < count; i++) {
    await sleep(3000);
    const next = mainThreadTimes(engine, rootPid);
    windows.push({ from: last.at, to: next.at, ms: rate(last, next) });
    last = next;
  }
  return windows;
}

/**
 * One run: the idle window (the widget's panel open, or the floor's page loaded), then `count` windows of a call (the
 * widget's, or the floor's `go()`).
 * @returns `{idle, windows: [{from, to, ms, speaking}]}`, `speaking` when the agent spoke through the whole window
 */
async function run(engine, services, url, microphone, count) {
  const driver = await launch(engine, services, microphone);
  const floor = url.includes('/floor');
  // In the page: the element of the widget's shadow root that `selector` names, pressed or looked for.
  const press = (selector) => driver.run((s) => document.querySelector('voice-agent-widget')?.shadowRoot?.querySelector(s)?.click(), selector);
  const has = (selector) => () => driver.run((s) => !!document.querySelector('voice-agent-widget')?.shadowRoot?.querySelector(s), selector);
  try {
    await driver.open(url);
    if (!floor) {
      await until(has('.launcher:not([disabled])'), `${engine}: the launcher`);
      await press('.launcher');
      await until(has('[part~="start-call-button"]'), `${engine}: the panel`);
    }
    await sleep(1500);
    const [idle] = await windowsFrom(engine, driver.rootPid, 1);
    if (floor) {
      await driver.run(() => void window.go());
      await until(() => driver.run(() => window.live === true), `${engine}: the floor's audio`);
    } else {
      await press('[part~="start-call-button"]');
      await until(async () => (await has('[part~="accept-terms-button"]')()) ? (await press('[part~="accept-terms-button"]'), false) : has('.root.live')(), `${engine}: the call`);
    }
    const windows = await windowsFrom(engine, driver.rootPid, count);
    const turns = floor ? [] : await driver.run(() => window.benchTurns);
    if (!floor) await press('[part~="end-button"]');
    for (const w of windows) {
      const before = turns.filter(([t]) => t <= w.from).at(-1)?.[1];
      w.speaking = before === 'speaking' && !turns.some(([t]) => t > w.from && t <= w.to);
    }
    return { idle: idle.ms, windows };
  } finally {
    await driver.close().catch(() => {});
  }
}

const cell = (v) => (Number.isFinite(v) ? v.toFixed(1) : '-').padStart(10);
let service;
let sink;
let failed = false;
const speakDir = options.speaking ? mkdtempSync(path.join(tmpdir(), 'bench-call-engines-')) : null;
try {
  service = await startService({
    host: '127.0.0.1', port: 0, log: () => {}, replyDelayMs: 5,
    fallback: servePages({ '/call': callPage(options.agent, 'bench:call-engines'), '/floor': FLOOR_PAGE }, files),
  });
  const url = `${service.url}/call`;
  // The floor's socket: takes the chunks, answers nothing.
  sink = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => sink.once('listening', resolve));
  const microphones = [['loop', fakeMicrophoneWav]];
  if (speakDir) {
    const once = path.join(speakDir, 'speech-once.wav');
    writeFileSync(once, speechOnce(fakeMicrophoneWav, 15));
    microphones.push(['once', once]);
  }
  console.log(`bench:call-engines: the built widget (${options.dist}/), agent ${options.agent}, ${RUNS} run(s) per engine`);
  console.log('main-thread CPU time of the page processes (/proc schedstat), ms per second: the median window, [the largest]');
  console.log(`${'engine / window'.padEnd(30)}${'median'.padStart(10)}${'largest'.padStart(10)}${'windows'.padStart(10)}`);
  for (const engine of options.engines.split(',').map((e) => e.trim()).filter(Boolean)) {
    const rows = [];
    for (const [kind, microphone] of microphones) {
      // Firefox and WebKit hear the microphone file through PulseAudio (scripts/engines.mjs), Chromium from its flag.
      const services = engine === 'chromium' ? { env: process.env, stop() {} } : await startEngineServices([engine], { microphone });
      try {
        const runs = [];
        for (let i = 0; i < RUNS; i++) runs.push(await run(engine, services, url, microphone, kind === 'loop' ? WINDOWS : 5));
        if (kind === 'loop') {
          rows.push(['idle (panel open)', runs.map((r) => r.idle)]);
          rows.push(['call, first 3 s', runs.map((r) => r.windows[0].ms)]);
          rows.push(['call, each later 3 s', runs.flatMap((r) => r.windows.slice(1).map((w) => w.ms))]);
        } else rows.push(['agent speaking 3 s', runs.flatMap((r) => r.windows.filter((w) => w.speaking).map((w) => w.ms))]);
        if (kind === 'loop' && options.floor) {
          for (const [name, query] of [['floor: microphone live', ''], ['floor: + 50 sends/s (Worker)', `?socket=ws://127.0.0.1:${sink.address().port}`], ['floor: + 50 sends/s (page)', `?socket=ws://127.0.0.1:${sink.address().port}&page`]]) {
            const floors = [];
            for (let i = 0; i < RUNS; i++) floors.push(await run(engine, services, `${service.url}/floor${query}`, microphone, WINDOWS));
            if (!query) rows.push(['floor: idle', floors.map((r) => r.idle)]);
            rows.push([name, floors.flatMap((r) => r.windows.slice(1).map((w) => w.ms))]);
          }
        }
      } finally {
        services.stop();
      }
    }
    for (const [name, values] of rows) {
      console.log(`${`${engine} / ${name}`.padEnd(30)}${cell(median(values))}${cell(values.length ? Math.max(...values) : NaN)}${String(values.length).padStart(10)}`);
    }
  }
} catch (error) {
  console.error(`bench:call-engines failed: ${error?.stack ?? error}`);
  failed = true;
} finally {
  await service?.close().catch(() => {});
  sink?.close();
  if (speakDir) rmSync(speakDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

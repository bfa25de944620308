// The echo rig (issue 19, "Never hears itself"): a real audio loop, real browsers, the real reference service.
// - A private PulseAudio whose output is a null sink `speaker` and whose default source (the microphone) is that
//   sink's monitor, remapped (TOOLCHAIN.md, "Other engines, audio devices"): whatever the page plays comes back in its
//   microphone at full level, as from laptop speakers with no acoustic loss at all.
// - An Xvfb display: Chromium and Firefox run headful (headless Chromium plays to a fake audio device, not PulseAudio),
//   with their real devices (no fake device flags).
// - The reference service (demo/service) in this process, whose agent `agent_echo` greets with a reply of about
//   5.5 s (eSpeak NG), and the built script-tag widget (dist/: `npm run build` first) on a page of the same origin.
// A visitor opens the widget and starts a voice call; the service records the level of every `user_audio_chunk` that
// arrives while its agent speaks, and every start of speech its VAD detects (records.mjs, `inputLevelsOf`).
// Used by test/echo/loop.test.mjs (asserts) and bench/echo.mjs (prints).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as puppeteer from 'puppeteer-core';
import { inputLevelsOf, INPUT_LEVEL_TAIL_MS } from '../../demo/service/records.mjs';
import { startService } from '../../demo/service/service.mjs';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { firefoxPath, firefoxPrefs } from '../../scripts/engines.mjs';

/**
 * The agent's greeting: 5.5 s of speech at -22 dBFS RMS (eSpeak NG, en-us), three sentences: pauses of 280 ms at
 * 1.12 s and 2.44 s, as an agent's speech has them. ECHO_GREETING overrides it (bench:echo with a greeting of no pause).
 */
export const GREETING = process.env.ECHO_GREETING || 'Thanks for calling. I am the demo agent. I will keep talking for about five seconds.';
/** The visitor's voice for a barge-in: 3 s of speech, about -20 dBFS while voiced, starting within its first 40 ms. */
export const VOICE_WAV = fileURLToPath(new URL('../fixtures/speech.wav', import.meta.url));
/** The level every chunk stays under while the agent speaks (dBFS), and the raw loop's least level (the loop works). */
export const ECHO_LIMIT_DBFS = -45;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `check()` is true, polling every 50 ms. @throws Error after `ms` */
async function until(check, ms, what) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} did not happen within ${ms} ms`);
    await sleep(50);
  }
}

/** Runs a command to its end. @throws Error when it fails */
function run(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (data) => (errors += data));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')}: ${errors}`))));
  });
}

/** dBFS of an RMS level relative to full scale (-120 for silence). */
export const dbfs = (level) => (level > 1e-6 ? Math.round(200 * Math.log10(level)) / 10 : -120);
/** The RMS level over chunks given in dBFS (their energies averaged), dBFS; -120 for none. */
export const meanDbfs = (values) => (values.length ? dbfs(Math.sqrt(values.reduce((sum, v) => sum + 10 ** (v / 10), 0) / values.length)) : -120);

/**
 * Starts the loop: Xvfb (its own display) and a private PulseAudio with the null sink `speaker` as the default output
 * and `mic`, its monitor remapped, as the default source.
 * @returns `{env, play(file), listen(), stop()}`: `env` for the browsers (DISPLAY, XDG_RUNTIME_DIR); `play(file)` plays
 * a WAV file into the speaker, resolving `{startedMs, done}` once the player runs; `listen()` records the speaker's
 * monitor (16 kHz mono) and returns `{levelBetween(fromMs, toMs), stop()}`, the raw loop's RMS level over a time span
 * (dBFS); `stop()` ends every process started here and removes the runtime directory
 */
export async function startLoop() {
  const children = [];
  const env = { ...process.env };
  const runtimeDir = mkdtempSync(join(tmpdir(), 'vaw-echo-'));
  env.XDG_RUNTIME_DIR = runtimeDir;
  const stop = async () => {
    const exits = [];
    for (const child of children.reverse()) {
      if (child.exitCode === null && child.signalCode === null) {
        exits.push(new Promise((resolve) => child.once('exit', resolve)));
        child.kill('SIGTERM');
      }
    }
    await Promise.race([Promise.all(exits), sleep(3000)]);
    rmSync(runtimeDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  };
  try {
    const display = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { env, stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
    children.push(display);
    let number = '';
    display.stdio[3].on('data', (data) => (number += data));
    display.once('error', () => {});
    await until(() => /\n/.test(number) || display.exitCode !== null, 10000, 'Xvfb (apt-get install -y xvfb)');
    env.DISPLAY = `:${number.trim()}`;
    const pulse = spawn('pulseaudio', ['-n', '--daemonize=no', '--exit-idle-time=-1', '--load=module-native-protocol-unix',
      '--load=module-null-sink sink_name=speaker', '--load=module-always-sink'], { env, stdio: 'ignore' });
    children.push(pulse);
    pulse.once('error', () => {});
    await until(() => existsSync(join(runtimeDir, 'pulse', 'native')) || pulse.exitCode !== null, 10000, 'PulseAudio (apt-get install -y pulseaudio)');
    if (pulse.exitCode !== null) throw new Error('PulseAudio failed to start');
    // The loop: the speaker's monitor as the microphone.
    await run('pactl', ['load-module', 'module-remap-source', 'master=speaker.monitor', 'source_name=mic', 'source_properties=device.description=Loop'], env);
    await run('pactl', ['set-default-source', 'mic'], env);
    await run('pactl', ['set-default-sink', 'speaker'], env);
    // A null sink with no stream sleeps in 2 s blocks (scripts/engines.mjs): a stream of silence keeps them at 20 ms.
    const keep = spawn('pacat', ['--playback', '--device=speaker', '--latency-msec=20', '--raw', '/dev/zero'], { env, stdio: 'ignore' });
    children.push(keep);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    env,
    stop,
    async play(file) {
      const child = spawn('paplay', ['--device=speaker', '--latency-msec=20', file], { env, stdio: 'ignore' });
      children.push(child);
      const done = new Promise((resolve) => child.once('exit', resolve));
      await new Promise((resolve, reject) => child.once('spawn', resolve).once('error', reject));
      return { startedMs: Date.now(), done };
    },
    listen() {
      const child = spawn('parec', ['--device=speaker.monitor', '--format=s16le', '--rate=16000', '--channels=1', '--raw', '--latency-msec=20'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
      children.push(child);
      /** [arrival ms, sum of squares, samples] per block read. */
      const blocks = [];
      let carry = null;
      child.stdout.on('data', (data) => {
        let bytes = carry ? Buffer.concat([carry, data]) : data;
        carry = bytes.length % 2 ? bytes.subarray(bytes.length - 1) : null;
        if (carry) bytes = bytes.subarray(0, bytes.length - 1);
        let sum = 0;
        for (let i = 0; i < bytes.length; i += 2) sum += (bytes.readInt16LE(i) / 32768) ** 2;
        blocks.push([Date.now(), sum, bytes.length / 2]);
      });
      return {
        /**
         * When the loop carried sound louder than `dbfs` (per block read, 20 ms or so) from `fromMs` on:
         * `{startMs, endMs}` (ms since the epoch: the first such block's arrival, the last one's), or null.
         */
        loudSpan(fromMs, dbfs = -40) {
          const loud = blocks.filter(([ms, s, n]) => ms >= fromMs && n && 10 * Math.log10(s / n) > dbfs);
          return loud.length ? { startMs: loud[0][0], endMs: loud.at(-1)[0] } : null;
        },
        levelBetween(fromMs, toMs) {
          let sum = 0;
          let count = 0;
          for (const [ms, s, n] of blocks) if (ms >= fromMs && ms < toMs) [sum, count] = [sum + s, count + n];
          return count ? dbfs(Math.sqrt(sum / count)) : -120;
        },
        stop: () => child.kill('SIGTERM'),
      };
    },
  };
}

/** The site's page: the script-tag widget of `agent_echo`. */
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A site</title>
<script src="/voice-agent-widget.js"></script></head><body><h1>A site</h1><voice-agent-widget agent-id="agent_echo"></voice-agent-widget></body></html>`;

/**
 * Starts the reference service on 127.0.0.1 (a free port) with the agent `agent_echo` (agent_minimal's widget,
 * greeting with `GREETING`), serving the page at `/site` and the built script-tag widget beside it (`dist`: a URL of the
 * folder holding the build, default dist/).
 * @throws Error when dist/ has no build
 */
export async function startEchoService({ dist = new URL('../../dist/', import.meta.url) } = {}) {
  if (!existsSync(new URL('voice-agent-widget.js', dist))) throw new Error(`${fileURLToPath(dist)}voice-agent-widget.js is missing: npm run build first`);
  const files = Object.fromEntries(readdirSync(dist).filter((f) => /^voice-agent-.*\.js$/.test(f)).map((f) => [`/${f}`, readFileSync(new URL(f, dist))]));
  const started = await startService({
    host: '127.0.0.1', port: 0, log: () => {},
    fallback(req, res) {
      const path = req.url.split('?')[0];
      if (path === '/site') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
      const file = files[path];
      if (file) res.writeHead(200, { 'content-type': 'text/javascript' }).end(file);
      else res.writeHead(404).end();
    },
  });
  const { agents } = started.service;
  const agent = structuredClone(agents.get('agent_minimal'));
  agent.agent_id = 'agent_echo';
  agent.conversation_config.agent.first_message = GREETING;
  agent.platform_settings.widget.first_message = GREETING;
  agents.set('agent_echo', agent);
  return started;
}

/**
 * Launches `engine` ('chromium' or 'firefox') headful on the loop's display and devices, with no permission prompt and
 * sound allowed without a gesture; no fake device.
 */
export function launchBrowser(engine, env) {
  if (engine === 'firefox') {
    return puppeteer.launch({ browser: 'firefox', executablePath: firefoxPath, headless: false, extraPrefsFirefox: firefoxPrefs, env });
  }
  return puppeteer.launch({
    executablePath: chromiumPath, headless: false, env,
    args: [...chromiumArgs, '--use-fake-ui-for-media-stream', '--autoplay-policy=no-user-gesture-required'],
  });
}

/**
 * One voice call as a visitor makes it, in a new tab of `browser`: opens the widget, starts a call, and waits for the
 * agent's greeting to be over (played out, or interrupted) plus the tail the service keeps; with `bargeInAtMs`, the
 * visitor's voice (`VOICE_WAV`) is played into the loop that long after the greeting's first chunk went out.
 * @returns the figures, times in ms from the greeting's first chunk sent: `heardMs` (when the loop carried the agent's
 * voice: its first and last block above -40 dBFS), `echo` `{first, rest}` (the chunks that arrived up to the end of the
 * first second of that, and after it to its end (or to the visitor's voice) plus 500 ms: `{count, maxDbfs, meanDbfs}`), `chunks`
 * (every chunk kept, `[ms, dBFS]`), `raw` (the loop's own level over the greeting, dBFS), `speech` (the VAD's starts:
 * `{atMs, interrupted}`),
 * `bargeIn` (`{voiceAtMs, detectedMs}`: the voice's start and the interruption after it, ms; null when none)
 */
export async function callOnce(browser, { service, loop, bargeInAtMs } = {}) {
  const conversations = service.service.conversations;
  const known = new Set(conversations.keys());
  const tab = await browser.newPage();
  const errors = [];
  tab.on('pageerror', (error) => errors.push(error.message));
  tab.on('console', (message) => process.env.ECHO_DEBUG && console.log(`[${message.type()}] ${message.text()}`));
  const monitor = loop.listen();
  try {
    await tab.goto(`${service.url}/site`);
    const press = async (selector) => (await tab.waitForSelector(`voice-agent-widget >>> ${selector}`, { visible: true, timeout: 15000 })).click();
    await press('.launcher:not([disabled])');
    await press('[part~="start-call-button"]');
    await tab.waitForSelector('voice-agent-widget >>> [part~="end-button"]', { timeout: 20000 });
    let record;
    await until(() => (record = [...conversations].find(([id, r]) => !known.has(id) && r.agent_id === 'agent_echo')?.[1]), 15000, 'the conversation');
    const levels = inputLevelsOf(record);
    await until(() => levels.agent.length > 0, 15000, 'the greeting');
    const greeting = levels.agent[0];
    let voice = null;
    if (bargeInAtMs !== undefined) {
      await sleep(greeting.started_ms + bargeInAtMs - Date.now());
      voice = await loop.play(VOICE_WAV);
    }
    // Over once the service is done with it and the loop has been quiet for 700 ms (the page plays it later than the
    // service sends it), within the time the service keeps the chunks.
    const sent = () => Math.min(greeting.ends_at_ms, greeting.cancelled_ms ?? Infinity);
    await until(() => {
      const now = Date.now();
      const span = monitor.loudSpan(greeting.started_ms);
      return now > sent() + INPUT_LEVEL_TAIL_MS - 200 || (now > sent() + 500 && span !== null && now > span.endMs + 700);
    }, 20000, 'the end of the greeting');
    if (voice) await voice.done;
    await press('[part~="end-button"]').catch(() => {});
    const t0 = greeting.started_ms;
    // When the agent's voice was in the loop: from its first loud block (the page started playing it) to its last
    // (to the voice's start, in a barge-in: the loop then carries the visitor too), plus 500 ms of the loop's tail.
    const heard = monitor.loudSpan(t0) ?? { startMs: t0, endMs: greeting.ends_at_ms };
    const from = heard.startMs;
    const to = (voice ? voice.startedMs : heard.endMs) + 500;
    const chunks = levels.chunks.filter((c) => c.event_id === greeting.event_id);
    const span = (list) => ({ count: list.length, maxDbfs: Math.max(-120, ...list.map((c) => c.dbfs)), meanDbfs: meanDbfs(list.map((c) => c.dbfs)) });
    const speech = levels.speech.map((s) => ({ atMs: s.ms - t0, interrupted: s.interrupted }));
    const detection = voice && levels.speech.find((s) => s.ms >= voice.startedMs && s.interrupted === greeting.event_id);
    return {
      durationMs: greeting.ends_at_ms - t0,
      heardMs: [heard.startMs - t0, heard.endMs - t0],
      cancelledAtMs: greeting.cancelled_ms === null ? null : greeting.cancelled_ms - t0,
      echo: {
        first: span(chunks.filter((c) => c.ms < from + 1000)),
        rest: span(chunks.filter((c) => c.ms >= from + 1000 && c.ms < to)),
      },
      chunks: chunks.map((c) => [c.ms - t0, c.dbfs]),
      raw: monitor.levelBetween(from, voice ? voice.startedMs : heard.endMs),
      speech,
      bargeIn: voice && { voiceAtMs: voice.startedMs - t0, detectedMs: detection ? detection.ms - voice.startedMs : null },
      errors,
    };
  } catch (error) {
    if (process.env.ECHO_DEBUG) await tab.screenshot({ path: '/tmp/echo/fail.png' });
    throw error;
  } finally {
    monitor.stop();
    await tab.close().catch(() => {});
  }
}

// The three browser engines the tests run in (TOOLCHAIN.md, "Other engines, audio devices"), all from Debian's
// packages, each driven by its own standard automation protocol, none downloaded:
// - chromium: Debian's Chromium over CDP (playwright-core), a fake microphone playing test/fixtures/speech.wav;
// - firefox: Firefox ESR over WebDriver BiDi (puppeteer-core), a PulseAudio microphone playing speech.wav, PulseAudio
//   as its output;
// - webkit: WebKitGTK's MiniBrowser over W3C WebDriver (WebKitWebDriver), under Xvfb, the same PulseAudio microphone
//   as Firefox's (through GStreamer's pulsesrc: Debian's gstreamer1.0-pulseaudio). Its mock microphone is a tone that
//   never falls silent, so a visitor's turn would never end.
// `startEngineServices()` starts what an engine needs and this machine lacks (an X display, a PulseAudio daemon with
// a null sink, WebKitWebDriver) and returns how to stop it all.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeMicrophoneWav } from './chromium.mjs';

export const ENGINES = ['chromium', 'firefox', 'webkit'];

/** Firefox ESR; FIREFOX_PATH overrides. */
export const firefoxPath = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
/** WebKitGTK's MiniBrowser and its WebDriver; MINIBROWSER_PATH overrides. */
export const miniBrowserPath = process.env.MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
export const webkitDriverPath = process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver';

/**
 * The engines to run, from `ENGINES` (comma-separated: `chromium,firefox,webkit`, the default).
 * @throws Error on a name that is not an engine
 */
export function chosenEngines(value = process.env.ENGINES) {
  const chosen = (value || ENGINES.join(',')).split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = chosen.filter((name) => !ENGINES.includes(name));
  if (unknown.length) throw new Error(`ENGINES: no such engine ${unknown.join(', ')} (one of ${ENGINES.join(', ')})`);
  return chosen;
}

/**
 * Firefox's preferences: the PulseAudio microphone (the speech file, see `startEngineServices`), no permission
 * prompt, no autoplay block, no network noise.
 */
export const firefoxPrefs = {
  'media.navigator.streams.fake': false,
  'media.navigator.permission.disabled': true,
  'media.autoplay.default': 0,
  'media.autoplay.block-webaudio': false,
  'app.update.enabled': false,
  'browser.shell.checkDefaultBrowser': false,
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
};

/**
 * MiniBrowser's flags: automation (no permission prompt), media capture from the real (PulseAudio) devices, audio
 * allowed without a gesture.
 */
export const miniBrowserArgs = ['--automation', '--enable-media-stream=true', '--enable-mock-capture-devices=false', '--autoplay-policy=allow'];

/** GStreamer's PulseAudio plugin: WebKitGTK finds no microphone without it. */
const pulseSourcePlugin = '/usr/lib/x86_64-linux-gnu/gstreamer-1.0/libgstpulseaudio.so';

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `check()` is true, polling every 50 ms. @throws Error after `ms` */
async function until(check, ms, what) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} did not start within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs `pactl` against the private PulseAudio. @throws Error when it fails */
function pactl(env, ...args) {
  return new Promise((resolve, reject) => {
    const child = spawn('pactl', args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (data) => (errors += data));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`pactl ${args.join(' ')}: ${errors}`))));
  });
}

/** Runs `command` again each time it ends, until `child.kill()`: a looping player. */
function loop(command, args, env) {
  let current;
  let stopped = false;
  const run = () => {
    current = spawn(command, args, { env, stdio: 'ignore' });
    current.once('exit', () => stopped || run());
    current.once('error', () => {});
  };
  run();
  const child = { get exitCode() { return stopped ? 0 : null; }, kill() { stopped = true; current.kill('SIGTERM'); } };
  return { child, errors: () => '' };
}

/** Starts `command` in the background; its output goes to this process's stderr only when it fails to start. */
function start(command, args, env) {
  const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (data) => (errors = (errors + data).slice(-4000)));
  child.once('error', (error) => (errors += String(error)));
  return { child, errors: () => errors };
}

/**
 * Starts what `engines` need: for firefox and webkit a private PulseAudio with a null sink `speaker` (Firefox's
 * AudioContext never runs without an output device; these machines have no sound card) and a microphone playing the
 * WAV file `microphone` (default `fakeMicrophoneWav`) in a loop (the monitor of a null sink `microphone` that paplay
 * feeds), for webkit an Xvfb display (unless DISPLAY is set) and WebKitWebDriver on a free port.
 * @returns `{ env, webkitDriverPort, stop() }`: `env` is the environment a browser process gets (XDG_RUNTIME_DIR,
 * DISPLAY); `stop()` ends every process started here and removes the runtime directory
 * @throws Error when a binary is missing (with the apt package to install) or a service does not come up in 10 s
 */
export async function startEngineServices(engines, { microphone = fakeMicrophoneWav } = {}) {
  const children = [];
  const env = { ...process.env };
  let runtimeDir;
  const stop = () => {
    for (const { child } of children.reverse()) if (child.exitCode === null) child.kill('SIGTERM');
    // A process just told to stop may still write there (PulseAudio): retried, and never thrown out of a run's end.
    try {
      if (runtimeDir) rmSync(runtimeDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch (error) {
      console.warn(`engines: ${runtimeDir} not removed: ${error.message}`);
    }
  };
  try {
    const needs = (name, path, pkg) => {
      if (engines.includes(name) && !existsSync(path)) throw new Error(`${name}: ${path} is missing (apt-get install -y ${pkg})`);
    };
    needs('firefox', firefoxPath, 'firefox-esr');
    needs('webkit', webkitDriverPath, 'webkit2gtk-driver');
    needs('webkit', miniBrowserPath, 'webkit2gtk-driver');
    needs('webkit', pulseSourcePlugin, 'gstreamer1.0-pulseaudio');
    if (engines.includes('firefox') || engines.includes('webkit')) {
      runtimeDir = mkdtempSync(join(tmpdir(), 'vaw-pulse-'));
      env.XDG_RUNTIME_DIR = runtimeDir;
      const pulse = start('pulseaudio', ['-n', '--daemonize=no', '--exit-idle-time=-1', '--load=module-native-protocol-unix',
        '--load=module-null-sink sink_name=speaker', '--load=module-always-sink'], env);
      children.push(pulse);
      await until(() => existsSync(join(runtimeDir, 'pulse', 'native')) || pulse.child.exitCode !== null, 10000, 'PulseAudio');
      if (pulse.child.exitCode !== null) throw new Error(`PulseAudio failed (apt-get install -y pulseaudio): ${pulse.errors()}`);
      // The microphone: a second null sink fed the speech file in a loop; its monitor, remapped, is the default source.
      // Firefox and WebKit read it as a real device (their own fake microphones are steady tones, never silent).
      await pactl(env, 'load-module', 'module-null-sink', 'sink_name=microphone', 'sink_properties=device.description=Speech');
      // WebKitGTK lists no monitor source as a microphone: a remapped source over the monitor is one.
      await pactl(env, 'load-module', 'module-remap-source', 'master=microphone.monitor', 'source_name=speech', 'source_properties=device.description=Speech');
      await pactl(env, 'set-default-source', 'speech');
      await pactl(env, 'set-default-sink', 'speaker');
      // A null sink with no stream sleeps in blocks of its largest latency, 2 s, before it sees a new stream: every
      // AudioContext (Firefox) and every playback then took about 2 s to start (paplay of 0.1 s: 2.0 s), where a sound
      // card's takes a few ms. A low-latency stream of silence that never ends keeps the speaker's blocks at 20 ms
      // (paplay of 0.1 s: 0.13 s), and the microphone's player asks for the same.
      children.push(start('pacat', ['--playback', '--device=speaker', '--latency-msec=20', '--raw', '/dev/zero'], env));
      children.push(loop('paplay', ['--device=microphone', '--latency-msec=20', microphone], env));
    }
    let webkitDriverPort;
    if (engines.includes('webkit')) {
      if (!env.DISPLAY) {
        // -displayfd: Xvfb takes a free display number itself and writes it to fd 3.
        const child = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { env, stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
        children.push({ child });
        let number = '';
        child.stdio[3].on('data', (data) => (number += data));
        let failed = false;
        child.once('error', () => (failed = true));
        await until(() => /\n/.test(number) || child.exitCode !== null || failed, 10000, 'Xvfb');
        if (!/\d+\n/.test(number)) throw new Error('Xvfb failed to start (apt-get install -y xvfb)');
        env.DISPLAY = `:${number.trim()}`;
      }
      webkitDriverPort = await freePort();
      const driver = start(webkitDriverPath, [`--port=${webkitDriverPort}`, '--host=127.0.0.1'], env);
      children.push(driver);
      await until(
        () => fetch(`http://127.0.0.1:${webkitDriverPort}/status`).then((res) => res.ok, () => false),
        10000,
        'WebKitWebDriver',
      );
    }
    return { env, webkitDriverPort, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/**
 * A MiniBrowser session over WebKitWebDriver's plain W3C WebDriver (for tools that drive WebKit outside the test
 * runner: the screenshots, the benchmarks). `call(method, route, body)` sends one command to the session (a route
 * such as `/url`) and resolves to its `value`; `close()` ends the session.
 * @param {number} port the driver's port (`startEngineServices(…).webkitDriverPort`)
 * @throws Error (rejects) when the driver refuses a command
 */
export async function webkitSession(port) {
  const send = async (method, route, body) => {
    const res = await fetch(`http://127.0.0.1:${port}${route}`, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
    const json = await res.json();
    if (!res.ok) throw new Error(`WebDriver ${route}: ${JSON.stringify(json.value)}`);
    return json.value;
  };
  const { sessionId } = await send('POST', '/session', {
    capabilities: { alwaysMatch: { browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: miniBrowserPath, args: miniBrowserArgs } } },
  });
  const session = `/session/${sessionId}`;
  return { call: (method, route, body) => send(method, `${session}${route}`, body), close: () => send('DELETE', session) };
}

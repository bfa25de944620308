// What each part of a voice call costs Chromium's main thread by itself, with none of the widget (`npm run
// bench:call-floor`): the floor under bench:call's figures. Measures only, asserts nothing.
//
// A bare page (no widget) in headless Debian Chromium with the fake microphone: a microphone into an AudioContext and
// a capture AudioWorklet that makes 20 ms chunks of 16 kHz PCM (as the widget's does), then, mode by mode:
// - `idle`: nothing; `mic`: the microphone and the worklet, no message out of it;
// - `mic+msg`: the worklet posts each chunk to the page (50 messages a second, an empty handler);
// - `mic+msg+b64`: the page also makes each chunk's `{"user_audio_chunk": base64}` text (no socket);
// - `mic+msg+wsconst`: the page sends a constant 900-character text on a WebSocket to 127.0.0.1 for each chunk;
// - `mic+msg+ws`: the page encodes and sends each chunk, as the widget does;
// - `mic+audio`, `mic+dest`: an oscillator played through an <audio> element's MediaStream, or to the destination;
// - `mic+msg+ws+audio`: both;
// - `…+batchN`: the worklet posts N chunks at a time (the page still sends each);
// - `mic+worker`: the worklet posts each chunk through a MessageChannel to a Worker, which encodes and sends it on its
//   own WebSocket (nothing on the page's main thread);
// - `mic+raf…`: an AnalyserNode's level read at each animation frame (`raf15`: every 4th, `raf5`: every 12th) and
//   written as a registered non-inherited property that scales a 48 px composited circle (`-notrans`: no transition;
//   `-noop`: the frame loop alone; `-nodom`: read, never written);
// - `mic+timerN…`: the same written from a timer N times a second, no frame loop;
// - `mic+anim`: a composited transform animation that runs forever (no level);
// - `mic+ocanvas`: the worklet's chunks to a Worker that draws the level on an OffscreenCanvas at its own frames.
// Each mode in a fresh page: 1 s to settle, then CDP Performance.getMetrics over 4 s: TaskDuration and ScriptDuration,
// ms per second, and how many level writes the page made. TRACE=1 adds a 2 s trace and its largest main-thread
// events by self time. Modes can be named as arguments (`node bench/call-floor.mjs mic+msg mic+msg+ws`).
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { chromiumArgsWithFakeMicrophone, chromiumPath } from '../scripts/chromium.mjs';
import { mainThreadWork, startTrace } from './launch-trace.mjs';

const worklet = `registerProcessor('cap', class extends AudioWorkletProcessor {
  constructor(o) { super(); this.n = 0; this.buf = new Int16Array(320); this.mode = o.processorOptions.mode; this.every = o.processorOptions.every; this.out = this.port; this.port.onmessage = ({ data }) => { this.out = data.port; }; }
  process(inputs) { const x = inputs[0][0]; if (!x) return true; for (let i = 0; i < x.length && this.n < 320; i++) this.buf[this.n++] = x[i] * 32767;
    if (this.n >= 320) { this.n = 0; if (this.mode !== 'none') { const b = new Int16Array(this.buf); (this.batch ??= []).push(b); if (this.batch.length >= this.every) { this.out.postMessage(this.every > 1 ? { batch: this.batch } : { pcm: b, level: 0.1, t: currentTime }, this.batch.map((x) => x.buffer)); this.batch = []; } } }
    return true; } });`;
const workerSource = `onmessage = ({ data }) => { const ws = new WebSocket(data.url); data.port.onmessage = ({ data: d }) => {
  if (ws.readyState !== 1) return; const bytes = new Uint8Array(d.pcm.buffer); let bin = ''; for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  ws.send(JSON.stringify({ user_audio_chunk: btoa(bin) })); }; };`;
const drawerSource = `onmessage = ({ data }) => { const g = data.canvas.getContext('2d'); let level = 0, drawn = -1;
  data.port.onmessage = ({ data: d }) => { let e = 0; for (const v of d.pcm) e += (v / 32768) ** 2; level = Math.round(Math.min(1, Math.sqrt(e / d.pcm.length) * 4) * 50) / 50; };
  const frame = () => { requestAnimationFrame(frame); if (level === drawn) return; drawn = level; g.clearRect(0, 0, 120, 120); g.fillStyle = '#36c'; g.beginPath(); g.arc(60, 60, 40 + 20 * level, 0, 7); g.fill(); self.draws = (self.draws ?? 0) + 1; };
  requestAnimationFrame(frame); };`;
const page = `<!doctype html><title>floor</title>
<style>@property --level { syntax: '<number>'; inherits: false; initial-value: 0 } .orb { width: 48px; height: 48px; border-radius: 50%; background: #36c;
  transform: scale(calc(1 + var(--level) * 0.3)); will-change: transform; transition: transform 60ms linear }</style><script>
const WORKER = ${JSON.stringify(workerSource)};
const DRAWER = ${JSON.stringify(drawerSource)};
window.go = async (mode) => {
  const s = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true } });
  const ctx = new AudioContext({ sampleRate: 48000 });
  await ctx.audioWorklet.addModule(URL.createObjectURL(new Blob([${JSON.stringify(worklet)}], { type: 'text/javascript' })));
  const src = ctx.createMediaStreamSource(s);
  const node = new AudioWorkletNode(ctx, 'cap', { numberOfOutputs: 0, processorOptions: { mode: /msg|worker|ocanvas/.test(mode) ? 'msg' : 'none', every: Number(/batch([0-9]+)/.exec(mode)?.[1] ?? 1) } });
  src.connect(node);
  if (mode.includes('ocanvas')) {
    const canvas = document.createElement('canvas'); canvas.width = canvas.height = 120; document.body.append(canvas);
    const off = canvas.transferControlToOffscreen();
    const w = new Worker(URL.createObjectURL(new Blob([DRAWER], { type: 'text/javascript' })));
    const ch = new MessageChannel();
    node.port.postMessage({ port: ch.port1 }, [ch.port1]);
    w.postMessage({ port: ch.port2, canvas: off }, [ch.port2, off]);
  }
  if (mode.includes('worker')) {
    const w = new Worker(URL.createObjectURL(new Blob([WORKER], { type: 'text/javascript' })));
    const ch = new MessageChannel();
    node.port.postMessage({ port: ch.port1 }, [ch.port1]);
    w.postMessage({ port: ch.port2, url: 'ws://127.0.0.1:' + location.port + '/ws' }, [ch.port2]);
  }
  if (mode.includes('raf')) {
    const an = ctx.createAnalyser(); an.fftSize = 512; src.connect(an); const buf = new Float32Array(512);
    const orb = document.createElement('div'); orb.className = 'orb'; document.body.append(orb);
    const every = mode.includes('raf15') ? 4 : mode.includes('raf5') ? 12 : 1; let n = 0, last = -1;
    if (mode.includes('notrans')) orb.style.transition = 'none';
    const tick = () => { requestAnimationFrame(tick); if (mode.includes('noop')) return; if (n++ % every) return; an.getFloatTimeDomainData(buf); let e = 0; for (const v of buf) e += v * v;
      const level = Math.round(Math.min(1, Math.sqrt(e / buf.length) * 4) * 50) / 50; if (level !== last && !mode.includes('nodom')) { last = level; window.changes = (window.changes ?? 0) + 1; orb.style.setProperty('--level', level); } };
    requestAnimationFrame(tick);
  }
  if (mode.includes('timer') || mode.includes('anim')) {
    const an = ctx.createAnalyser(); an.fftSize = 512; src.connect(an); const buf = new Float32Array(512);
    const orb = document.createElement('div'); orb.className = 'orb'; document.body.append(orb);
    if (mode.includes('notrans')) orb.style.transition = 'none';
    if (mode.includes('anim')) orb.animate([{ transform: 'scale(1)' }, { transform: 'scale(1.3)' }], { duration: 600, iterations: Infinity, direction: 'alternate' });
    const hz = Number(/timer([0-9]+)/.exec(mode)?.[1] ?? 0); let last = -1;
    if (hz) setInterval(() => { an.getFloatTimeDomainData(buf); let e = 0; for (const v of buf) e += v * v;
      const level = Math.round(Math.min(1, Math.sqrt(e / buf.length) * 4) * 10) / 10; if (level !== last) { last = level; window.changes = (window.changes ?? 0) + 1; orb.style.setProperty('--level', level); } }, 1000 / hz);
  }
  let ws;
  if (mode.includes('ws') && !mode.includes('worker')) { ws = new WebSocket('ws://127.0.0.1:' + location.port + '/ws'); await new Promise(r => ws.onopen = r); }
  const K = 'x'.repeat(900);
  node.port.onmessage = ({ data }) => {
    if (data.batch) { for (const pcm of data.batch) node.port.onmessage({ data: { pcm } }); return; }
    if (mode.includes('wsconst')) return ws.send(K);
    if (!ws && !mode.includes('b64')) return;
    const bytes = new Uint8Array(data.pcm.buffer); let bin = ''; for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    const msg = JSON.stringify({ user_audio_chunk: btoa(bin) }); if (ws) ws.send(msg); else window.keep = msg;
  };
  if (mode.includes('audio')) { const d = ctx.createMediaStreamDestination(); const osc = ctx.createOscillator(); osc.connect(d); osc.start(); const a = new Audio(); a.srcObject = d.stream; await a.play(); }
  if (mode.includes('dest')) { const osc = ctx.createOscillator(); const g = ctx.createGain(); g.gain.value = 0.01; osc.connect(g).connect(ctx.destination); osc.start(); }
  return ctx.state;
};
</script>`;
const server = createServer((q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end(page)).listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const wss = new WebSocketServer({ server, path: '/ws' });
wss.on('connection', (ws) => ws.on('message', () => {}));
const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgsWithFakeMicrophone() });
const modes = process.argv.slice(2).length ? process.argv.slice(2) : ['idle', 'mic', 'mic+msg', 'mic+msg+b64', 'mic+msg+wsconst', 'mic+msg+ws', 'mic+audio', 'mic+dest', 'mic+msg+ws+audio', 'mic+msg+ws+batch5', 'mic+worker', 'mic+raf', 'mic+raf-noop', 'mic+timer10-notrans', 'mic+timer5-notrans', 'mic+anim', 'mic+ocanvas'];
for (const mode of modes) {
  const context = await browser.newContext();
  const p = await context.newPage();
  await p.goto(`http://127.0.0.1:${server.address().port}/`);
  const cdp = await context.newCDPSession(p);
  await cdp.send('Performance.enable');
  if (mode !== 'idle') await p.evaluate((m) => window.go(m), mode);
  await p.waitForTimeout(1000);
  const m0 = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((x) => [x.name, x.value]));
  await p.waitForTimeout(4000);
  const m1 = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((x) => [x.name, x.value]));
  const per = (k) => (((m1[k] - m0[k]) / (m1.Timestamp - m0.Timestamp)) * 1000).toFixed(1);
  const changes = await p.evaluate(() => window.changes ?? 0);
  if (process.env.TRACE) {
    const stop = await startTrace(cdp);
    await p.evaluate(() => performance.mark('from'));
    await p.waitForTimeout(2000);
    await p.evaluate(() => performance.mark('to'));
    const events = await stop();
    const [from, to] = ['from', 'to'].map((n) => events.find((e) => e.name === n && e.cat?.includes('blink.user_timing')));
    const work = mainThreadWork(events, { pid: from.pid, tid: from.tid, from: from.ts, to: to.ts });
    console.log('  traced', (work.total / 2).toFixed(1), 'ms/s:', Object.entries(work.byName).slice(0, 10).map(([k, v]) => `${k} ${(v / 2).toFixed(1)}`).join(', '));
  }
  console.log(mode.padEnd(20), 'task', per('TaskDuration'), 'script', per('ScriptDuration'), 'ms/s', changes ? `(${changes} level writes in 5 s)` : '');
  await context.close();
}
await browser.close();
server.close();

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
// - `mic+msg+ws+audio`: both.
// Each mode in a fresh page: 1 s to settle, then CDP Performance.getMetrics over 4 s: TaskDuration and ScriptDuration,
// ms per second. Modes can be named as arguments (`node bench/call-floor.mjs mic+msg mic+msg+ws`).
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { chromiumArgsWithFakeMicrophone, chromiumPath } from '../scripts/chromium.mjs';

const worklet = `registerProcessor('cap', class extends AudioWorkletProcessor {
  constructor(o) { super(); this.n = 0; this.buf = new Int16Array(320); this.mode = o.processorOptions.mode; }
  process(inputs) { const x = inputs[0][0]; if (!x) return true; for (let i = 0; i < x.length && this.n < 320; i++) this.buf[this.n++] = x[i] * 32767;
    if (this.n >= 320) { this.n = 0; if (this.mode !== 'none') { const b = new Int16Array(this.buf); this.port.postMessage({ pcm: b, level: 0.1, t: currentTime }, [b.buffer]); } }
    return true; } });`;
const page = `<!doctype html><title>floor</title><script>
window.go = async (mode) => {
  const s = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true } });
  const ctx = new AudioContext({ sampleRate: 48000 });
  await ctx.audioWorklet.addModule(URL.createObjectURL(new Blob([${JSON.stringify(worklet)}], { type: 'text/javascript' })));
  const src = ctx.createMediaStreamSource(s);
  const node = new AudioWorkletNode(ctx, 'cap', { numberOfOutputs: 0, processorOptions: { mode: mode.includes('msg') ? 'msg' : 'none' } });
  src.connect(node);
  let ws;
  if (mode.includes('ws')) { ws = new WebSocket('ws://127.0.0.1:' + location.port + '/ws'); await new Promise(r => ws.onopen = r); }
  const K = 'x'.repeat(900);
  node.port.onmessage = ({ data }) => {
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
const modes = process.argv.slice(2).length ? process.argv.slice(2) : ['idle', 'mic', 'mic+msg', 'mic+msg+b64', 'mic+msg+wsconst', 'mic+msg+ws', 'mic+audio', 'mic+dest', 'mic+msg+ws+audio'];
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
  console.log(mode.padEnd(20), 'task', per('TaskDuration'), 'script', per('ScriptDuration'), 'ms/s');
  await context.close();
}
await browser.close();
server.close();

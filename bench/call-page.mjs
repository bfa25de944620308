// What the voice call benchmarks share (bench/call.mjs in Chromium over CDP, bench/call-engines.mjs in every engine):
// the built script-tag widget as a site's host serves it, the page it runs on, and the speak-once microphone file.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The script-tag build in `dist`: the first script, its chunks and worklets (`voice-agent-*.js`).
 * @returns their bytes by URL path (`/voice-agent-widget.js`, ...)
 */
export function scriptTagFiles(dist) {
  return Object.fromEntries(
    readdirSync(dist).filter((file) => /^voice-agent-.*\.js$/.test(file)).map((file) => [`/${file}`, readFileSync(path.join(dist, file))]),
  );
}

/**
 * The page of a call: the widget of `agent` as a site embeds it (`/voice-agent-widget.js`), and the harness's only code
 * in the page: at each turn the widget reports (`voice-agent-status`), a performance mark `turn:<turn>` and
 * `[Date.now(), turn]` pushed to `window.benchTurns` (read once, after the windows). No console message: with DevTools'
 * protocol attached, each costs the page's main thread a serialisation, counted as the widget's (the listener took
 * 0.29 to 0.40 ms a turn with one, 0.10 to 0.16 without, traced in Chromium, outliers aside).
 */
export const callPage = (agent, title) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>${title}</title><script src="/voice-agent-widget.js"></script></head>
<body><h1>A page with a voice agent</h1>
<voice-agent-widget agent-id="${agent}"></voice-agent-widget>
<script>
  window.benchTurns = [];
  document.addEventListener('voice-agent-status', (e) => {
    if (!e.detail.turn) return;
    performance.mark('turn:' + e.detail.turn);
    window.benchTurns.push([Date.now(), e.detail.turn]);
  });
</script></body></html>`;

/**
 * A WAV file of `seconds` s: the 16-bit PCM mono WAV at `file` (a 44-byte header, as test/fixtures/speech.wav: 2 s of
 * speech, 1 s of silence) followed by silence: a microphone that says its sentence once, so the agent's reply is not
 * interrupted.
 * @returns the file's bytes
 * @throws Error when `file` is not such a WAV
 */
export function speechOnce(file, seconds) {
  const wav = readFileSync(file);
  if (wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 36, 40) !== 'data' || wav.readUInt16LE(34) !== 16 || wav.readUInt16LE(22) !== 1) {
    throw new Error(`${file}: not a 16-bit mono PCM WAV with its data at byte 44`);
  }
  const bytes = seconds * wav.readUInt32LE(24) * 2;
  const data = Buffer.alloc(Math.max(bytes, wav.length - 44));
  wav.copy(data, 0, 44);
  const header = Buffer.from(wav.subarray(0, 44));
  header.writeUInt32LE(36 + data.length, 4);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/**
 * The reference service's `fallback` (demo/service/service.mjs) for a benchmark: the pages by path (their HTML), then
 * the script-tag build's `files` (`scriptTagFiles`) as a site's host serves them; 404 for anything else.
 * @param pages HTML by URL path, e.g. `{'/call': callPage(agent, title)}`
 */
export const servePages = (pages, files) => (req, res) => {
  const pathname = req.url.split('?')[0];
  if (pages[pathname]) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[pathname]);
  const file = files[pathname];
  if (file) res.writeHead(200, { 'content-type': 'text/javascript' }).end(file);
  else res.writeHead(404).end();
};

/** The median of the finite `values` (the lower of the middle two), NaN for none. */
export const median = (values) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : NaN;
};

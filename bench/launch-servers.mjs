// The servers of the launch benchmark (bench/launch.mjs), all on 127.0.0.1:
//
// - the widget origin: the reference Voice Agent Service (demo/service, its REST routes and socket) whose fallback
//   serves the built files like a CDN would (static folders mounted under a path, gzip -9, cache headers, ETag, CORS);
// - the site origin: another port, so the widget is a cross-origin script as on a customer's site; it serves the
//   benchmark pages (`benchPage`), one per widget measured;
// - optionally an HTTPS origin answering with the same service (a widget whose API host is fixed, mapped here with
//   Chromium's --host-resolver-rules, e.g. the ElevenLabs widget's api.us.elevenlabs.io).
//
// The static server does not care which files a build has: it serves whatever is in the mounted folder when asked.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { startService } from '../demo/service/service.mjs';

const CONTENT_TYPES = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = /^(text\/|application\/(json|javascript)|image\/svg)/;
/** A file name with a content hash (`chunk-HbFCTl9e.js`): immutable, as a CDN would serve it. */
const HASHED = /[-.][A-Za-z0-9_]{8,}\.(m?js|css|wasm)$/;

/**
 * The cache policy of a served file: hashed names a year (immutable), anything else five minutes (the stable URL of
 * an embed script, which a site owner expects to update within minutes). Within one benchmark run both are fresh.
 * @param {string} file
 */
export const cacheControlOf = (file) => (HASHED.test(file) ? 'public, max-age=31536000, immutable' : 'public, max-age=300');

/**
 * A request handler serving static folders: `mounts` maps a URL prefix ending in `/` to a folder. Files are read when
 * asked (a rebuilt dist/ is served as it is now), gzipped at level 9 when the browser accepts it (as bench:size
 * measures), with ETag / 304, `Access-Control-Allow-Origin: *` (module chunks and worklets are CORS fetches) and
 * `Timing-Allow-Origin: *`. Returns false for a path under no mount.
 * @param {Record<string, string>} mounts
 */
export function staticFiles(mounts) {
  /** @type {Map<string, {key: string, raw: Buffer, gz: Buffer | null, etag: string}>} */
  const cache = new Map();
  return async function serve(req, res) {
    const urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const prefix = Object.keys(mounts).find((p) => urlPath.startsWith(p));
    if (!prefix) return false;
    const base = path.resolve(mounts[prefix]);
    const file = path.resolve(base, `.${path.posix.sep}${urlPath.slice(prefix.length)}`);
    const headers = { 'Access-Control-Allow-Origin': '*', 'Timing-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff' };
    let info;
    try {
      if (!file.startsWith(base + path.sep)) throw new Error('outside');
      info = await stat(file);
      if (!info.isFile()) throw new Error('not a file');
    } catch {
      res.writeHead(404, { ...headers, 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' }).end('not found\n');
      return true;
    }
    const key = `${info.size}:${info.mtimeMs}`;
    let entry = cache.get(file);
    if (!entry || entry.key !== key) {
      const raw = await readFile(file);
      const type = CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
      entry = { key, raw, type, gz: COMPRESSIBLE.test(type) ? gzipSync(raw, { level: 9 }) : null, etag: `"${createHash('sha1').update(raw).digest('base64url')}"` };
      cache.set(file, entry);
    }
    Object.assign(headers, {
      'Content-Type': entry.type,
      'Cache-Control': cacheControlOf(file),
      ETag: entry.etag,
      'Last-Modified': new Date(info.mtimeMs).toUTCString(),
      Vary: 'Accept-Encoding',
    });
    if (req.headers['if-none-match'] === entry.etag) {
      res.writeHead(304, headers).end();
      return true;
    }
    const gzip = entry.gz && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const body = gzip ? entry.gz : entry.raw;
    if (gzip) headers['Content-Encoding'] = 'gzip';
    headers['Content-Length'] = String(body.length);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };
}

const escapeAttr = (value) => String(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * A plain article page with one widget embedded the documented way (README "Embed it"): an async classic script and
 * the element. `widget` is `{tag, scriptUrl, attributes}`; any embeddable element fits (a second widget is measured
 * on its own page of the same content).
 * @param {{title?: string, widget: {tag: string, scriptUrl: string, attributes?: Record<string, string>} | null}} options
 *   `widget: null`: the same page without a widget (the heap's baseline)
 */
export function benchPage({ title = 'A page with a widget', widget }) {
  const attrs = Object.entries(widget?.attributes ?? {}).map(([name, value]) => ` ${name}="${escapeAttr(value)}"`).join('');
  const embed = widget ? `<script src="${escapeAttr(widget.scriptUrl)}" async></script>\n<${widget.tag}${attrs}></${widget.tag}>\n` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeAttr(title)}</title>
<link rel="icon" href="data:,">
<style>body { font: 17px/1.6 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #222; }</style>
</head>
<body>
<h1>Opening hours and returns</h1>
<p>Our shop is open from Monday to Saturday, nine to six, and on Sundays before holidays. Orders placed before noon
leave the warehouse the same day; parcels usually arrive within two working days. You can return anything you bought
within thirty days, unused and in its original packaging: print the label from your account, drop the parcel at any
post office, and the refund reaches your card within a week of our receiving it. Questions about an order, a return
or a product? Ask our assistant in the corner of this page, by voice or by text.</p>
${embed}</body>
</html>
`;
}

/**
 * Starts the widget origin (the reference service + `mounts`), the site origin (the pages of `widgets`, at
 * `/page/<id>`), and with `https: {key, cert}` an HTTPS origin answering with the same service.
 * @param {{mounts: Record<string, string>, https?: {key: Buffer, cert: Buffer}}} options
 */
export async function startBenchServers({ mounts, https: tls }) {
  const serveStatic = staticFiles(mounts);
  const widgetOrigin = await startService({
    host: '127.0.0.1',
    port: 0,
    log: () => {},
    fallback(req, res) {
      serveStatic(req, res).then(
        (served) => served || res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n'),
        (error) => res.writeHead(500).end(String(error)),
      );
    },
  });
  /** @type {Map<string, string>} page id → HTML */
  const pages = new Map();
  const site = http.createServer((req, res) => {
    const html = pages.get(new URL(req.url, 'http://x').pathname);
    if (html === undefined) return res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
    const body = gzipSync(html, { level: 9 });
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Encoding': 'gzip', 'Content-Length': String(body.length), 'Cache-Control': 'no-cache' });
    res.end(body);
  });
  await new Promise((resolve, reject) => site.once('error', reject).listen(0, '127.0.0.1', resolve));
  const siteUrl = `http://127.0.0.1:${site.address().port}`;
  let api;
  if (tls) {
    api = https.createServer(tls, (req, res) => {
      if (!widgetOrigin.service.handleRequest(req, res)) res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
    });
    await new Promise((resolve, reject) => api.once('error', reject).listen(0, '127.0.0.1', resolve));
  }
  return {
    widgetUrl: widgetOrigin.url,
    siteUrl,
    apiPort: api?.address().port,
    /** Registers the page of one widget; returns its URL. */
    addPage(id, options) {
      pages.set(`/page/${id}`, benchPage(options));
      return `${siteUrl}/page/${id}`;
    },
    async close() {
      site.closeAllConnections?.();
      api?.closeAllConnections?.();
      await Promise.all([
        widgetOrigin.close(),
        new Promise((resolve) => site.close(resolve)),
        api && new Promise((resolve) => api.close(resolve)),
      ]);
    },
  };
}

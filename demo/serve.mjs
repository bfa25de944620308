#!/usr/bin/env node
// The demo server: `npm run demo` (= `npm run build && node demo/serve.mjs`).
// One node:http server on loopback that mounts the reference Voice Agent Service (REST under /v1/ and the
// conversation socket) and serves the demo page, its assets and the built widget, all on the same origin.
// Environment: PORT (default 8080), HOST (default 127.0.0.1), SERVICE_API_KEY (optional fixed dev key).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startService } from './service/service.mjs';

const DEMO_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT_DIR = path.resolve(DEMO_DIR, '..');
const DIST_DIR = path.join(ROOT_DIR, 'dist');
const BUNDLE = path.join(DIST_DIR, 'voice-agent-widget.js');

/** Content types by file extension. */
const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wav': 'audio/wav',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

/**
 * Sends a short plain-text answer.
 * @param {http.ServerResponse} res @param {number} status @param {string} text @param {Record<string, string>} [extra]
 */
function sendText(res, status, text, extra = {}) {
  const body = `${text}\n`;
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...extra,
  });
  res.end(body);
}

/**
 * Sends a JSON answer.
 * @param {http.ServerResponse} res @param {number} status @param {unknown} value
 */
function sendJson(res, status, value) {
  const body = JSON.stringify(value, null, 2);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}

/**
 * Resolves a URL path below a base directory; undefined when it would leave the directory or is malformed.
 * @param {string} baseDir @param {string} relative the URL path after the mount prefix (still percent-encoded)
 */
function resolveInside(baseDir, relative) {
  let decoded;
  try {
    decoded = decodeURIComponent(relative);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  if (decoded.split('/').some((segment) => segment === '..')) return undefined;
  const resolved = path.resolve(baseDir, `.${path.posix.sep}${decoded}`);
  if (resolved !== baseDir && !resolved.startsWith(baseDir + path.sep)) return undefined;
  return resolved;
}

/**
 * Streams a regular file; 404 when it does not exist or is not a file.
 * @param {http.IncomingMessage} req @param {http.ServerResponse} res @param {string | undefined} file
 */
async function sendFile(req, res, file) {
  if (!file) return sendText(res, 404, 'Not found');
  let info;
  try {
    info = await stat(file);
  } catch {
    return sendText(res, 404, 'Not found');
  }
  if (!info.isFile()) return sendText(res, 404, 'Not found');
  res.writeHead(200, {
    'Content-Type': CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': String(info.size),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  if (req.method === 'HEAD') return res.end();
  const stream = createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

/** @param {string} file */
async function exists(file) {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/**
 * Starts the demo server.
 * @param {{port?: number, host?: string, apiKey?: string, log?: (line: string) => void}} [options]
 * @returns {Promise<{url: string, port: number, apiKey: string, server: http.Server, close: () => Promise<void>}>}
 */
export async function startDemo({ port = 8080, host = '127.0.0.1', apiKey, log } = {}) {
  /** @type {Awaited<ReturnType<typeof startService>>} */
  let running;

  /** @param {http.IncomingMessage} req @param {http.ServerResponse} res */
  async function handleStatic(req, res) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
    let pathname;
    try {
      pathname = new URL(req.url ?? '/', 'http://demo.invalid').pathname;
    } catch {
      return sendText(res, 400, 'Bad request');
    }
    if (pathname === '/' || pathname === '/index.html') return sendFile(req, res, path.join(DEMO_DIR, 'index.html'));
    if (pathname === '/share.html') return sendFile(req, res, path.join(DEMO_DIR, 'share.html'));
    if (pathname === '/demo-config.json') {
      return sendJson(res, 200, {
        serviceUrl: running.url,
        apiKey: running.apiKey,
        agents: [...running.service.agents.values()].map((agent) => ({ agent_id: agent.agent_id, name: agent.name })),
      });
    }
    if (pathname === '/favicon.ico') {
      res.writeHead(204, { 'Cache-Control': 'no-store' });
      return res.end();
    }
    if (pathname.startsWith('/demo/')) {
      return sendFile(req, res, resolveInside(DEMO_DIR, pathname.slice('/demo/'.length)));
    }
    if (pathname.startsWith('/dist/')) {
      if (!(await exists(BUNDLE))) {
        return sendText(res, 404, 'dist/voice-agent-widget.js is missing: run npm run build (or use npm run demo, which builds first).');
      }
      return sendFile(req, res, resolveInside(DIST_DIR, pathname.slice('/dist/'.length)));
    }
    return sendText(res, 404, 'Not found');
  }

  running = await startService({
    port,
    host,
    apiKey,
    log,
    fallback: (req, res) =>
      handleStatic(req, res).catch((error) => {
        if (!res.headersSent) sendText(res, 500, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
        else res.destroy();
      }),
  });
  return { ...running, url: `${running.url}/` };
}

async function main() {
  const port = Number.parseInt(process.env.PORT ?? '8080', 10);
  const host = process.env.HOST || '127.0.0.1';
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`Invalid PORT: ${process.env.PORT}`);
    process.exit(1);
  }
  if (!(await exists(BUNDLE))) console.warn('Warning: dist/voice-agent-widget.js is missing: run npm run build (npm run demo builds first).');

  let demo;
  try {
    demo = await startDemo({ port, host, apiKey: process.env.SERVICE_API_KEY || undefined });
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    console.error(code === 'EADDRINUSE' ? `Port ${port} on ${host} is in use: set PORT to another port.` : `Could not start the demo: ${error}`);
    process.exit(1);
  }
  console.log(`Demo: ${demo.url}  (reference Voice Agent Service on the same origin; dev API key: ${demo.apiKey})`);

  let stopping = false;
  /** @param {NodeJS.Signals} signal */
  const stop = async (signal) => {
    if (stopping) return;
    stopping = true;
    console.log(`Stopping the demo (${signal})...`);
    await demo.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main();
}

// The site the microphone-access tests visit (test/permissions/): the built script-tag widget (dist/, `npm run build`
// first) on pages of the reference service, with real response headers and real iframes of another origin. Shared by
// microphone-access.test.mjs (Chromium) and microphone-access-engines.test.mjs (Firefox ESR, WebKitGTK).
import { readFileSync, readdirSync } from 'node:fs';
import { startService } from '../../demo/service/service.mjs';

const dist = new URL('../../dist/', import.meta.url);

/**
 * Records the page's console calls in `window.__lines` (`type: text`, as Playwright's console lines read), for an
 * engine whose driver hears no console (WebKit's W3C WebDriver). Only on a page asked for with `?capture`.
 */
const CAPTURE = `<script>window.__lines=[];for(const t of ['error','warn','info','log'])((f)=>{console[t]=(...a)=>{__lines.push(t+': '+a.map(String).join(' '));f.apply(console,a)}})(console[t]);</script>`;

/** A site's page with the widget of `agent_minimal` (voice and text), as README's "Embed it" gives it; `head` first. */
const page = (head = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A site</title>${head}
<script src="/voice-agent-widget.js"></script></head><body><h1>A site</h1><voice-agent-widget agent-id="agent_minimal"></voice-agent-widget></body></html>`;
/** A page of another origin holding `src` in an iframe, with `allow` when given. */
const framing = (src, allow) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A CMS</title></head>
<body><h1>A CMS page</h1><iframe src="${src}" ${allow ? `allow="${allow}"` : ''} width="500" height="720"></iframe></body></html>`;

// The words the visitor reads (src/config/panel-labels.ts, src/config/defaults.ts).
export const WORDS = {
  blockedPage: 'This page does not allow the microphone.',
  blockedFrame: 'The microphone is not allowed where this widget is embedded.',
  insecure: 'Calls need a secure (https) page to use the microphone.',
  denied: 'The microphone is blocked for this site.',
  allowInChromium: 'To allow it, click the icon left of the address bar and set Microphone to Allow.',
  typeInstead: 'You can type instead.',
};

/**
 * Starts the reference service on 127.0.0.1 serving the site: `/site` (the widget's page), `/site-no-microphone` (the
 * same with `Permissions-Policy: microphone=()`), `/cms?src=…&allow=…` (a page framing `src`), the built scripts.
 * A query with `capture` adds the console recorder (`CAPTURE`) to the widget's page.
 * @returns the service (`url`, `port`, `close()`)
 */
export async function startSite() {
  const files = Object.fromEntries(readdirSync(dist).filter((f) => /^voice-agent-.*\.js$/.test(f)).map((f) => [`/${f}`, readFileSync(new URL(f, dist))]));
  return startService({
    host: '127.0.0.1', port: 0, log: () => {}, replyDelayMs: 5,
    fallback(req, res) {
      const [path, query] = req.url.split('?');
      const params = new URLSearchParams(query);
      const html = { 'content-type': 'text/html; charset=utf-8' };
      const body = page(params.has('capture') ? CAPTURE : '');
      if (path === '/site') return void res.writeHead(200, html).end(body);
      // The same page served with a Permissions-Policy header that blocks the microphone.
      if (path === '/site-no-microphone') return void res.writeHead(200, { ...html, 'permissions-policy': 'microphone=()' }).end(body);
      if (path === '/cms') return void res.writeHead(200, html).end(framing(params.get('src'), params.get('allow')));
      const file = files[path];
      if (file) res.writeHead(200, { 'content-type': 'text/javascript' }).end(file);
      else res.writeHead(404).end();
    },
  });
}

/** The lines of the widget's own (its `[voice-agent-widget]` prefix). */
export const widgetLines = (lines) => lines.filter((line) => line.includes('[voice-agent-widget]'));

// The two-page site the continuation tests visit (test/continuation/, issue 21): the built script-tag widget (dist/,
// `npm run build` first) on real pages of the reference service's own origin (its `fallback`), each page with a plain
// link to the other, so that a click is a real page load in the same tab (the menu centred: the open panel, at a
// bottom corner, covers the corners of a 1280 × 720 viewport). Shared by pages.test.mjs (Chromium) and
// pages-engines.test.mjs (Firefox ESR, WebKitGTK).
//
// The pages, by path (relative links: each folder is a site of its own, on one origin):
// - `/one` "Page one" and `/two` "Pricing": the widget of `agent_text_only` (text only, no terms);
// - `/voice/one`, `/voice/two`: the same with `agent_demo_support` (voice and text, terms under `acme_terms_v3`);
// - `/no-storage/one`, `/no-storage/two`: the text pages with `<html data-voice-agent-no-storage>`.
// Every page records the `voice-agent-conversation` details in `window.__conversations` and its console lines in
// `window.__lines` (`type: text`; WebKit's W3C WebDriver hears no console).
import { fileURLToPath } from 'node:url';
import { startService } from '../../demo/service/service.mjs';
import { scriptTagFiles, servePages } from '../../bench/call-page.mjs';

const dist = new URL('../../dist/', import.meta.url);

export const TEXT_AGENT = 'agent_text_only';
export const VOICE_AGENT = 'agent_demo_support';

/** Every sessionStorage key of a kept conversation starts with this (src/client/kept-conversation.ts). */
export const FAMILY = 'voice-agent-widget:conversation:';
/** The key of the conversation kept for `agentId` of the service at `serverUrl` (src/client/continuation.ts). */
export const keyOf = (serverUrl, agentId) => `${FAMILY}v1:${serverUrl} ${agentId}`;

/** The words the visitor reads (src/config/panel-labels.ts, src/config/defaults.ts). */
export const WORDS = {
  earlier: 'Earlier in this visit',
  callEnded: 'The call ended when the page changed.',
  newCall: 'New call',
};

/** What the page runs first: the console recorder and the conversation events. */
const RECORDER = `<script>
window.__lines = [];
for (const t of ['error', 'warn', 'info', 'log']) ((f) => { console[t] = (...a) => { __lines.push(t + ': ' + a.map(String).join(' ')); f.apply(console, a); }; })(console[t]);
window.__conversations = [];
document.addEventListener('voice-agent-conversation', (e) => __conversations.push(e.detail));
</script>`;

/**
 * A page of the site: its title, a link to the other page, the widget of `agent` (its `server-url` the service's own
 * origin, as the page is served from it).
 */
const page = ({ title, link, linkText, agent, serverUrl, noStorage }) => `<!doctype html>
<html lang="en"${noStorage ? ' data-voice-agent-no-storage' : ''}><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${title}</title>
${RECORDER}<script src="/voice-agent-widget.js"></script></head>
<body><h1>${title}</h1><nav style="text-align: center"><a id="to-other" href="${link}">${linkText}</a></nav>
<voice-agent-widget agent-id="${agent}" server-url="${serverUrl}"></voice-agent-widget></body></html>`;

/** The pages of one origin (`serverUrl`), by path. */
function pages(serverUrl) {
  const site = (prefix, agent, noStorage = false) => ({
    [`${prefix}/one`]: page({ title: 'Page one', link: 'two', linkText: 'Pricing', agent, serverUrl, noStorage }),
    [`${prefix}/two`]: page({ title: 'Pricing', link: 'one?secret=1', linkText: 'Page one', agent, serverUrl, noStorage }),
  });
  return { ...site('', TEXT_AGENT), ...site('/voice', VOICE_AGENT), ...site('/no-storage', TEXT_AGENT, true) };
}

/**
 * Starts the reference service on 127.0.0.1 serving the site (see the module) and the script-tag build.
 * @returns the running service (`url`, `port`, `service.conversations`, `close()`)
 */
export async function startSite() {
  const files = scriptTagFiles(fileURLToPath(dist));
  if (!files['/voice-agent-widget.js']) throw new Error('dist/voice-agent-widget.js is missing: run npm run build first');
  /** The pages of each origin the site was asked for (127.0.0.1 or localhost). */
  const byOrigin = new Map();
  return startService({
    host: '127.0.0.1', port: 0, log: () => {}, replyDelayMs: 5, audioRealtime: false,
    fallback(req, res) {
      const origin = `http://${req.headers.host}`;
      if (!byOrigin.has(origin)) byOrigin.set(origin, servePages(pages(origin), files));
      byOrigin.get(origin)(req, res);
    },
  });
}

/** The transcript entries of a conversation at the service (a copy), or [] when it has none yet. */
export const transcriptOf = (site, conversationId) => [...(site.service.conversations.get(conversationId)?.transcript ?? [])];

/**
 * Waits until `check()` returns a truthy value (polling every 50 ms) and returns it.
 * @throws Error naming `what` after `ms`
 */
export async function until(check, ms, what) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Checks what the service received in the conversation `conversationId` that continued an earlier one: a
 * `contextual_update` (role user, source contextual_update) before the visitor's `userText`, no visitor message before
 * it, holding `user: <earlierUserText>`, an `agent:` line, the page's path and title, and never `secret`.
 * @returns the contextual update's text
 */
export async function continuedAtService(assert, site, conversationId, { userText, earlierUserText, path, title }) {
  const transcript = await until(() => {
    const entries = transcriptOf(site, conversationId);
    return entries.some((e) => e.role === 'user' && e.source !== 'contextual_update' && e.message === userText) && entries;
  }, 15000, `the visitor's "${userText}" at the service`);
  const updates = transcript.map((e, i) => [e, i]).filter(([e]) => e.source === 'contextual_update');
  assert.equal(updates.length, 1, `one contextual_update: ${JSON.stringify(transcript)}`);
  const [[update, at]] = updates;
  const visitorAt = transcript.findIndex((e) => e.role === 'user' && e.source !== 'contextual_update' && e.message === userText);
  assert.ok(at < visitorAt, `the contextual_update (entry ${at}) before the visitor's message (entry ${visitorAt})`);
  assert.ok(transcript.slice(0, at).every((e) => e.role === 'agent'), `nothing of the visitor's before the contextual_update: ${JSON.stringify(transcript)}`);
  assert.equal(update.role, 'user');
  const text = update.message;
  assert.ok(text.includes(`\nuser: ${earlierUserText}`), `the earlier visitor turn: ${text}`);
  assert.match(text, /\nagent: \S/, 'an earlier agent turn');
  assert.ok(text.includes(`(${path})`), `the path ${path}: ${text}`);
  assert.ok(text.includes(`"${title}"`), `the title ${title}: ${text}`);
  assert.ok(!text.includes('secret'), `never the query string: ${text}`);
  return text;
}

/**
 * In-page helpers for the engines driven by scripts (a prelude to `VISIT` scripts): `until`, the widget once its launcher
 * is ready, its shadow root's queries, what it shows (`view`) and sending a visitor's text through its input.
 */
export const PRELUDE = `
const until = async (f, ms, what) => { const end = Date.now() + ms; for (;;) { const v = f(); if (v) return v; if (Date.now() > end) throw new Error('timed out: ' + what + ' ' + JSON.stringify({ ...view(), local: undefined })); await new Promise((r) => setTimeout(r, 50)); } };
const el = document.querySelector('voice-agent-widget');
const $ = (s) => el.shadowRoot?.querySelector(s) ?? null;
const $$ = (s) => [...(el.shadowRoot?.querySelectorAll(s) ?? [])];
const view = () => ({
  path: location.pathname, title: document.title, open: !!$('[part~="panel"]'), live: !!$('.root.live'),
  lines: $$('[part~="transcript"] [part~="message"], [part~="transcript"] [part~="notice"]').map((n) => [n.getAttribute('part'), n.textContent.trim()]),
  callButton: $('[part~="start-call-button"]')?.textContent.trim() ?? null, endButton: !!$('[part~="end-button"]'),
  conversations: window.__conversations, console: (window.__lines || []).filter((l) => l.includes('[voice-agent-widget]')),
  session: Object.fromEntries(Object.keys(sessionStorage).map((k) => [k, sessionStorage.getItem(k)])),
  local: Object.fromEntries(Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)])),
});
const ready = async () => { await customElements.whenDefined('voice-agent-widget'); await until(() => $('.launcher:not([disabled])'), 15000, 'the launcher'); };
const sendText = async (text) => {
  const input = await until(() => $('[part~="input"]'), 15000, 'the input');
  input.value = text;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  const button = await until(() => { const b = $('[part~="send-button"]'); return b && !b.disabled && b; }, 5000, 'the send button');
  button.click();
};
const agentSaid = (words) => $$('[part~="agent-message"]').some((n) => n.textContent.includes(words) && n.getAttribute('aria-busy') !== 'true');
`;

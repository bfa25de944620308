// Why the microphone cannot be had (issue 19), in the other engines: the built script-tag widget (dist/, `npm run
// build` first) on the pages of test/permissions/site.mjs, in Firefox ESR (puppeteer-core over WebDriver BiDi) and
// WebKitGTK's MiniBrowser (W3C WebDriver, under Xvfb), with the PulseAudio microphone of scripts/engines.mjs. What each
// engine tells the page (a policy object, the permission, enumerateDevices, getUserMedia's refusal) and what the widget
// says to the visitor and to the site owner. Neither engine has a policy object, and neither enforces a
// `Permissions-Policy: microphone=()` header (the call starts); in a cross-origin iframe without allow="microphone"
// both say `denied` and list no microphone, where a visitor's denial in an iframe with allow still lists one.
// The page's actions are run in the widget's document (the host API's `open()`, the call button's `click()`), the same
// in both engines; its console is read from a recorder the page loads first (`?capture`: WebDriver hears no console).
// Run: node --test test/permissions/
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import * as puppeteer from 'puppeteer-core';
import { firefoxPath, firefoxPrefs, miniBrowserArgs, miniBrowserPath, startEngineServices } from '../../scripts/engines.mjs';
import { WORDS, startSite, widgetLines } from './site.mjs';

/** What the page's document tells before anyone asks: the policy object, the permission, the microphones listed. */
const PROBE = `(async () => {
  const policy = 'permissionsPolicy' in document ? 'permissionsPolicy' : 'featurePolicy' in document ? 'featurePolicy' : null;
  let permission; try { permission = (await navigator.permissions.query({ name: 'microphone' })).state } catch (e) { permission = 'throws ' + e.name }
  const devices = navigator.mediaDevices ? (await navigator.mediaDevices.enumerateDevices()).map((d) => d.kind) : null;
  return { secure: isSecureContext, framed: self !== top, policy, permission, devices };
})()`;

/**
 * The widget as a visitor meets it: the panel opened, its alert and call button before the press; the call button
 * pressed where there is one, then the call live or the alert; the widget's console lines; then getUserMedia asked
 * directly (its refusal's name, message and time).
 */
const VISIT = `(async () => {
  const until = async (f, ms) => { const end = Date.now() + ms; while (!f()) { if (Date.now() > end) return false; await new Promise((r) => setTimeout(r, 50)); } return true; };
  await customElements.whenDefined('voice-agent-widget');
  const el = document.querySelector('voice-agent-widget');
  const $ = (selector) => el.shadowRoot?.querySelector(selector);
  const problem = () => $('[part~="voice-problem"]')?.textContent.trim() ?? null;
  if (!(await until(() => $('.launcher:not([disabled])'), 15000))) throw new Error('no launcher');
  el.open();
  if (!(await until(() => $('[part~="start-button"]'), 15000))) throw new Error('no panel');
  const visit = { before: { problem: problem(), callButton: !!$('[part~="start-call-button"]') } };
  if (visit.before.callButton) {
    const t = performance.now();
    $('[part~="start-call-button"]').click();
    await until(() => $('.root.live') || problem(), 20000);
    visit.press = { live: !!$('.root.live'), problem: problem(), ms: Math.round(performance.now() - t), callButton: $('[part~="start-call-button"]')?.textContent.trim() ?? null };
    if (visit.press.live) {
      $('[part~="end-button"]').click();
      await until(() => !$('.root.live'), 10000);
    }
  }
  visit.lines = window.__lines;
  const t = performance.now();
  try {
    (await navigator.mediaDevices.getUserMedia({ audio: true })).getTracks().forEach((track) => track.stop());
    visit.getUserMedia = { granted: true, ms: Math.round(performance.now() - t) };
  } catch (e) {
    visit.getUserMedia = { name: e.name, message: e.message, ms: Math.round(performance.now() - t) };
  }
  return visit;
})()`;

let site;
let services;
/** An HTTP proxy sending every host to the site: WebKit's way to an insecure origin (it has no host-resolver rules). */
let proxy;
const browsers = [];

before(async () => {
  site = await startSite();
  proxy = http.createServer((req, res) => {
    const { pathname, search } = new URL(req.url);
    const upstream = http.request({ host: '127.0.0.1', port: site.port, method: req.method, path: pathname + search, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  // The call's WebSocket through the proxy: a tunnel to the site.
  proxy.on('connect', (req, socket, head) => {
    const tunnel = net.connect(site.port, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      tunnel.write(head);
      tunnel.pipe(socket).pipe(tunnel);
    });
    tunnel.on('error', () => socket.destroy());
    socket.on('error', () => tunnel.destroy());
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  services = await startEngineServices(['firefox', 'webkit']);
});

after(async () => {
  for (const close of browsers.reverse()) await close().catch(() => {});
  services?.stop();
  proxy?.close();
  await site?.close();
});

const widgetPage = (path = '/site') => `${site.url}${path}?capture`;
/** The CMS page on localhost framing the widget's page on 127.0.0.1: two origins. */
const cms = (allow) => `${site.url.replace('127.0.0.1', 'localhost')}/cms?${allow ? 'allow=microphone&' : ''}src=${encodeURIComponent(widgetPage())}`;

/** Firefox ESR with the PulseAudio microphone; `prefs` over the project's. @returns `visit(url, framed)`, with `visit.close()` */
async function firefox(prefs) {
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: firefoxPath, headless: true, extraPrefsFirefox: { ...firefoxPrefs, ...prefs }, env: services.env });
  let closed;
  const close = () => (closed ??= browser.close());
  browsers.push(close);
  const visit = async (url, framed) => {
    const tab = await browser.newPage();
    try {
      await tab.goto(url);
      const frame = framed ? await tab.waitForFrame((f) => f.url().includes('/site'), { timeout: 15000 }) : tab.mainFrame();
      return { ...(await frame.evaluate(PROBE)), ...(await frame.evaluate(VISIT)) };
    } finally {
      await tab.close();
    }
  };
  return Object.assign(visit, { close });
}

/**
 * A MiniBrowser session (mock devices off: the PulseAudio microphone), with `capabilities` over the project's; one at a
 * time (WebKitWebDriver: "Maximum number of active sessions"). @returns `visit(url, framed)`, with `visit.close()`
 */
async function webkit(capabilities = {}) {
  const send = async (method, route, body) => {
    const res = await fetch(`http://127.0.0.1:${services.webkitDriverPort}${route}`, {
      method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body), signal: AbortSignal.timeout(60000),
    });
    const { value } = await res.json();
    if (!res.ok) throw new Error(`WebDriver ${route}: ${JSON.stringify(value)}`);
    return value;
  };
  const { sessionId } = await send('POST', '/session', {
    capabilities: { alwaysMatch: { browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: miniBrowserPath, args: miniBrowserArgs }, ...capabilities } },
  });
  const session = `/session/${sessionId}`;
  let closed;
  const close = () => (closed ??= send('DELETE', session));
  browsers.push(close);
  const run = async (source) => {
    const value = await send('POST', `${session}/execute/async`, { script: `${source}.then((v) => arguments[0](v), (e) => arguments[0]({ thrown: String(e) }))`, args: [] });
    if (value?.thrown) throw new Error(value.thrown);
    return value;
  };
  const visit = async (url, framed) => {
    await send('POST', `${session}/url`, { url });
    if (framed) await send('POST', `${session}/frame`, { id: await send('POST', `${session}/element`, { using: 'css selector', value: 'iframe' }) });
    return { ...(await run(PROBE)), ...(await run(VISIT)) };
  };
  return Object.assign(visit, { close });
}

/** Logs what was measured (the behaviour table) and returns it. */
const told = (t, result) => (t.diagnostic(JSON.stringify(result)), result);
const errors = (result) => widgetLines(result.lines).filter((line) => line.startsWith('error:'));

/** Asserts the call started (live, then ended), nothing told, and getUserMedia granted. */
function callStarts(result) {
  assert.deepEqual(result.before, { problem: null, callButton: true });
  assert.equal(result.press.live, true, JSON.stringify(result.press));
  assert.equal(result.press.problem, null);
  assert.deepEqual(widgetLines(result.lines), []);
  assert.equal(result.getUserMedia.granted, true, JSON.stringify(result.getUserMedia));
}

/** Asserts the iframe's block is told as such after the press: its words, the iframe's fix in the console. */
function blockedFrameTold(result) {
  assert.equal(result.permission, 'denied');
  assert.equal(result.devices.includes('audioinput'), false, 'a document the policy blocks lists no microphone');
  assert.deepEqual(result.before, { problem: null, callButton: true }, 'no policy object: nothing to tell before the press');
  assert.equal(result.press.live, false);
  assert.equal(result.press.problem, `${WORDS.blockedFrame} ${WORDS.typeInstead}`);
  assert.equal(result.press.callButton, null, 'then told instead of the call button: pressing again would say the same');
  const lines = errors(result);
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(lines[0], /^error: .*the iframe the widget is in may not use the microphone\. Fix: <iframe … allow="microphone">/);
  assert.equal(result.getUserMedia.name, 'NotAllowedError');
}

/** Asserts the visitor's denial is told as theirs: the denied words (the browser's way to allow it), "Try again", the console naming the visitor. */
function deniedTold(result) {
  assert.equal(result.permission, 'denied');
  assert.equal(result.press.live, false);
  assert.ok(result.press.problem.startsWith(`${WORDS.denied} `) && result.press.problem.endsWith(WORDS.typeInstead), result.press.problem);
  assert.notEqual(result.press.problem, `${WORDS.blockedFrame} ${WORDS.typeInstead}`);
  assert.equal(result.press.callButton, 'Try again');
  const lines = errors(result);
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(lines[0], /the visitor denied the microphone.*NotAllowedError/);
  assert.equal(result.getUserMedia.name, 'NotAllowedError');
}

/** Asserts the insecure page is told before the press, with no call button and the https fix in the console. */
function insecureTold(result) {
  assert.equal(result.secure, false);
  assert.equal(result.devices, null, 'no navigator.mediaDevices outside a secure context');
  assert.deepEqual(result.before, { problem: `${WORDS.insecure} ${WORDS.typeInstead}`, callButton: false });
  const lines = errors(result);
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(lines[0], /^error: .*not a secure context.*Fix: serve the page over https/);
}

/**
 * The cases of a page's or an iframe's policy, the same in both engines (neither has a policy object): the header not
 * enforced, an iframe without `allow` told as the iframe's block, the same iframe with `allow` calling.
 * @param engine its name, in the tests' titles
 * @param granting the engine's visit, once started (`before`)
 * @param allowedPermission what the permission says in the allowed iframe, where the engine's answer was measured
 */
function policyCases(engine, granting, allowedPermission) {
  test(`${engine}: Permissions-Policy: microphone=() is not enforced (no policy object): the call starts, nothing told`, async (t) => {
    const result = told(t, await granting()(widgetPage('/site-no-microphone')));
    assert.equal(result.policy, null);
    assert.equal(result.permission, 'prompt');
    callStarts(result);
  });

  test(`${engine}: a cross-origin iframe without allow="microphone": told as the iframe's block after the press, with the iframe fix`, async (t) => {
    const result = told(t, await granting()(cms(false), true));
    assert.equal(result.framed, true);
    assert.equal(result.policy, null);
    blockedFrameTold(result);
  });

  test(`${engine}: the same iframe with allow="microphone": the call starts`, async (t) => {
    const result = told(t, await granting()(cms(true), true));
    if (allowedPermission) assert.equal(result.permission, allowedPermission);
    assert.ok(result.devices.includes('audioinput'));
    callStarts(result);
  });
}

describe('firefox', () => {
  /** Firefox granting the microphone without a prompt; `insecure.test` is this machine (network.dns.localDomains), over plain http. */
  let granting;
  /** Firefox denying the microphone without a prompt (permissions.default.microphone = 2): a visitor who denied it. */
  let denying;
  before(async () => {
    granting = await firefox({ 'network.dns.localDomains': 'insecure.test' });
  });
  // One browser at a time: Firefox is closed before WebKit starts.
  after(() => Promise.all([granting?.close(), denying?.close()]));

  policyCases('firefox', () => granting, 'prompt');

  test('firefox: an insecure page (http://insecure.test): told before the press, with the reason', async (t) => {
    insecureTold(told(t, await granting(`${site.url.replace('127.0.0.1', 'insecure.test')}/site?capture`)));
  });

  test('firefox: a visitor who denied: the visitor\'s words, "Try again"', async (t) => {
    denying ??= await firefox({ 'media.navigator.permission.disabled': false, 'permissions.default.microphone': 2 });
    const result = told(t, await denying(widgetPage()));
    assert.equal(result.framed, false);
    deniedTold(result);
  });

  test('firefox: a visitor who denied, in an iframe WITH allow="microphone" (both say denied): still the visitor\'s words, not the iframe\'s', async (t) => {
    denying ??= await firefox({ 'media.navigator.permission.disabled': false, 'permissions.default.microphone': 2 });
    const result = told(t, await denying(cms(true), true));
    assert.equal(result.framed, true);
    assert.ok(result.devices.includes('audioinput'), 'the denial delegated from the top page still lists a microphone');
    deniedTold(result);
  });
});

describe('webkit', () => {
  let granting;
  before(async () => {
    granting = await webkit();
  });

  policyCases('webkit', () => granting);

  test('webkit: an insecure page (http://insecure.test through a proxy): told before the press, with the reason', async (t) => {
    await granting.close(); // one session at a time
    const visit = await webkit({ proxy: { proxyType: 'manual', httpProxy: `127.0.0.1:${proxy.address().port}` } });
    try {
      insecureTold(told(t, await visit(`http://insecure.test:${site.port}/site?capture`)));
    } finally {
      await visit.close();
    }
  });

  const noDenial = 'webkit: no way to deny without a prompt: WebKitWebDriver has no Set Permission command (POST /session/{id}/permissions: "unknown command"), and MiniBrowser under --automation grants media capture without asking';
  test('webkit: a visitor who denied', { skip: noDenial });
  test('webkit: a visitor who denied, in an iframe with allow="microphone"', { skip: noDenial });
});

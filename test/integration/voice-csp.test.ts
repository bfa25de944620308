/**
 * Voice calls under a strict Content-Security-Policy (README "Content Security Policy"): the AudioWorklets load from
 * the files beside the script, never from Blob URLs. The strict page is `/csp/voice.html` of the test server
 * (web-test-runner.config.mjs): this origin, only the widget, its script loaded from the reference service's origin
 * as a site embeds it, the CSP the test asks for. It is a same-origin frame, so the test reaches into it.
 * The worklet files are then on another origin than the page: `audioWorklet.addModule` fetches them in CORS mode, so
 * the service serves them with `Access-Control-Allow-Origin` (without it they fail to load, the widget falls back to
 * Blob URLs, and the strict CSP refuses those: the call ends in an error).
 */
import { expect, fixture, html } from '@open-wc/testing';
import { captureConsole, engine, until } from '../helpers.js';
import { openPanel, serviceUrl } from '../widget-helpers.js';
import type { VoiceAgentWidget } from '../../src/widget/voice-agent-widget.js';
import { LABEL, endCall, openCall, part, startCall, statusText, watchCall, watchEachCall } from './voice-helpers.js';

const SERVICE = new URL(serviceUrl).origin;
const SOCKET = SERVICE.replace(/^http/, 'ws');
/**
 * The least policy under which a voice call works, as measured here: the service's origin for the script and its
 * worklets (the script's own URL alone is not enough), its http and ws origins to connect; nothing for styles, media
 * or workers. The call worker (a Blob URL) is refused then (one violation), and the call runs on the page's main thread.
 */
const STRICT = `default-src 'none'; script-src ${SERVICE}; connect-src ${SERVICE} ${SOCKET}`;
/** The violation a page reports when its policy refuses the call worker's Blob URL (`worker-src`, else `script-src`). */
const WORKER_REFUSED = 'worker-src blob';

/** Opens the strict page under `policy`, waits for its widget to settle, and watches the frame's calls and CSP violations. */
async function strictPage(policy: string) {
  const frame = await fixture<HTMLIFrameElement>(html`<iframe allow="microphone" src=${`/csp/voice.html?policy=${encodeURIComponent(policy)}`}></iframe>`);
  await until(() => frame.contentDocument?.URL.includes('/csp/') && frame.contentDocument.readyState === 'complete', 'the strict page loaded');
  const win = frame.contentWindow as typeof window;
  const violations: string[] = [];
  win.document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
  const el = win.document.querySelector('voice-agent-widget') as VoiceAgentWidget;
  await until(() => el.shadowRoot?.querySelector('.launcher:not([disabled]), [part~="error"]'), 'the widget settled');
  expect(part(el, 'error'), 'the configuration was read').to.equal(null);
  await openPanel(el);
  return { win, el, violations, watch: watchCall(win) };
}

describe('a voice call under a strict CSP', () => {
  const watch = watchEachCall();

  it('loads the worklets from the files beside the script (served on this test server), with no Blob URL', async () => {
    await openCall('agent_minimal');
    const beside = (file: string) => new URL(`/src/${file}`, location.origin).href;
    expect(watch.worklets).to.deep.equal([
      { url: beside('voice-agent-capture-worklet.js'), loaded: true },
      { url: beside('voice-agent-playback-worklet.js'), loaded: true },
    ]);
    // The one Blob URL is the call worker's (this page allows it).
    expect(watch.workers).to.have.length(1);
    expect(watch.blobUrls).to.deep.equal([watch.workers[0].url]);
  });

  it(`fetches the conversation chunk at idle with no violation on a page whose only sources are the service's: ${STRICT}`, async function () {
    this.timeout(20000);
    // Firefox judges a `<link rel="prefetch">` by default-src, not script-src: it refused the widget's prefetch here.
    const frame = await fixture<HTMLIFrameElement>(html`<iframe src=${`/csp/voice.html?policy=${encodeURIComponent(STRICT)}`}></iframe>`);
    await until(() => frame.contentDocument?.URL.includes('/csp/'), 'the strict page');
    const win = frame.contentWindow as typeof window;
    const violations: string[] = [];
    // Not the test server's own script, which it adds to every page it serves (the policy refuses it too).
    win.document.addEventListener('securitypolicyviolation', (e) => /__web-dev-server/.test(e.blockedURI) || violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
    const fetched = () => win.performance.getEntriesByType('resource').some((e) => e.name.includes('voice-agent-widget-conversation-panel'));
    await until(fetched, 'the conversation chunk fetched at idle, before any press', 10000);
    expect(violations).to.deep.equal([]);
  });

  it(`reaches listening and speaking on a page whose only sources are the service's: ${STRICT}`, async function () {
    this.timeout(20000);
    const page = await strictPage(STRICT);
    try {
      await startCall(page.el);
      await until(() => page.watch.chunks().length > 10, 'the microphone streams');
      await until(() => statusText(page.el) === LABEL.speaking, 'the agent is heard', 15000);
      expect(page.watch.worklets).to.deep.equal([
        { url: `${SERVICE}/voice-agent-capture-worklet.js`, loaded: true },
        { url: `${SERVICE}/voice-agent-playback-worklet.js`, loaded: true },
      ]);
      // The call worker refused (its Blob URL made and revoked; WebKit refuses it in `new Worker` itself, the others
      // once it loads), the call runs on the page's main thread.
      expect(page.violations).to.deep.equal([WORKER_REFUSED]);
      expect(page.watch.workers).to.have.length(engine === 'webkit' ? 0 : 1);
      expect(page.watch.blobUrls).to.have.length(1);
      expect(page.watch.sockets.every((s) => s instanceof page.win.WebSocket), 'the socket is the page\'s own').to.equal(true);
      await endCall(page.el);
      await page.watch.released();
    } finally {
      page.watch.restore();
    }
  });

  it(`with worker-src blob: added, runs the call in the call worker, with no violation`, async function () {
    this.timeout(20000);
    const page = await strictPage(`${STRICT}; worker-src blob:`);
    try {
      await startCall(page.el);
      await until(() => page.watch.chunks().length > 10, 'the call worker streams the microphone');
      await until(() => statusText(page.el) === LABEL.speaking, 'the agent is heard', 15000);
      expect(page.watch.sockets).to.deep.equal(page.watch.workers);
      expect(page.watch.events.some((e) => e.kind === 'played'), 'the worker played the agent').to.equal(true);
      expect(page.violations).to.deep.equal([]);
      await endCall(page.el);
      await page.watch.released();
    } finally {
      page.watch.restore();
    }
  });

  /** The strict page without the service's ws:// origin: the browser blocks the socket (Chromium: `error`, no `close`). */
  const WITHOUT_SOCKET = `default-src 'none'; script-src ${SERVICE}; connect-src ${SERVICE}`;
  const blocked = `connect-src ${SOCKET}/v1/voiceai/conversation?agent_id=agent_minimal`;

  it('without the ws:// origin in connect-src: the socket is blocked, the call ends in an error, the microphone released', async function () {
    this.timeout(20000);
    const page = await strictPage(WITHOUT_SOCKET);
    try {
      const { errors } = await captureConsole(async () => {
        part(page.el, 'start-call-button')!.click();
        await until(() => part(page.el, 'notice'), 'the call failed', 15000);
      }, page.win.console);
      // Firefox reports the violation a moment after it refuses the socket.
      await until(() => page.violations.length === 2, 'the violations reported', 3000);
      expect(page.violations).to.deep.equal([WORKER_REFUSED, blocked]);
      expect(errors).to.have.length(1);
      expect(errors[0], 'the console names the cause').to.include("Content-Security-Policy connect-src");
      expect(statusText(page.el)).to.equal('');
      await page.watch.released();
    } finally {
      page.watch.restore();
    }
  });

  // A socket the page's CSP blocks is made CLOSED in Chromium and gets only an `error` event, no `close`: the
  // session fails at once (src/client/session.ts), rather than after the 10 s handshake timeout.
  it('without the ws:// origin in connect-src the call fails at once, not after the handshake timeout', async () => {
    const page = await strictPage(WITHOUT_SOCKET);
    try {
      const { errors } = await captureConsole(async () => {
        part(page.el, 'start-call-button')!.click();
        await until(() => page.violations.length > 0, 'the socket blocked');
        await until(() => part(page.el, 'notice'), 'the call failed at once (well before the 10 s handshake timeout)', 3000);
      }, page.win.console);
      expect(errors).to.have.length(1);
      expect(page.watch.tracks().filter((t) => t.readyState === 'live')).to.deep.equal([]);
    } finally {
      page.watch.restore();
    }
  });
});

// Why the microphone cannot be had (issue 19, PROTOCOL.md section 3, "Voice"), tried from outside as a visitor meets it:
// the built script-tag widget (dist/, `npm run build` first) on pages of the reference service, in Debian's Chromium
// driven by playwright-core, with real response headers, real iframes of another origin, a real insecure origin and a
// browser that denies the microphone. What the widget says to the visitor, and to the site owner in the console.
// Run: node --test test/permissions/
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumArgsWithFakeMicrophone, chromiumPath } from '../../scripts/chromium.mjs';
import { WORDS, startSite, widgetLines } from './site.mjs';

let service;
/** Chromium with its fake microphone and no prompt (the microphone granted), as the browser tests run it. */
let granting;
/** Chromium whose permission prompts are answered "Block": a visitor who denies the microphone. */
let denying;

before(async () => {
  service = await startSite();
  const port = new URL(service.url).port;
  // `insecure.test` is this machine, over plain http: not a secure context (localhost and 127.0.0.1 are).
  const hosts = `--host-resolver-rules=MAP insecure.test:${port} 127.0.0.1:${port}`;
  granting = await chromium.launch({ executablePath: chromiumPath, headless: true, args: [...chromiumArgsWithFakeMicrophone(), hosts] });
  denying = await chromium.launch({
    executablePath: chromiumPath, headless: true,
    args: [...chromiumArgs, '--use-fake-device-for-media-stream', '--deny-permission-prompts', '--autoplay-policy=no-user-gesture-required'],
  });
});

after(async () => {
  await Promise.all([granting?.close(), denying?.close()]);
  await service?.close();
});

/**
 * Opens `url` in a new context of `browser`, presses the launcher (in the iframe when `framed`) and waits for the
 * panel's conversation buttons.
 * @returns the tab, the widget's frame and every console line of the tab and its frames (type: text)
 */
async function openPanel(browser, url, { framed = false } = {}) {
  const context = await browser.newContext();
  const tab = await context.newPage();
  const lines = [];
  tab.on('console', (message) => lines.push(`${message.type()}: ${message.text()}`));
  tab.on('pageerror', (error) => lines.push(`pageerror: ${error.message}`));
  await tab.goto(url);
  const root = framed ? tab.frameLocator('iframe') : tab;
  const widget = root.locator('voice-agent-widget');
  await widget.locator('.launcher:not([disabled])').click({ timeout: 15000 });
  await widget.locator('[part~="start-button"]').waitFor({ timeout: 15000 });
  return { context, tab, widget, lines };
}

/** The text of the widget's alert, or null when none shows. */
const problemText = async (widget) => ((await widget.locator('[part~="voice-problem"]').count()) ? (await widget.locator('[part~="voice-problem"]').textContent()).trim() : null);

describe('a call the page rules out is told before the press, with the site owner\'s fix in the console', () => {
  test('a page served with Permissions-Policy: microphone=(): its own words, no call button, the header named in the console', async () => {
    const { context, widget, lines } = await openPanel(granting, `${service.url}/site-no-microphone`);
    try {
      assert.equal(await problemText(widget), `${WORDS.blockedPage} ${WORDS.typeInstead}`);
      assert.equal(await widget.locator('[part~="start-call-button"]').count(), 0, 'no call button: a call cannot start here');
      const errors = widgetLines(lines);
      assert.equal(errors.length, 1, errors.join('\n'));
      assert.match(errors[0], /^error: .*Permissions-Policy blocks the microphone\. Fix: send Permissions-Policy: microphone=\(self\)/);
      assert.notEqual(WORDS.blockedPage, WORDS.denied);
    } finally {
      await context.close();
    }
  });

  test('a cross-origin iframe without allow="microphone": its own words, no call button, the iframe attribute named', async () => {
    // The CMS page on localhost, the widget's page on 127.0.0.1: two origins.
    const { context, widget, lines } = await openPanel(granting, `${service.url.replace('127.0.0.1', 'localhost')}/cms?src=${encodeURIComponent(`${service.url}/site`)}`, { framed: true });
    try {
      assert.equal(await problemText(widget), `${WORDS.blockedFrame} ${WORDS.typeInstead}`);
      assert.equal(await widget.locator('[part~="start-call-button"]').count(), 0);
      const errors = widgetLines(lines);
      assert.equal(errors.length, 1, errors.join('\n'));
      assert.match(errors[0], /^error: .*the iframe the widget is in may not use the microphone\. Fix: <iframe … allow="microphone">/);
    } finally {
      await context.close();
    }
  });

  test('the same iframe with allow="microphone": nothing to tell, and the call starts', async () => {
    const { context, widget, lines } = await openPanel(
      granting, `${service.url.replace('127.0.0.1', 'localhost')}/cms?allow=microphone&src=${encodeURIComponent(`${service.url}/site`)}`, { framed: true },
    );
    try {
      assert.equal(await problemText(widget), null);
      await widget.locator('[part~="start-call-button"]').click();
      await widget.locator('.root.live').waitFor({ state: 'attached', timeout: 20000 });
      await widget.locator('[part~="end-button"]').click();
      assert.deepEqual(widgetLines(lines), []);
    } finally {
      await context.close();
    }
  });

  test('an insecure page (http, not localhost): said before the press, with the reason; the chat still offered', async () => {
    const { context, tab, widget, lines } = await openPanel(granting, service.url.replace('127.0.0.1', 'insecure.test') + '/site');
    try {
      assert.equal(await tab.evaluate(() => isSecureContext), false);
      assert.equal(await problemText(widget), `${WORDS.insecure} ${WORDS.typeInstead}`);
      assert.equal(await widget.locator('[part~="start-call-button"]').count(), 0);
      assert.equal(await widget.locator('[part~="start-button"]').count(), 1, 'the chat offered');
      const errors = widgetLines(lines);
      assert.equal(errors.length, 1, errors.join('\n'));
      assert.match(errors[0], /^error: .*not a secure context.*Fix: serve the page over https/);
    } finally {
      await context.close();
    }
  });
});

describe('a visitor who denies the microphone', () => {
  test('is told how to allow it in this browser, with text offered; "Try again" asks anew and the call starts once allowed', async () => {
    const { context, tab, widget, lines } = await openPanel(denying, `${service.url}/site`);
    try {
      await widget.locator('[part~="start-call-button"]').click();
      await widget.locator('[part~="voice-problem"]').waitFor({ timeout: 15000 });
      assert.equal(await problemText(widget), `${WORDS.denied} ${WORDS.allowInChromium} ${WORDS.typeInstead}`);
      assert.notEqual(await problemText(widget), `${WORDS.blockedPage} ${WORDS.typeInstead}`);
      const errors = widgetLines(lines).filter((line) => line.startsWith('error:'));
      assert.equal(errors.length, 1, errors.join('\n'));
      assert.match(errors[0], /the visitor denied the microphone.*NotAllowedError/);
      const retry = widget.locator('[part~="start-call-button"]');
      assert.equal((await retry.textContent()).trim(), 'Try again');
      // The visitor allows it in the site settings, then tries again.
      const cdp = await context.newCDPSession(tab);
      const { targetInfo } = await cdp.send('Target.getTargetInfo');
      await cdp.send('Browser.setPermission', { permission: { name: 'microphone' }, setting: 'granted', origin: service.url, browserContextId: targetInfo.browserContextId });
      await retry.click();
      await widget.locator('.root.live').waitFor({ state: 'attached', timeout: 20000 });
      assert.equal(await problemText(widget), null, 'the problem gone with the call live');
      await widget.locator('[part~="end-button"]').click();
    } finally {
      await context.close();
    }
  });
});

// A conversation that survives the visitor's next click (issue 21), in the other engines: the built script-tag widget
// (dist/, `npm run build` first) on the two-page site of site.mjs, in Firefox ESR (puppeteer-core over WebDriver BiDi)
// and WebKitGTK's MiniBrowser (W3C WebDriver, under Xvfb), with the PulseAudio microphone of scripts/engines.mjs, as
// test/permissions/ drives them. A text conversation on page one, a click on the site's link to page two (a real page
// load: the driver's own click), the panel and the earlier messages there, the next message reaching the service after
// a `contextual_update`; a reload during a voice call, told, "New call" offered, no call running. What the page shows
// is read in the page (`PRELUDE`'s `view()`), the same in both engines; what reached the service from its records.
// Run: node --test test/continuation/
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as puppeteer from 'puppeteer-core';
import { firefoxPath, firefoxPrefs, startEngineServices, webkitSession } from '../../scripts/engines.mjs';
import { FAMILY, PRELUDE, TEXT_AGENT, WORDS, continuedAtService, keyOf, startSite, transcriptOf, until } from './site.mjs';

let site;
let services;
const closers = [];

before(async () => {
  site = await startSite();
  services = await startEngineServices(['firefox', 'webkit']);
});

after(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  services?.stop();
  await site?.close();
});

/** An async script of the page: `body` after `PRELUDE`, its `return` the result. */
const script = (body) => `(async () => {${PRELUDE}\n${body}\n})()`;

/** Firefox ESR, started by the first visit; closed before WebKit starts. */
let firefoxBrowser;
const closeFirefox = async () => {
  const browser = firefoxBrowser;
  firefoxBrowser = null;
  await browser?.close();
};

/**
 * A tab of Firefox ESR (one browser for the file, a new tab for each visit: its own sessionStorage).
 * @returns the driver: `goto(url)`, `run(body)` (resolves to what the script returns), `follow(selector)` (clicks the
 * link and waits for the page it loads), `reload()`, `close()`
 */
async function firefox() {
  // 1280 × 720, as Chromium's: at puppeteer's 800 × 600 the open panel covers the site's menu.
  firefoxBrowser ??= await puppeteer.launch({
    browser: 'firefox', executablePath: firefoxPath, headless: true, extraPrefsFirefox: firefoxPrefs, env: services.env, defaultViewport: { width: 1280, height: 720 },
  });
  if (!closers.includes(closeFirefox)) closers.push(closeFirefox);
  const tab = await firefoxBrowser.newPage();
  return {
    goto: (url) => tab.goto(url),
    run: (body) => tab.evaluate(script(body)),
    // The driver's click on the link, then the next page loaded.
    follow: async (selector) => {
      const from = tab.url();
      await tab.click(selector);
      const loaded = () => tab.evaluate(() => document.readyState === 'complete' && location.href).catch(() => false);
      await until(async () => tab.url() !== from && (await loaded()) === tab.url(), 15000, 'the next page');
    },
    reload: () => tab.reload(),
    close: () => tab.close(),
  };
}

/**
 * A MiniBrowser session over WebKitWebDriver (one at a time: "Maximum number of active sessions"; a new session for each
 * visit). @returns the driver, as `firefox()`'s
 */
async function webkit() {
  const driver = await webkitSession(services.webkitDriverPort);
  let closed;
  const close = () => (closed ??= driver.close());
  closers.push(close);
  return {
    goto: (url) => driver.call('POST', '/url', { url }),
    run: async (body) => {
      const value = await driver.call('POST', '/execute/async', { script: `${script(body)}.then((v) => arguments[0](v), (e) => arguments[0]({ thrown: String(e) }))`, args: [] });
      if (value?.thrown) throw new Error(value.thrown);
      return value;
    },
    follow: async (selector) => {
      const from = await driver.call('GET', '/url');
      const link = await driver.call('POST', '/element', { using: 'css selector', value: selector });
      await driver.call('POST', `/element/${Object.values(link)[0]}/click`, {});
      await until(async () => (await driver.call('GET', '/url')) !== from, 15000, 'the next page');
    },
    reload: () => driver.call('POST', '/refresh', {}),
    close,
  };
}

/** The widget's console lines of a view (`[voice-agent-widget]`), errors and warnings. */
const widgetLines = (view) => view.console.filter((line) => /^(error|warn): /.test(line));

/** Asserts localStorage (a view's) holds no conversation: no key of the family, none of `texts`. */
function localHoldsNoConversation(view, texts, step) {
  for (const [key, value] of Object.entries(view.local)) {
    assert.ok(!key.startsWith(FAMILY), `${step}: localStorage holds ${key}`);
    for (const text of texts) assert.ok(!value.includes(text), `${step}: localStorage ${key} holds "${text}"`);
  }
}

/** (b) A text conversation on page one, a click to page two: restored there, continued with a contextual_update. */
async function textAcrossPages(t, driver) {
  await driver.goto(`${site.url}/one?secret=1`);
  const one = await driver.run(`await ready(); el.open(); await sendText('hello from page one');
    await until(() => agentSaid('You said: hello from page one.') && window.__conversations.length, 15000, 'the reply');
    return view();`);
  const [first] = one.conversations;
  assert.equal(first.previousConversationId, null);
  assert.ok(one.session[keyOf(site.url, TEXT_AGENT)]?.includes('hello from page one'), 'the conversation kept in sessionStorage');
  localHoldsNoConversation(one, ['hello from page one', 'You said:'], 'page one');

  await driver.follow('#to-other');
  const two = await driver.run(`await ready(); await until(() => $('[part~="earlier-divider"]'), 15000, 'the divider'); return view();`);
  t.diagnostic(JSON.stringify(two.lines));
  assert.equal(two.path, '/two');
  assert.equal(two.title, 'Pricing');
  assert.equal(two.open, true, 'the panel open');
  const user = two.lines.findIndex(([part, text]) => part.includes('user-message') && text === 'hello from page one');
  const agent = two.lines.findIndex(([part, text]) => part.includes('agent-message') && text.startsWith('You said: hello from page one.'));
  assert.ok(user >= 0 && agent > user, `the earlier messages: ${JSON.stringify(two.lines)}`);
  assert.deepEqual(two.lines.at(-1), ['notice earlier-divider', WORDS.earlier], 'the divider under them');
  assert.deepEqual(two.conversations, [], 'no conversation started by the page load');

  const three = await driver.run(`await sendText('and on page two');
    await until(() => agentSaid('You said: and on page two.') && window.__conversations.length, 15000, 'the reply');
    return view();`);
  const [second] = three.conversations;
  assert.equal(second.previousConversationId, first.conversationId);
  t.diagnostic(await continuedAtService(assert, site, second.conversationId, { userText: 'and on page two', earlierUserText: 'hello from page one', path: '/two', title: 'Pricing' }));
  localHoldsNoConversation(three, ['hello from page one', 'and on page two', 'You said:'], 'page two');
  assert.deepEqual(widgetLines(three), []);
}

/** (d) A reload during a voice call: the call told ended, "New call" offered, no call running, none started. */
async function callThenReload(t, driver) {
  const before = new Set(site.service.conversations.keys());
  await driver.goto(`${site.url}/voice/one?secret=1`);
  const on = await driver.run(`await ready(); el.open();
    (await until(() => $('[part~="start-call-button"]'), 15000, 'the call button')).click();
    // agent_demo_support has terms (acme_terms_v3): the visitor accepts them, unless this browser already did.
    const terms = await until(() => $('[part~="accept-terms-button"]') || $('.root.live'), 15000, 'the terms or the call');
    if (terms.matches('[part~="accept-terms-button"]')) terms.click();
    await until(() => $('.root.live'), 20000, 'the call live');
    await until(() => $$('[part~="agent-message"]:not(.greeting)').some((n) => n.textContent.includes('Acme assistant')), 15000, 'the first message');
    return view();`);
  assert.equal(on.live, true);
  const [call] = on.conversations;

  await driver.reload();
  const after = await driver.run(`await ready(); await until(() => $('[part~="earlier-divider"]'), 15000, 'the divider'); return view();`);
  const told = `${JSON.stringify(after.lines)}; call button ${after.callButton}; kept: ${JSON.stringify(after.session)}`;
  t.diagnostic(told);
  assert.equal(after.open, true, 'the panel open');
  assert.ok(after.lines.some(([part, text]) => part.includes('agent-message') && text.includes('Acme assistant')), 'the call\'s transcript restored');
  assert.ok(after.lines.some(([part, text]) => part === 'notice' && text === WORDS.callEnded), `told the call ended when the page changed: ${told}`);
  assert.deepEqual(after.lines.at(-1), ['notice earlier-divider', WORDS.earlier]);
  assert.equal(after.callButton, WORDS.newCall, told);
  assert.equal(after.live, false, 'no call running');
  assert.equal(after.endButton, false, 'nothing to end');
  await until(() => site.service.conversations.get(call.conversationId).status === 'done', 10000, 'the call closed by the page load');
  assert.deepEqual([...site.service.conversations.keys()].filter((id) => !before.has(id)), [call.conversationId], 'no conversation started by the reload');
  assert.deepEqual(after.conversations, []);
  const texts = transcriptOf(site, call.conversationId).slice(1).map((entry) => entry.message);
  localHoldsNoConversation(after, texts, 'after the reload');
}

/** A scenario in a fresh session of `open` (a WebDriver-driven engine), closed after it, passed or not. */
const inSession = (open, scenario) => async (t) => {
  const driver = await open();
  try {
    await scenario(t, driver);
  } finally {
    await driver.close();
  }
};

describe('firefox', () => {
  test('firefox: a text conversation on page one, a click to page two: restored there, continued with a contextual_update', inSession(firefox, textAcrossPages));

  test('firefox: a reload during a voice call: told it ended, "New call" offered, no call running', inSession(firefox, callThenReload));

  // One browser at a time: Firefox is closed before WebKit starts.
  after(() => closeFirefox());
});

describe('webkit', () => {
  test('webkit: a text conversation on page one, a click to page two: restored there, continued with a contextual_update', inSession(webkit, textAcrossPages));

  test('webkit: a reload during a voice call: told it ended, "New call" offered, no call running', inSession(webkit, callThenReload));
});

// A conversation that survives the visitor's next click (issue 21), tried from outside with real page loads: the built
// script-tag widget (dist/, `npm run build` first) on the two-page site of site.mjs, served beside the reference
// service on its own origin, in Debian's Chromium driven by playwright-core with its fake microphone. A click on the
// site's own link and a reload are real page loads in the same tab; each test is a visit of its own (a new browser
// context: its own sessionStorage and localStorage). What reached the service, and in which order, is read from its
// conversation records (`service.conversations`).
// Run: node --test test/continuation/
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { chromiumArgsWithFakeMicrophone, chromiumPath } from '../../scripts/chromium.mjs';
import { FAMILY, TEXT_AGENT, WORDS, continuedAtService, keyOf, startSite, transcriptOf, until } from './site.mjs';

let site;
let browser;

before(async () => {
  site = await startSite();
  browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgsWithFakeMicrophone() });
});

after(async () => {
  await browser?.close();
  await site?.close();
});

/**
 * A new visit: a browser context of its own (`init`, when given, runs in every page before the page's scripts) and
 * its tab, with every console line (type: text) of the tab.
 */
async function visit(init) {
  const context = await browser.newContext();
  if (init) await context.addInitScript(init.script, init.arg);
  const tab = await context.newPage();
  const lines = [];
  tab.on('console', (message) => lines.push(`${message.type()}: ${message.text()}`));
  tab.on('pageerror', (error) => lines.push(`pageerror: ${error.message}`));
  return { context, tab, widget: tab.locator('voice-agent-widget'), lines };
}

/** Both storages of the tab's page, as `{session, local}` objects of key → value. */
const storage = (tab) =>
  tab.evaluate(() => {
    const all = (s) => Object.fromEntries(Object.keys(s).map((k) => [k, s.getItem(k)]));
    return { session: all(sessionStorage), local: all(localStorage) };
  });

/** The text key of the kept conversation of the text agent, as the page's widget names it (its server-url is the origin). */
const textKey = () => keyOf(site.url, TEXT_AGENT);

/** The ids of the service's conversations so far. */
const conversationIds = () => new Set(site.service.conversations.keys());

/**
 * The conversation texts of the service's conversations not in `before`: every transcript entry but the agent's
 * configured first message (it is configuration, which the configuration cache keeps in localStorage by design).
 */
function conversationTexts(before) {
  const texts = [];
  for (const [id, record] of site.service.conversations) {
    if (before.has(id)) continue;
    record.transcript.forEach((entry, i) => {
      if (!(i === 0 && entry.role === 'agent' && entry.time_in_call_secs === 0)) texts.push(entry.message);
    });
  }
  return texts;
}

/**
 * (e) localStorage holds no conversation: no key of the kept conversations' family, and none of `texts` (the visitor's
 * and the agent's) in any key or value.
 */
async function localHoldsNoConversation(tab, texts, step) {
  const { local } = await storage(tab);
  for (const [key, value] of Object.entries(local)) {
    assert.ok(!key.startsWith(FAMILY), `${step}: localStorage holds the conversation key ${key}`);
    for (const text of texts) assert.ok(!key.includes(text) && !value.includes(text), `${step}: localStorage ${key} holds "${text}"`);
  }
}

/** The transcript's lines in order, as `[part, text]`. */
const transcriptLines = (widget) =>
  widget.evaluate((el) =>
    [...el.shadowRoot.querySelectorAll('[part~="transcript"] [part~="message"], [part~="transcript"] [part~="notice"]')].map((n) => [n.getAttribute('part'), n.textContent.trim()]),
  );

/** The `voice-agent-conversation` details the page heard so far. */
const conversationEvents = (tab) => tab.evaluate(() => window.__conversations);

/** Waits for the launcher, opens the panel with it, and waits for the text input. */
async function openPanel(widget) {
  await widget.locator('.launcher:not([disabled])').click({ timeout: 15000 });
  await widget.locator('[part~="input"]').waitFor({ timeout: 15000 });
}

/** Types `text` in the panel's input and sends it (Enter). */
async function send(widget, text) {
  const input = widget.locator('[part~="input"]');
  await input.fill(text);
  await input.press('Enter');
}

/** Waits for the agent's complete reply to `text` (the scripted agent's echo: `You said: **text**. …`). */
const reply = (widget, text) =>
  widget.locator('[part~="agent-message"][aria-busy="false"]', { hasText: `You said: ${text}.` }).waitFor({ timeout: 15000 });

/** Waits for the conversation event number `n` (1-based) of this page and returns its detail. */
const nthConversation = (tab, n) => until(async () => (await conversationEvents(tab))[n - 1], 15000, `conversation event ${n}`);

/**
 * On the next page (after a click to `path`), asserts nothing was restored: the panel closed, then opened with no
 * earlier message; `text` sent there starts a conversation that continues none (no previousConversationId, no
 * contextual_update at the service).
 */
async function freshOnNextPage(tab, widget, path, text) {
  await tab.click('#to-other');
  await tab.waitForURL(`${site.url}${path}`);
  await widget.locator('.launcher:not([disabled])').waitFor({ timeout: 15000 });
  assert.equal(await widget.locator('[part~="launcher"]').getAttribute('aria-expanded'), 'false', 'the panel not restored open');
  await openPanel(widget);
  assert.equal(await widget.locator('[part~="earlier-divider"]').count(), 0);
  assert.equal(await widget.locator('[part~="user-message"]').count(), 0, 'no earlier message');
  await send(widget, text);
  const next = await nthConversation(tab, 1);
  assert.equal(next.previousConversationId, null);
  await reply(widget, text);
  assert.ok(!transcriptOf(site, next.conversationId).some((e) => e.source === 'contextual_update'), 'no contextual_update');
}

/**
 * Asserts the page shows the panel open, restored: the earlier visitor line `userText` and the agent's reply to it
 * above the divider, which is the transcript's last line.
 */
async function restored(widget, userText) {
  const divider = widget.locator('[part~="earlier-divider"]');
  await divider.waitFor({ timeout: 15000 });
  assert.equal((await divider.textContent()).trim(), WORDS.earlier);
  assert.equal(await divider.evaluate((n) => n.tagName), 'P');
  assert.equal(await widget.locator('[part~="panel"]').count(), 1, 'the panel open');
  assert.equal(await widget.locator('[part~="launcher"]').getAttribute('aria-expanded'), 'true');
  const lines = await transcriptLines(widget);
  const user = lines.findIndex(([part, text]) => part.includes('user-message') && text === userText);
  const agent = lines.findIndex(([part, text]) => part.includes('agent-message') && text.startsWith(`You said: ${userText}.`));
  const dividerAt = lines.findIndex(([part]) => part.includes('earlier-divider'));
  assert.ok(user >= 0 && agent > user && dividerAt > agent, `earlier messages above the divider: ${JSON.stringify(lines)}`);
  assert.equal(dividerAt, lines.length - 1, `the divider last: ${JSON.stringify(lines)}`);
  assert.equal(await widget.locator('[part~="agent-message"] strong', { hasText: userText }).count(), 1, 'the agent\'s markdown rendered again');
  return lines;
}

describe('a text conversation kept across the pages of a visit', () => {
  test('(a) nothing in either storage before the first conversation: the panel opened, a draft typed, nothing sent', async () => {
    const { context, tab, widget } = await visit();
    const before = site.service.conversations.size;
    try {
      await tab.goto(`${site.url}/one?secret=1`);
      await openPanel(widget);
      await widget.locator('[part~="input"]').fill('a draft never sent');
      await widget.locator('[part~="send-button"]:not([disabled])').waitFor();
      const { session, local } = await storage(tab);
      assert.deepEqual(session, {}, 'sessionStorage empty');
      assert.deepEqual(Object.keys(local).filter((key) => key.startsWith(FAMILY)), []);
      for (const [key, value] of Object.entries(local)) assert.ok(!value.includes('a draft never sent'), key);
      assert.equal(site.service.conversations.size, before, 'no conversation started');
    } finally {
      await context.close();
    }
  });

  test('(b, e) a click to the next page: the panel open, the earlier messages, the divider; the next message continues it with a contextual_update', async (t) => {
    const { context, tab, widget, lines } = await visit();
    const before = conversationIds();
    try {
      await tab.goto(`${site.url}/one?secret=1`);
      await openPanel(widget);
      await send(widget, 'hello from page one');
      await reply(widget, 'hello from page one');
      const [first] = await until(async () => (await conversationEvents(tab)).length && conversationEvents(tab), 15000, 'the first conversation');
      assert.equal(first.previousConversationId, null);
      const kept = await until(async () => (await storage(tab)).session[textKey()], 5000, 'the conversation kept');
      assert.ok(kept.includes('hello from page one'), kept);
      await localHoldsNoConversation(tab, conversationTexts(before), 'page one');

      await tab.click('#to-other');
      await tab.waitForURL(`${site.url}/two`);
      assert.equal(await tab.title(), 'Pricing');
      await restored(widget, 'hello from page one');
      await localHoldsNoConversation(tab, conversationTexts(before), 'page two, restored');

      await send(widget, 'and on page two');
      const second = await nthConversation(tab, 1);
      assert.equal(second.previousConversationId, first.conversationId, 'previousConversationId: the first conversation');
      assert.notEqual(second.conversationId, first.conversationId);
      t.diagnostic(await continuedAtService(assert, site, second.conversationId, { userText: 'and on page two', earlierUserText: 'hello from page one', path: '/two', title: 'Pricing' }));
      assert.ok(!transcriptOf(site, first.conversationId).some((e) => e.source === 'contextual_update'), 'the first conversation had none');
      await reply(widget, 'and on page two');
      await localHoldsNoConversation(tab, conversationTexts(before), 'page two, continued');
      assert.deepEqual(lines.filter((l) => l.includes('[voice-agent-widget]') || l.startsWith('pageerror')), []);
    } finally {
      await context.close();
    }
  });

  test('(c, e) a reload mid-text-conversation restores it the same way; the continuation names the path, never the query', async () => {
    const { context, tab, widget } = await visit();
    const before = conversationIds();
    try {
      await tab.goto(`${site.url}/one?secret=1`);
      await openPanel(widget);
      await send(widget, 'hello before the reload');
      await reply(widget, 'hello before the reload');
      const [first] = await until(async () => (await conversationEvents(tab)).length && conversationEvents(tab), 15000, 'the first conversation');
      assert.equal(site.service.conversations.get(first.conversationId).status, 'in-progress', 'mid-conversation');

      await tab.reload();
      await restored(widget, 'hello before the reload');
      await until(() => site.service.conversations.get(first.conversationId).status === 'done', 10000, 'the first conversation closed by the page load');
      await localHoldsNoConversation(tab, conversationTexts(before), 'reloaded');

      await send(widget, 'after the reload');
      const second = await nthConversation(tab, 1);
      assert.equal(second.previousConversationId, first.conversationId);
      const text = await continuedAtService(assert, site, second.conversationId, {
        userText: 'after the reload', earlierUserText: 'hello before the reload', path: '/one', title: 'Page one',
      });
      assert.ok(text.includes(first.conversationId), 'the earlier conversation named');
      await reply(widget, 'after the reload');
      await localHoldsNoConversation(tab, conversationTexts(before), 'after the reload');
    } finally {
      await context.close();
    }
  });

  test('(h) the End button forgets it: the key gone, the next page shows no earlier messages and continues nothing', async () => {
    const { context, tab, widget } = await visit();
    try {
      await tab.goto(`${site.url}/one?secret=1`);
      await openPanel(widget);
      await send(widget, 'hello then the end');
      await reply(widget, 'hello then the end');
      await until(async () => (await storage(tab)).session[textKey()], 5000, 'the conversation kept');
      await widget.locator('[part~="end-button"]').click();
      await until(async () => !Object.keys((await storage(tab)).session).some((key) => key.startsWith(FAMILY)), 5000, 'the key removed');

      await freshOnNextPage(tab, widget, '/two', 'a fresh start');
    } finally {
      await context.close();
    }
  });

  test('(g) <html data-voice-agent-no-storage>: nothing stored after a conversation, nothing restored on the next page', async () => {
    const { context, tab, widget } = await visit();
    const before = conversationIds();
    try {
      await tab.goto(`${site.url}/no-storage/one?secret=1`);
      assert.equal(await tab.evaluate(() => document.documentElement.hasAttribute('data-voice-agent-no-storage')), true);
      await openPanel(widget);
      await send(widget, 'hello without storage');
      await reply(widget, 'hello without storage');
      assert.deepEqual((await storage(tab)).session, {}, 'sessionStorage empty');
      await localHoldsNoConversation(tab, conversationTexts(before), 'no storage, page one');

      await freshOnNextPage(tab, widget, '/no-storage/two', 'again without storage');
      assert.deepEqual((await storage(tab)).session, {}, 'sessionStorage still empty');
      await localHoldsNoConversation(tab, conversationTexts(before), 'no storage, page two');
    } finally {
      await context.close();
    }
  });
});

describe('a voice call when the page changes', () => {
  test('(d, e) a reload during a call: told the call ended, "New call" offered, no call running; the new call continues it', async (t) => {
    const { context, tab, widget } = await visit();
    const before = conversationIds();
    try {
      await tab.goto(`${site.url}/voice/one?secret=1`);
      await widget.locator('.launcher:not([disabled])').click({ timeout: 15000 });
      await widget.locator('[part~="start-call-button"]').click({ timeout: 15000 });
      // agent_demo_support has terms (terms_key acme_terms_v3): the visitor accepts them.
      await widget.locator('[part~="accept-terms-button"]').click({ timeout: 15000 });
      await widget.locator('.root.live').waitFor({ state: 'attached', timeout: 20000 });
      await widget.locator('[part~="agent-message"]:not(.greeting)', { hasText: 'Acme assistant' }).waitFor({ timeout: 15000 });
      const [call] = await conversationEvents(tab);
      assert.ok(call, 'the call\'s conversation');

      await tab.reload();
      await widget.locator('[part~="earlier-divider"]').waitFor({ timeout: 15000 });
      const ended = widget.locator('[part="notice"]', { hasText: WORDS.callEnded });
      assert.equal(await ended.count(), 1, `told the call ended when the page changed: ${JSON.stringify(await transcriptLines(widget))}`);
      assert.equal((await ended.textContent()).trim(), WORDS.callEnded);
      assert.equal(await widget.locator('[part~="launcher"]').getAttribute('aria-expanded'), 'true', 'the panel restored open');
      assert.equal(await widget.locator('[part~="agent-message"]:not(.greeting)', { hasText: 'Acme assistant' }).count(), 1, 'the call\'s transcript restored');
      const callButton = widget.locator('[part~="start-call-button"]');
      assert.equal((await callButton.textContent()).trim(), WORDS.newCall);
      assert.equal(await widget.locator('.root.live').count(), 0, 'no call running');
      assert.equal(await widget.locator('[part~="end-button"]').count(), 0, 'nothing to end');
      await until(() => site.service.conversations.get(call.conversationId).status === 'done', 10000, 'the call closed by the page load');
      assert.deepEqual([...site.service.conversations.keys()].filter((id) => !before.has(id)), [call.conversationId], 'no conversation started by the reload');
      assert.equal(await widget.locator('.root.live').count(), 0, 'still no call running');
      await localHoldsNoConversation(tab, conversationTexts(before), 'after the reload');

      // "New call": a new call that continues the earlier one.
      await callButton.click();
      await widget.locator('.root.live').waitFor({ state: 'attached', timeout: 20000 });
      const next = await nthConversation(tab, 1);
      assert.equal(next.previousConversationId, call.conversationId);
      const update = await until(() => transcriptOf(site, next.conversationId).find((e) => e.source === 'contextual_update'), 10000, 'the contextual_update of the new call');
      assert.match(update.message, /\nagent: .*Acme assistant/);
      t.diagnostic(update.message);
      assert.ok(update.message.includes('"Page one" (/voice/one)') && !update.message.includes('secret'), update.message);
      await widget.locator('[part~="end-button"]').click();
      await widget.locator('.root.live').waitFor({ state: 'detached', timeout: 10000 });
      await localHoldsNoConversation(tab, conversationTexts(before), 'after the new call');
    } finally {
      await context.close();
    }
  });
});

/** The agent's and the visitor's hostile text of a tampered store. */
const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>[x](javascript:window.__pwned=3)';

/**
 * Writes `value` (a string, or a function of the page's time building one) under `key` in sessionStorage before the
 * page's scripts; for `{big: n}`, a kept conversation of one agent message of n characters, or the largest of a few
 * smaller sizes the browser's quota takes (its length in `window.__seeded`): Chromium's 10 MiB per origin counts
 * UTF-16 bytes, so the largest it takes is one of n / 2 characters less a little, 10 MB as the browser stores it.
 */
function seed({ key, value, big }) {
  let json = value;
  if (big) {
    for (const size of [big, big / 2 - 1024, big / 4, big / 8]) {
      json = JSON.stringify({ v: 1, conversationId: 'conv_big', open: true, expanded: false, mode: 'text', call: false, updatedAt: Date.now(), messages: [{ role: 'agent', text: 'A'.repeat(size) }] });
      try {
        sessionStorage.setItem(key, json);
        window.__seeded = json.length;
        return;
      } catch {
        // over the quota: a smaller one
      }
    }
    return;
  }
  sessionStorage.setItem(key, json.replace('"__NOW__"', String(Date.now())));
  window.__seeded = json.length;
}

/** A kept conversation as the widget writes it, with `fields` over it; its `updatedAt` the page's now. */
const kept = (fields) => JSON.stringify({ v: 1, conversationId: 'conv_kept', open: true, expanded: false, mode: 'text', call: false, updatedAt: '__NOW__', messages: [], ...fields });

/** Opens the tampered store's page and returns the visit, once the widget is ready. */
async function tampered(value, big) {
  const v = await visit({ script: seed, arg: { key: textKey(), value, big } });
  await v.tab.goto(`${site.url}/one?secret=1`);
  await v.widget.locator('.launcher:not([disabled])').waitFor({ timeout: 15000 });
  return v;
}

/** Waits until an image of src `x` failed to load in the page: one that a restored `<img src=x onerror>` would have fired before. */
const imageErrorBarrier = (tab) =>
  tab.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => {
    const image = new Image();
    image.onerror = image.onload = resolve;
    image.src = 'x';
  }))));

describe('a tampered store executes nothing', () => {
  test('(f) hostile markdown and HTML as agent and visitor text: shown inert, nothing runs, no img, script or javascript: link', async () => {
    const { context, tab, widget, lines } = await tampered(kept({ messages: [{ role: 'agent', text: HOSTILE }, { role: 'user', text: HOSTILE }] }));
    try {
      await widget.locator('[part~="earlier-divider"]').waitFor({ timeout: 15000 });
      await imageErrorBarrier(tab);
      assert.equal(await tab.evaluate(() => window.__pwned), undefined, 'nothing ran');
      const found = await widget.evaluate((el) => {
        const root = el.shadowRoot;
        const transcript = root.querySelector('[part~="transcript"]');
        return {
          images: transcript.querySelectorAll('img').length, scripts: root.querySelectorAll('script').length,
          documentImages: document.querySelectorAll('img').length,
          javascriptLinks: [...root.querySelectorAll('[href]'), ...document.querySelectorAll('[href]')].filter((a) => /^\s*javascript:/i.test(a.getAttribute('href'))).length,
          handlers: [...root.querySelectorAll('*')].filter((n) => [...n.attributes].some((a) => /^on/i.test(a.name))).length,
          user: root.querySelector('[part~="user-message"]')?.textContent.trim(),
          agent: root.querySelector('[part~="agent-message"]:not(.greeting)')?.textContent.trim(),
        };
      });
      assert.deepEqual({ ...found, user: undefined, agent: undefined }, { images: 0, scripts: 0, documentImages: 0, javascriptLinks: 0, handlers: 0, user: undefined, agent: undefined }, JSON.stringify(found));
      assert.equal(found.user, HOSTILE, 'the visitor\'s text shown as text');
      assert.ok(found.agent !== undefined && !found.agent.includes('javascript:'), `the agent's text rendered inert: ${found.agent}`);
      await imageErrorBarrier(tab);
      assert.equal(await tab.evaluate(() => window.__pwned), undefined, 'still nothing ran');
      assert.deepEqual(lines.filter((l) => l.startsWith('pageerror')), []);
    } finally {
      await context.close();
    }
  });

  test('(f) wrong types: the bad messages dropped with a console line, the rest shown; unusable fields read as their defaults', async () => {
    const value = kept({
      conversationId: { evil: true }, open: 'yes', expanded: 1, mode: 5, call: 'true',
      messages: [{ role: 'agent', text: 42 }, { role: 'system', text: 'a system line' }, null, 'a bare string', { role: 'user', text: ['an array'] },
        { role: 'user', text: 'a valid visitor line' }, { role: 'agent', text: 'a valid agent line' }],
    });
    const { context, tab, widget, lines } = await tampered(value);
    try {
      const warned = await until(() => lines.find((l) => l.includes('[voice-agent-widget]') && l.includes('stored message(s)')), 15000, 'the console line');
      assert.match(warned, /^warning: .*5 stored message\(s\) of this agent's conversation were dropped/);
      assert.equal(await widget.locator('[part~="launcher"]').getAttribute('aria-expanded'), 'false', 'open: "yes" is not true');
      await openPanel(widget);
      const shown = await transcriptLines(widget);
      assert.deepEqual(shown, [['message user-message', 'a valid visitor line'], ['message agent-message', 'a valid agent line'], ['notice earlier-divider', WORDS.earlier]]);
      assert.equal(await widget.locator('[part="notice"]', { hasText: WORDS.callEnded }).count(), 0, 'call: "true" is not true');
      await send(widget, 'and now go on');
      const next = await nthConversation(tab, 1);
      assert.equal(next.previousConversationId, null, 'a conversation id that is not one is not passed on');
      const update = await until(() => transcriptOf(site, next.conversationId).find((e) => e.source === 'contextual_update'), 10000, 'the contextual_update');
      assert.ok(update.message.includes('\nuser: a valid visitor line\nagent: a valid agent line') && !update.message.includes('a system line'), update.message);
    } finally {
      await context.close();
    }
  });

  for (const [name, value, why] of [
    ['not JSON', '{"v":1,', /it is not JSON/],
    ['another version', kept({ v: 2, messages: [{ role: 'user', text: 'from v2' }] }), /not a conversation the widget kept/],
    ['messages not a list', kept({ messages: 'from a string' }), /not a conversation the widget kept/],
    ['no time', kept({ updatedAt: 'now', messages: [{ role: 'user', text: 'from no time' }] }), /no time of last activity/],
  ]) {
    test(`(f) ${name}: the entry dropped (the key removed) with a console line; nothing shown`, async () => {
      const { context, tab, widget, lines } = await tampered(value);
      try {
        await until(async () => !(await storage(tab)).session[textKey()], 15000, 'the key removed');
        const warned = lines.filter((l) => l.includes('[voice-agent-widget]'));
        assert.equal(warned.length, 1, warned.join('\n'));
        assert.match(warned[0], /^warning: .*the stored conversation of this agent was dropped: /);
        assert.match(warned[0], why);
        await openPanel(widget);
        assert.equal(await widget.locator('[part~="earlier-divider"]').count(), 0);
        assert.equal(await widget.locator('[part~="user-message"]').count(), 0);
      } finally {
        await context.close();
      }
    });
  }

  test('(f) a 10 MB entry: dropped (the key removed) with a console line, the widget shown', async (t) => {
    const { context, tab, widget, lines } = await tampered(undefined, 10 * 1024 * 1024);
    try {
      const seeded = await tab.evaluate(() => window.__seeded);
      t.diagnostic(`stored ${seeded} characters`);
      assert.ok(seeded > 2 * 262144, `an entry over the bound was stored: ${seeded}`);
      await until(async () => !(await storage(tab)).session[textKey()], 15000, 'the key removed');
      const warned = await until(() => lines.find((l) => l.includes('[voice-agent-widget]')), 5000, 'the console line');
      assert.match(warned, new RegExp(`^warning: .*the stored conversation of this agent was dropped: it is ${seeded} characters long`));
      assert.ok(await widget.locator('[part~="launcher"]').isVisible(), 'the widget shown');
      assert.equal(await widget.locator('[part~="launcher"]').getAttribute('aria-expanded'), 'false');
      await openPanel(widget);
      assert.equal(await widget.locator('[part~="earlier-divider"]').count(), 0);
      assert.equal(await widget.locator('[part~="agent-message"]:not(.greeting)').count(), 0);
    } finally {
      await context.close();
    }
  });
});

#!/usr/bin/env node
// npm run screenshots:engines: the main states of the built script-tag widget in each engine (Chromium, Firefox ESR,
// WebKitGTK; scripts/engines.mjs), side by side in screenshots/engines/<state>-<engine>.png (git-ignored), to be
// looked at: the launcher, the open panel, a text conversation with a markdown reply, the dark host page, the compact
// variant, a failed configuration read, a call's device sheet, and the end-of-conversation rating dialog. Needs a
// built dist/ (npm run build). ENGINES=… picks engines.
// Each state is driven through the element's host API (open(), sendUserMessage()), the same in every engine.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import * as puppeteer from 'puppeteer-core';
import { startDemo } from '../../demo/serve.mjs';
import { chromiumArgsWithFakeMicrophone, chromiumPath } from '../../scripts/chromium.mjs';
import { chosenEngines, firefoxPath, firefoxPrefs, startEngineServices, webkitSession } from '../../scripts/engines.mjs';

const OUT_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../screenshots/engines');
const VIEWPORT = { width: 1024, height: 768 };

/** The states: the page (demo/states.html query) and what to do there, as a function run in the page. */
const STATES = [
  { name: 'launcher', query: { 'agent-id': 'agent_demo_support' }, act: 'ready' },
  { name: 'panel', query: { 'agent-id': 'agent_minimal' }, act: 'open' },
  { name: 'conversation-markdown', query: { 'agent-id': 'agent_minimal' }, act: 'markdown' },
  { name: 'dark-host', query: { 'agent-id': 'agent_minimal', host: 'dark' }, act: 'open' },
  { name: 'compact', query: { 'agent-id': 'agent_minimal', attrs: JSON.stringify({ variant: 'compact' }) }, act: 'open' },
  { name: 'failed-read', query: { 'agent-id': 'no_such_agent' }, act: 'failed' },
  { name: 'call-devices', query: { 'agent-id': 'agent_minimal' }, act: 'devices' },
  { name: 'rating-dialog', query: { 'agent-id': 'agent_demo_support' }, act: 'rating' },
  { name: 'continued', query: { 'agent-id': 'agent_minimal' }, act: 'continued' },
];

/**
 * The page's part of a state, as source text (each driver evaluates a string): resolves when the state is on screen.
 * @param {string} act
 */
const actSource = (act) => `(async () => {
  const until = async (f, what) => { for (let i = 0; i < 300; i++) { if (f()) return; await new Promise((r) => setTimeout(r, 50)); } throw new Error('timed out: ' + what); };
  await until(() => document.querySelector('voice-agent-widget')?.shadowRoot, 'the element');
  const el = document.querySelector('voice-agent-widget');
  const root = () => el.shadowRoot;
  if (${JSON.stringify(act)} === 'failed') return until(() => root()?.querySelector('[role="alert"], .problem, .error'), 'the failure shown');
  await until(() => root()?.querySelector('.launcher:not([disabled])'), 'the launcher');
  if (${JSON.stringify(act)} === 'rating') localStorage.setItem('acme_terms_v3', 'accepted');
  if (${JSON.stringify(act)} === 'ready') return;
  el.open();
  await until(() => root().querySelector('[part~="panel"]') && !root().querySelector('.placeholder'), 'the panel');
  if (${JSON.stringify(act)} === 'markdown') {
    await el.sendUserMessage('some markdown please');
    await until(() => [...root().querySelectorAll('.message.agent')].some((m) => m.querySelector('h3, table, pre')), 'the markdown reply');
  }
  if (${JSON.stringify(act)} === 'rating') {
    await el.sendUserMessage('hello');
    await until(() => [...root().querySelectorAll('.message.agent[aria-busy="false"]')].some((m) => m.textContent.includes('You said: hello')), 'the whole reply');
    root().querySelector('[part~="end-button"]').click();
    await until(() => root().querySelector('[part~="feedback"]')?.open, 'the rating dialog');
  }
  if (${JSON.stringify(act)} === 'continued') {
    // The element a framework mounts in place of one that left (or the next page): the kept conversation (issue 21).
    await el.sendUserMessage('hello');
    await until(() => [...root().querySelectorAll('.message.agent[aria-busy="false"]')].some((m) => m.textContent.includes('You said: hello')), 'the whole reply');
    const again = el.cloneNode();
    el.replaceWith(again);
    await new Promise((r) => setTimeout(r, 0));
    await until(() => again.shadowRoot?.querySelector('[part~="earlier-divider"]'), 'the kept conversation shown');
  }
  if (${JSON.stringify(act)} === 'devices') {
    root().querySelector('[part~="start-call-button"]').click();
    await until(() => root().querySelector('[part~="devices-button"]'), 'the call');
    root().querySelector('[part~="devices-button"]').click();
    await until(() => root().querySelectorAll('[part~="microphone-select"] option').length > 1, 'the microphones listed');
  }
  await new Promise((r) => setTimeout(r, 400));
})()`;

/** Empties the tab's sessionStorage (run on the page, then loaded again): a first visit, with no conversation kept. */
const FIRST_VISIT = 'sessionStorage.clear()';

/** A driver over a Playwright or Puppeteer page (the same calls in both). */
const pageDriver = (browser, page) => ({
  async shoot(url, act) {
    // Each state a first visit: the tab keeps a conversation for its next page (issue 21), which would show here.
    await page.goto(url);
    await page.evaluate(FIRST_VISIT);
    await page.goto(url);
    await page.evaluate(actSource(act));
    return page.screenshot();
  },
  close: () => browser.close(),
});

/** Opens each engine's browser: `shoot(url, act)` returns a PNG; `close()`. */
const drivers = {
  async chromium() {
    const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgsWithFakeMicrophone() });
    return pageDriver(browser, await browser.newPage({ viewport: VIEWPORT }));
  },
  async firefox(services) {
    const browser = await puppeteer.launch({ browser: 'firefox', executablePath: firefoxPath, headless: true, extraPrefsFirefox: firefoxPrefs, env: services.env });
    const page = await browser.newPage();
    await page.setViewport(VIEWPORT);
    return pageDriver(browser, page);
  },
  async webkit(services) {
    const { call, close } = await webkitSession(services.webkitDriverPort);
    await call('POST', '/window/rect', { ...VIEWPORT, x: 0, y: 0 });
    return {
      async shoot(url, act) {
        await call('POST', '/url', { url });
        await call('POST', '/execute/sync', { script: FIRST_VISIT, args: [] });
        await call('POST', '/url', { url });
        await call('POST', '/execute/async', { script: `${actSource(act)}.then(() => arguments[0](), (e) => arguments[0](String(e)))`, args: [] }).then((error) => {
          if (error) throw new Error(error);
        });
        return Buffer.from(await call('GET', '/screenshot'), 'base64');
      },
      close,
    };
  },
};

const engines = chosenEngines();
mkdirSync(OUT_DIR, { recursive: true });
const demo = await startDemo({ port: 0, log: () => {} });
const services = await startEngineServices(engines);
let failed = 0;
try {
  for (const engine of engines) {
    const driver = await drivers[engine](services);
    try {
      for (const state of STATES) {
        const url = `${demo.url}demo/states.html?${new URLSearchParams(state.query)}`;
        try {
          const file = path.join(OUT_DIR, `${state.name}-${engine}.png`);
          writeFileSync(file, await driver.shoot(url, state.act));
          console.log(`wrote ${path.relative(process.cwd(), file)}`);
        } catch (error) {
          failed += 1;
          console.error(`${engine} ${state.name}: ${error.message}`);
        }
      }
    } finally {
      await driver.close();
    }
  }
} finally {
  services.stop();
  await demo.close();
}
process.exit(failed ? 1 : 0);

// Web Test Runner: every browser test runs in three engines from Debian's packages (TOOLCHAIN.md), never a downloaded
// browser: Chromium, Firefox ESR and WebKitGTK (scripts/engines.mjs). ENGINES=firefox (or a comma list) runs fewer.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter } from '@web/test-runner';
import { chromeLauncher } from '@web/test-runner-chrome';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { webdriverLauncher } from '@web/test-runner-webdriver';
import * as puppeteer from 'puppeteer-core';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startService } from './demo/service/service.mjs';
import { chromiumArgsWithFakeMicrophone, chromiumPath } from './scripts/chromium.mjs';
import { chosenEngines, firefoxPath, firefoxPrefs, miniBrowserArgs, miniBrowserPath, startEngineServices } from './scripts/engines.mjs';
import { countReporter } from './test/count-reporter.mjs';
import { frameworkAppsPlugin } from './test/frameworks/bundle-apps.mjs';


/**
 * The cache headers a host gives the script-tag build's files: a chunk's name holds its build's hash (immutable), the
 * first script's does not.
 */
const cacheOf = (file) => ({ 'cache-control': /-[0-9a-f]{10}\.js$/.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache' });

/**
 * Starts the reference Voice Agent Service on 127.0.0.1 (a port of its own, so the widget talks to another origin
 * as on a real site), serving also the freshly built script-tag bundle at `/voice-agent-widget.js` as a service that
 * hosts the widget would. Tells the tests where it is through the virtual module `/__service__.js`:
 * `export const serviceUrl, apiKey`.
 */
function referenceServicePlugin() {
  /** One service per engine (the engines run at once; a test's faults and agents must not reach another engine's). */
  const running = new Map();
  /** The service of the engine a request comes from (by its User-Agent). */
  const serviceFor = (context) => {
    const agent = context.request.headers['user-agent'] ?? '';
    return running.get(/ Firefox\//.test(agent) ? 'firefox' : /Chrome\//.test(agent) ? 'chromium' : 'webkit') ?? [...running.values()][0];
  };
  /** The worklet files by name, served beside every script that defines the element (src/define.ts, the bundle). */
  let worklets = {};
  return {
    name: 'reference-service',
    async serverStart() {
      // The script-tag tests load the real script-tag build: build it from the current source (about 2 s): the classic
      // first script, the conversation's module chunks and the worklet files the build writes beside it.
      execFileSync('npx', ['vite', 'build', '--mode', 'script', '--logLevel', 'error'], { stdio: 'inherit' });
      execFileSync('node', ['scripts/build-worklets.mjs'], { stdio: 'inherit' });
      worklets = Object.fromEntries(
        readdirSync(new URL('./dist/', import.meta.url)).filter((file) => /^voice-agent-.*-worklet\.js$/.test(file))
          .map((file) => [file, readFileSync(new URL(`./dist/${file}`, import.meta.url), 'utf8')]),
      );
      const scriptTag = Object.fromEntries(
        readdirSync(new URL('./dist/', import.meta.url)).filter((file) => /^voice-agent-widget(-.*)?\.js$/.test(file))
          .map((file) => [`/${file}`, readFileSync(new URL(`./dist/${file}`, import.meta.url))]),
      );
      for (const engine of engines) {
        /** The chunks /flaky/ answered 503 to, once each. */
        const failedOnce = new Set();
        /** Requests of the script-tag build's files by path (without a query). */
        const requested = new Map();
        running.set(engine, await startService({
          log: () => {},
          replyDelayMs: 5,
          fallback(req, res) {
            // The path alone: a retried chunk comes with `?retry=N` (scripts/classic-entry.mjs).
            const path = req.url.split('?')[0];
            const worklet = worklets[path.slice(1)];
            // The script-tag build also under /slow/<ms>/ (its chunks answered after <ms>), /no-chunks/ (its chunks
            // missing) and /flaky/[<n>/] (each chunk's first request answered 503): the folder a site copies, on a slow or a
            // broken host (test/integration/script-tag.test.ts).
            const [, folder, arg, file] = /^\/(slow|no-chunks|flaky)\/(?:(\d+)\/)?([^/]+)$/.exec(path) ?? [];
            if (scriptTag[`/${file ?? path.slice(1)}`]) requested.set(path, (requested.get(path) ?? 0) + 1);
            // How many requests a script-tag file had: /requested/<its path>.
            if (path.startsWith('/requested/')) {
              return void res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' })
                .end(JSON.stringify(requested.get(path.slice('/requested'.length)) ?? 0));
            }
            if (folder && scriptTag[`/${file}`]) {
              const chunk = file !== 'voice-agent-widget.js';
              if (chunk && folder === 'no-chunks') return void res.writeHead(404).end();
              // /flaky/<n>/: a flaky host of its own (failing each chunk once more), for another test.
              if (chunk && folder === 'flaky' && !failedOnce.has(`${arg}/${file}`)) return void (failedOnce.add(`${arg}/${file}`), res.writeHead(503).end());
              const send = () => res.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*', ...cacheOf(file) }).end(scriptTag[`/${file}`]);
              return void (chunk ? setTimeout(send, Number(arg)) : send());
            }
            // CORS on the chunks: a page on another origin loads them with import(), a CORS fetch.
            if (scriptTag[path]) res.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*', ...cacheOf(path) }).end(scriptTag[path]);
            // CORS: a page on another origin loads the worklets with audioWorklet.addModule, a CORS fetch (the CSP page).
            else if (worklet) res.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' }).end(worklet);
            else res.writeHead(404).end();
          },
        }));
      }
    },
    async serverStop() {
      await Promise.all([...running.values()].map((service) => service.close()));
      services.stop();
    },
    serve(context) {
      const worklet = worklets[context.path.split('/').pop()];
      if (worklet) return { body: worklet, type: 'js' };
      if (context.path === '/__service__.js') {
        const running = serviceFor(context);
        return {
          body: `export const serviceUrl = ${JSON.stringify(running.url)};\nexport const apiKey = ${JSON.stringify(running.apiKey)};\n`,
          type: 'js',
        };
      }
      if (context.path === '/csp/voice.html') return cspPage(context.query, serviceFor(context).url);
      return undefined;
    },
  };
}

/**
 * The page of the strict-CSP voice test (test/integration/voice-csp.test.ts), on the test server's origin: only the
 * widget of `agent_minimal`, loaded from the reference service as a site would embed it, under the
 * `Content-Security-Policy` of the query's `policy` (whatever the test asks; this is a test server).
 * @param {Record<string, unknown>} query @param {string} serviceOrigin
 */
function cspPage({ policy }, serviceOrigin) {
  return {
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>strict CSP</title>
<script src="${serviceOrigin}/voice-agent-widget.js"></script></head>
<body><voice-agent-widget agent-id="agent_minimal"></voice-agent-widget></body></html>`,
    type: 'html',
    headers: { 'content-security-policy': String(policy ?? "default-src 'none'") },
  };
}

const engines = chosenEngines();
/** The display, audio daemon and WebDriver the engines need, started now and stopped when the run ends. */
const services = await startEngineServices(engines);
process.once('exit', services.stop);
// Killed from outside (a CI timeout): the daemons and the driver must not outlive the run.
for (const signal of ['SIGTERM', 'SIGHUP']) process.once(signal, () => (services.stop(), process.exit(128 + (signal === 'SIGTERM' ? 15 : 1))));

/** Each engine's launcher, and its name for the per-engine count lines. */
const launchers = new Map();
if (engines.includes('chromium')) {
  launchers.set(
    playwrightLauncher({ product: 'chromium', launchOptions: { executablePath: chromiumPath, headless: true, args: chromiumArgsWithFakeMicrophone() } }),
    'chromium',
  );
}
if (engines.includes('firefox')) {
  launchers.set(
    chromeLauncher({
      puppeteer,
      launchOptions: { browser: 'firefox', executablePath: firefoxPath, headless: true, extraPrefsFirefox: firefoxPrefs, env: services.env },
    }),
    'firefox',
  );
}
if (engines.includes('webkit')) {
  launchers.set(
    webdriverLauncher({
      hostname: '127.0.0.1',
      port: services.webkitDriverPort,
      path: '/',
      logLevel: 'error',
      capabilities: {
        browserName: 'MiniBrowser',
        'wdio:enforceWebDriverClassic': true,
        'webkitgtk:browserOptions': { binary: miniBrowserPath, args: miniBrowserArgs },
      },
    }),
    'webkit',
  );
}

export default {
  // .test.ts only: the node:test files (test/service/*.test.mjs, test/frameworks/*.test.mjs) run under `node --test`.
  files: ['test/**/*.test.ts'],
  nodeResolve: { exportConditions: ['production'] },
  rootDir: '.',
  concurrency: 1,
  testFramework: { config: { timeout: 10000 } },
  // A file's tests together (the voice files hold a minute of calls; Firefox and WebKit run slower than Chromium).
  testsFinishTimeout: 300000,
  // From a file's page opened to its tests started (the default 20 s): WebKit's MiniBrowser, driven over WebDriver,
  // once took longer than that for one small file in a clean-clone CI run (the files after it ran as usual).
  testsStartTimeout: 60000,
  plugins: [
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)) }),
    referenceServicePlugin(),
    // The framework apps of test/frameworks/ (React, Vue, Svelte, Angular), bundled against dist/ on first request.
    frameworkAppsPlugin(),
  ],
  browsers: [...launchers.keys()],
  reporters: [defaultReporter(), countReporter(launchers)],
};

// The framework apps of test/frameworks/apps/ (issue 12 item 4), bundled on the first request of each, as a page's own
// build would bundle them: against the BUILT package (dist/, through package.json "exports"), never src/. React, Svelte
// and Angular with esbuild's JS API (esbuild-svelte compiles .svelte; Angular runs JIT with @angular/compiler), Vue
// with Vite's build API and @vitejs/plugin-vue (the `isCustomElement` option README shows). Each bundle and its chunks
// are kept in memory and served under /__frameworks__/<app>/; the React, Vue and Svelte pages rendered in Node
// (react-dom/server, vue/server-renderer, svelte/server) under /__frameworks__/<app>-ssr/markup.js?serverUrl=…
// (test/frameworks/*-ssr.test.ts).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const APPS = fileURLToPath(new URL('./apps/', import.meta.url));
/** Development builds of the frameworks: their warnings (hydration, unknown elements) are what the tests listen for. */
const NODE_ENV = JSON.stringify('development');

/** The newest modification time under `dir` (ms). */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(file) : statSync(file).mtimeMs);
  }
  return latest;
}

/**
 * Makes sure dist/'s npm entries (`npm run build`'s ES build) exist and are not older than src/: builds them (about
 * 2 s) when missing or stale, so the apps always bundle the package as the current source builds it.
 */
let built;
function ensureBuiltPackage() {
  built ??= buildPackageIfStale();
  return built;
}
async function buildPackageIfStale() {
  const define = path.join(ROOT, 'dist', 'define.js');
  if (existsSync(define) && existsSync(path.join(ROOT, 'dist', 'index.js')) && statSync(define).mtimeMs >= newest(path.join(ROOT, 'src'))) return;
  await promisify(execFile)('npx', ['vite', 'build', '--mode', 'es', '--logLevel', 'error'], { cwd: ROOT });
}

/**
 * A folder whose node_modules/voice-agent-widget links to the project: bare `voice-agent-widget/...` imports resolve
 * there as from an installed package (package.json "exports" → dist/).
 */
function packageLink() {
  const dir = mkdtempSync(path.join(tmpdir(), 'vaw-frameworks-'));
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(ROOT, path.join(dir, 'node_modules', 'voice-agent-widget'), 'dir');
  return dir;
}

/** esbuild options shared by the apps: one ES module entry `app.js` and its chunks (the widget's lazy conversation). */
function esbuildOptions(link, entry, extra = {}) {
  return {
    entryPoints: { app: entry },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outdir: '/out',
    write: false,
    nodePaths: [path.join(link, 'node_modules')],
    define: { 'process.env.NODE_ENV': NODE_ENV },
    jsx: 'automatic',
    logLevel: 'silent',
    ...extra,
  };
}

/** Vite's plugins for the Vue app, client and server builds alike. */
function vuePlugins(vue, link) {
  return [
    // As README shows: the compiler leaves <voice-agent-*> to the browser (no component resolution, no warning).
    vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('voice-agent-') } } }),
    {
      name: 'the-installed-package',
      enforce: 'pre',
      resolveId(source, _importer, options) {
        if (/^voice-agent-widget(\/|$)/.test(source)) return this.resolve(source, path.join(link, 'app.js'), { ...options, skipSelf: true });
        return null;
      },
    },
  ];
}

/** Bundles the app `name`; resolves to its files by name (`app.js`, chunks). */
async function bundle(name, link) {
  await ensureBuiltPackage();
  const files = new Map();
  if (name === 'vue') {
    const [{ build }, { default: vue }] = await Promise.all([import('vite'), import('@vitejs/plugin-vue')]);
    const output = await build({
      configFile: false,
      envFile: false,
      publicDir: false,
      root: path.join(APPS, 'vue'),
      base: '/__frameworks__/vue/',
      logLevel: 'error',
      mode: 'development',
      define: { 'process.env.NODE_ENV': NODE_ENV },
      plugins: vuePlugins(vue, link),
      build: {
        write: false,
        minify: false,
        modulePreload: false,
        target: 'es2022',
        rolldownOptions: {
          input: path.join(APPS, 'vue', 'main.ts'),
          preserveEntrySignatures: 'strict',
          output: { entryFileNames: 'app.js', chunkFileNames: '[name]-[hash].js' },
        },
      },
    });
    for (const item of [output].flat().flatMap((o) => o.output)) {
      if (item.type === 'chunk') files.set(item.fileName, item.code);
    }
    return files;
  }
  const esbuild = await import('esbuild');
  let options;
  if (name === 'react') options = esbuildOptions(link, path.join(APPS, 'react', 'app.tsx'));
  else if (name === 'angular') options = esbuildOptions(link, path.join(APPS, 'angular', 'app.ts'));
  else if (name === 'svelte') {
    const { default: sveltePlugin } = await import('esbuild-svelte');
    options = esbuildOptions(link, path.join(APPS, 'svelte', 'main.ts'), {
      mainFields: ['svelte', 'browser', 'module', 'main'],
      conditions: ['svelte', 'browser'],
      plugins: [sveltePlugin({ compilerOptions: { dev: true, css: 'injected' } })],
    });
  } else return null;
  const result = await esbuild.build(options);
  for (const file of result.outputFiles) files.set(path.relative('/out', file.path), file.text);
  return files;
}

/**
 * The app `name` (react, vue, svelte) rendered in Node, as a server would (react-dom/server renderToString, Vue's
 * createSSRApp + vue/server-renderer renderToString, svelte/server render; the widget's define.js imported there
 * registers nothing): its apps/<name>/server entry bundled for Node (a production build, as a server runs) into a
 * scratch file, run in a Node process of its own, the markup for `props` printed.
 */
async function serverRender(name, link, props) {
  await ensureBuiltPackage();
  const outfile = path.join(link, `${name}-server.mjs`);
  if (name === 'vue') {
    // Vite's SSR build: plugin-vue compiles App.vue for the server (with the client's isCustomElement); everything
    // bundled in (vue, the package, lit), as for react and svelte.
    const [{ build }, { default: vue }] = await Promise.all([import('vite'), import('@vitejs/plugin-vue')]);
    await build({
      configFile: false,
      envFile: false,
      publicDir: false,
      root: path.join(APPS, 'vue'),
      logLevel: 'error',
      mode: 'production',
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      plugins: vuePlugins(vue, link),
      ssr: { noExternal: true },
      build: {
        ssr: path.join(APPS, 'vue', 'server.ts'),
        outDir: link,
        emptyOutDir: false,
        minify: false,
        target: 'node20',
        rolldownOptions: { output: { entryFileNames: `${name}-server.mjs`, format: 'es' } },
      },
    });
  } else {
    const esbuild = await import('esbuild');
    const svelte = name === 'svelte' ? (await import('esbuild-svelte')).default : null;
    await esbuild.build({
      entryPoints: [path.join(APPS, name, name === 'react' ? 'server.tsx' : 'server.ts')],
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      outfile,
      nodePaths: [path.join(link, 'node_modules')],
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      jsx: 'automatic',
      logLevel: 'silent',
      ...(svelte && {
        mainFields: ['svelte', 'module', 'main'],
        conditions: ['svelte', 'node'],
        plugins: [svelte({ compilerOptions: { generate: 'server' } })],
      }),
      // react-dom/server's CommonJS parts require Node built-ins: give the bundle a require.
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    });
  }
  const script = `const { render } = await import(${JSON.stringify(pathToFileURL(outfile).href)});
if (typeof document !== 'undefined') throw new Error('a DOM on the server');
process.stdout.write(await render(${JSON.stringify(props)}));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: link });
  return stdout;
}

/** The Web Test Runner plugin: serves /__frameworks__/<app>/<file>, each app bundled once per run, on first request. */
export function frameworkAppsPlugin() {
  let link;
  const builds = new Map();
  return {
    name: 'framework-apps',
    serverStop() {
      if (link) rmSync(link, { recursive: true, force: true });
    },
    async serve(context) {
      const [, name, file] = /^\/__frameworks__\/([\w-]+)\/([\w.-]+)$/.exec(context.path) ?? [];
      if (!name) return undefined;
      link ??= packageLink();
      const [, ssr] = /^(react|vue|svelte)-ssr$/.exec(name) ?? [];
      if (ssr && file === 'markup.js') {
        const markup = await serverRender(ssr, link, { serverUrl: String(context.query.serverUrl ?? ''), agentId: 'agent_demo_support', customerName: 'Grace', variant: 'compact' });
        return { body: `export const markup = ${JSON.stringify(markup)};\n`, type: 'js' };
      }
      if (!builds.has(name)) {
        const started = performance.now();
        builds.set(name, bundle(name, link).then((files) => {
          if (files) console.log(`[framework-apps] ${name} bundled in ${Math.round(performance.now() - started)} ms`);
          return files;
        }));
      }
      let files;
      try {
        files = await builds.get(name);
      } catch (error) {
        console.error(`[framework-apps] ${name} failed to bundle:`, error);
        return { status: 500, body: String(error), type: 'text' };
      }
      const body = files?.get(file);
      return body === undefined ? undefined : { body, type: 'js' };
    },
  };
}

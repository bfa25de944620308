// A Vite (Rolldown) plugin for the script-tag build: the code-split ES build of src/embed.ts becomes ONE classic script
// that a site loads with a plain <script src> (dist/voice-agent-widget.js), and ES module chunks beside it that it
// loads with import() on intent (DESIGN.md: the launcher / conversation line).
//
// Rolldown puts what both sides use (Lit, the shared config modules) in the entry chunk and has the lazy chunks import
// it from there. A classic script cannot export, so, on the generated code (parsed with Vite's parseAst, edited with
// magic-string):
// - the entry's `export {a as b}` becomes `globalThis[Symbol.for(KEY)] ??= {b: a}` and the whole entry is wrapped in a
//   strict function, so nothing leaks into the page's globals;
// - a lazy chunk's `import {b as c} from "./voice-agent-widget.js"` becomes `const {b: c} = globalThis[Symbol.for(KEY)]`.
// KEY names this build (a hash of all its chunks, also put in the lazy chunks' file names), so the script loaded twice
// shares one copy, two different builds on one page never mix, and a cached chunk of another build is never used. The entry's own `import("./chunk.js")` becomes `import(new URL("./chunk.js", <the script's
// URL>).href)` (with `?retry=N` on a second try): the chunks load from beside the script, wherever it is hosted. The
// wrapper also declares `__voiceAgentWidgetChunks`, those chunks' URLs by chunk name, for the entry's preload at idle.
// (A classic script from another origin, loaded without `crossorigin`, has about:blank as its base URL for import(), so
// a relative specifier would fail.)
// Anything else the conversion cannot keep correct (a static import in the entry, import.meta, a namespace import)
// fails the build.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import MagicString from 'magic-string';
import { parseAst } from 'vite';

/** @param {string} entryFileName the classic script's file name, e.g. `voice-agent-widget.js` */
export function classicEntry(entryFileName) {
  return {
    name: 'classic-entry',
    generateBundle(_options, bundle) {
      const entry = bundle[entryFileName];
      if (!entry || entry.type !== 'chunk') this.error(`classic-entry: no chunk ${entryFileName}`);
      const chunks = Object.values(bundle).filter((chunk) => chunk.type === 'chunk' && chunk !== entry).sort((a, b) => a.fileName.localeCompare(b.fileName));
      // One key for the whole build, in the global's name and in every chunk's file name: an entry never meets a chunk
      // of another build (a CDN's cached copy), whose imports from the entry would not match its exports.
      // The key covers this plugin too: a change of how it rewrites gives new chunk names.
      const hash = createHash('sha256').update(readFileSync(new URL(import.meta.url))).update(entry.code);
      for (const chunk of chunks) hash.update(chunk.code);
      const key = hash.digest('hex').slice(0, 10);
      const shared = `globalThis[Symbol.for(${JSON.stringify(`voice-agent-widget:${key}`)})]`;
      /** @type {Map<string, string>} old file name -> new */
      const renamed = new Map(chunks.map((chunk) => [chunk.fileName, `voice-agent-widget-${chunk.name}-${key}.js`]));
      const rename = (specifier) => (specifier.startsWith('./') && renamed.get(specifier.slice(2)) ? `./${renamed.get(specifier.slice(2))}` : specifier);
      // The chunks the entry preloads at idle (`PRELOADED`), by chunk name, among those it loads with import().
      const lazy = Object.fromEntries(chunks.filter((chunk) => PRELOADED.includes(chunk.name) && entry.dynamicImports.includes(chunk.fileName)).map((chunk) => [chunk.name, rename(`./${chunk.fileName}`)]));
      entry.code = classicScript(entry.code, shared, rename, lazy, (message) => this.error(`classic-entry: ${entryFileName}: ${message}`));
      for (const chunk of chunks) {
        const code = importsFromGlobal(chunk.code, `./${entryFileName}`, shared, rename, (message) => this.error(`classic-entry: ${chunk.fileName}: ${message}`));
        // Rolldown lets a plugin drop a chunk but not rename one: it is written again under its new name.
        delete bundle[chunk.fileName];
        this.emitFile({ type: 'asset', fileName: renamed.get(chunk.fileName), source: code });
      }
    },
  };
}

/**
 * The entry chunk as a classic script: its exports put on `shared` (kept when already there), all in a strict function
 * that declares `${CHUNKS}`, the URL of each chunk in `lazy` (chunk name → `./file`) beside the script.
 */
function classicScript(code, shared, rename, lazy, fail) {
  for (const own of [BASE, TRIES]) if (code.includes(own)) fail(`the code uses ${own}, a name the wrapper declares`);
  const ast = parseAst(code);
  const out = new MagicString(code);
  for (const node of ast.body) {
    if (node.type === 'ImportDeclaration') fail('a static import: the entry must hold every module it needs');
    if (node.type === 'ExportAllDeclaration' || node.type === 'ExportDefaultDeclaration') fail(`${node.type} is not supported`);
    if (node.type === 'ExportNamedDeclaration') {
      if (node.declaration || node.source) fail('only `export {…}` of local bindings is supported');
      const fields = node.specifiers.map((s) => `${JSON.stringify(name(s.exported))}:${name(s.local)}`);
      out.overwrite(node.start, node.end, `${shared}??={${fields.join(',')}};`);
    }
  }
  for (const node of importExpressions(ast)) {
    const { source } = node;
    const specifier = source.type === 'Literal' ? source.value : source.type === 'TemplateLiteral' && !source.expressions.length ? source.quasis[0].value.cooked : null;
    if (typeof specifier !== 'string' || !specifier.startsWith('./')) fail('import() of anything but a chunk beside it');
    // Each import() after the first asks for another URL (`?retry=N`): Firefox keeps a module whose fetch failed as
    // failed in its module map for the page's life, so "Try again" after a failed load would fail there without a
    // request. The chunk imports nothing (it takes the entry's bindings from the global), so a retried copy is whole.
    out.overwrite(source.start, source.end, `new URL(${JSON.stringify(rename(specifier))},${BASE}).href+(${TRIES}++?"?retry="+${TRIES}:"")`);
  }
  if (/\bimport\.meta\b/.test(code)) fail('import.meta is not available in a classic script');
  // Not in a browser (Node importing the package's every entry, server rendering): nothing runs.
  const urls = Object.entries(lazy).map(([chunk, file]) => `${JSON.stringify(chunk)}:new URL(${JSON.stringify(file)},${BASE}).href`);
  out.prepend(`(function(){"use strict";if(typeof document>"u")return;var ${BASE}=document.currentScript instanceof HTMLScriptElement?document.currentScript.src:document.baseURI,${TRIES}=0,${CHUNKS}={${urls.join(',')}};`).append('})();\n');
  // V8's explicit compile hint (a comment elsewhere): every function of the first script runs before the launcher is
  // usable, so Chromium compiles them all while the script streams in, off the main thread, instead of one by one on
  // it. Measured with bench:launch under 4G + CPU 4x: main-thread scripting to the launcher 90.5 -> 71.4 ms (cold),
  // 104.7 -> 65.5 ms (warm); the heap is unchanged.
  out.prepend('//# allFunctionsCalledOnLoad\n');
  return out.toString();
}

/** A lazy chunk with its imports from the entry read from `shared` instead. */
function importsFromGlobal(code, entrySpecifier, shared, rename, fail) {
  const ast = parseAst(code);
  const out = new MagicString(code);
  for (const node of ast.body) {
    if ((node.type === 'ImportDeclaration' || node.type === 'ExportAllDeclaration' || node.type === 'ExportNamedDeclaration') && node.source && node.source.value !== entrySpecifier) {
      out.overwrite(node.source.start, node.source.end, JSON.stringify(rename(node.source.value)));
      continue;
    }
    if (node.type !== 'ImportDeclaration' || node.source.value !== entrySpecifier) continue;
    const fields = node.specifiers.map((s) => {
      if (s.type !== 'ImportSpecifier') fail(`${s.type} from the entry is not supported`);
      return `${JSON.stringify(name(s.imported))}:${s.local.name}`;
    });
    out.overwrite(node.start, node.end, fields.length ? `const{${fields.join(',')}}=${shared};` : '');
  }
  for (const node of importExpressions(ast)) {
    if (node.source.type === 'Literal' && typeof node.source.value === 'string') out.overwrite(node.source.start, node.source.end, JSON.stringify(rename(node.source.value)));
    else if (node.source.type === 'TemplateLiteral' && !node.source.expressions.length) out.overwrite(node.source.start, node.source.end, JSON.stringify(rename(node.source.quasis[0].value.cooked)));
  }
  return out.toString();
}

/**
 * The script's own URL, read as it starts (`document.currentScript` is null later). Short, as each import() repeats it;
 * local to the wrapper, and checked against the minified code's own names (`classicScript`).
 */
const BASE = '$vawB';
/** How many times the entry's import() ran (each retry gets a URL of its own); short and checked as `BASE`. */
const TRIES = '$vawT';
/** The lazy chunks' URLs by chunk name (src/widget/controllers/conversation-loader.ts preloads the conversation's). */
const CHUNKS = '__voiceAgentWidgetChunks';
/** The chunks whose URL the entry knows by name, to preload at idle: the conversation's (not the labels' of a language). */
const PRELOADED = ['conversation-panel'];

/** Every `import()` in a program. */
function importExpressions(node, found = []) {
  if (Array.isArray(node)) for (const child of node) importExpressions(child, found);
  else if (node && typeof node === 'object') {
    if (node.type === 'ImportExpression') found.push(node);
    for (const [key, child] of Object.entries(node)) if (key !== 'type' && child && typeof child === 'object') importExpressions(child, found);
  }
  return found;
}

/** An Identifier's name or a string Literal's value (`export {a as "b"}`). */
function name(node) {
  return node.type === 'Identifier' ? node.name : String(node.value);
}

// The frameworks' types shipped with the package (issue 12 items 2 and 4): the fixtures of test/frameworks/types/ are
// type-checked by the project's TypeScript (vue-tsc for the .vue ones, svelte-check for the .svelte ones: the same
// TypeScript on templates) against the BUILT package (`npm run build` first): `voice-agent-widget/react` and the others
// resolve through package.json "exports" to dist/types/frameworks/, and nothing is skipped (`skipLibCheck: false`: the
// generated .d.ts files, the package's own and React's, Vue's, Solid's and Svelte's are all checked). A correct use has
// 0 errors; each WRONG fixture has exactly one error, which names its mistake. No network: only the project's
// node_modules. About 13 s on 2 cores (two checkers at a time).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = path.join(ROOT, 'test/frameworks/types');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const VUE_TSC = path.join(ROOT, 'node_modules/vue-tsc/bin/vue-tsc.js');
const SVELTE_CHECK = path.join(ROOT, 'node_modules/svelte-check/bin/svelte-check');

/** What a user's project would have: strict, nothing skipped. */
const BASE = {
  strict: true, skipLibCheck: false, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler',
  lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: [],
};

/**
 * Each fixture: null for a correct use (0 errors), else what its one error must say.
 * `"tiny"` inside a type: the union the class declares for `variant` (its members' order is TypeScript's).
 */
const EXPECTED = {
  'react-ok.tsx': null,
  'react-wrong-variant.tsx': /TS2322: Type 'number' is not assignable to type '[^']*"tiny"[^']*'/,
  'react-wrong-enum.tsx': /TS2322: Type '"middle"' is not assignable to type '[^']*"bottom-right"[^']*'/,
  'react-wrong-property.tsx': /Property 'dynamicVariable' does not exist on type .* Did you mean 'dynamicVariables'\?/s,
  'react-wrong-attribute.tsx': /'"dynamic-variables"' are incompatible.*Type '\{ a: number; \}' is not assignable to type 'string'/s,
  'react-wrong-object.tsx': /TS2322: Type '\{ id: number; \}' is not assignable to type 'string \| number \| boolean'/,
  'react-wrong-handler.tsx': /'"onvoice-agent-message"' are incompatible.*'\(event: MouseEvent\) => void' is not assignable/s,
  'react-wrong-detail.tsx': /TS2551: Property 'txt' does not exist on type '\{ source: [^}]*text: string;[^}]*\}'\. Did you mean 'text'\?/,
  'react-no-import.tsx': /TS2339: Property 'voice-agent-widget' does not exist on type 'JSX.IntrinsicElements'/,
  'vue-ok.ts': null,
  'vue-wrong-variant.ts': /TS2322: Type 'number' is not assignable to type '[^']*"tiny"[^']*'/,
  'vue-wrong-property.ts': /TS2561: .*'dynamicVariable' does not exist in type .* Did you mean to write 'dynamicVariables'\?/,
  'vue-template-ok.vue': null,
  'vue-template-wrong-variant.vue': /TS2322: Type 'number' is not assignable to type '[^']*"tiny"[^']*'/,
  'vue-template-wrong-property.vue': /TS2561: .*'dynamicVariable' does not exist in type .* Did you mean to write 'dynamicVariables'\?/,
  'vue-template-wrong-handler.vue': /'\(event: MouseEvent\) => void' is not assignable to type '\(e: CustomEvent<\{ source: [^}]*text: string;/,
  'solid-ok.tsx': null,
  'solid-wrong-variant.tsx': /TS2322: Type 'number' is not assignable to type '[^']*"tiny"[^']*'/,
  'solid-wrong-property.tsx': /Property 'prop:dynamicVariable' does not exist on type .* Did you mean '"prop:dynamicVariables"'\?/s,
  'svelte-ok.ts': null,
  'svelte-template-ok.svelte': null,
  'svelte-template-wrong-variant.svelte': /Type 'number' is not assignable to type '[^']*"tiny"[^']*'/,
  'svelte-template-wrong-handler.svelte': /'\(event: MouseEvent\) => void' is not assignable to type '\(e: CustomEvent<\{ source: [^}]*text: string;/,
  'svelte-wrong-variant.ts': /TS2322: Type 'number' is not assignable to type '[^']*"tiny"[^']*'/,
  'svelte-wrong-property.ts': /TS2561: .*'dynamicVariable' does not exist in type .* Did you mean to write 'dynamicVariables'\?/,
};

const fixtures = (prefix, ...but) => readdirSync(FIXTURES).filter((f) => f.startsWith(prefix) && !but.includes(f));

/** The programs: one tsconfig each (the types' augmentations are global within a program). */
const PROGRAMS = [
  { name: 'React 19 (moduleResolution bundler)', files: fixtures('react-', 'react-no-import.tsx'), options: { jsx: 'react-jsx' } },
  { name: 'React 19 (moduleResolution node16)', files: ['react-ok.tsx'], options: { jsx: 'react-jsx', module: 'Node16', moduleResolution: 'Node16' } },
  { name: 'React 19 without the import', files: ['react-no-import.tsx'], options: { jsx: 'react-jsx' } },
  {
    name: 'React 19 with tsconfig "types": ["voice-agent-widget/react"] instead of the import',
    files: ['react-no-import.tsx'], options: { jsx: 'react-jsx', types: ['voice-agent-widget/react'] }, expect: { 'react-no-import.tsx': null },
  },
  { name: 'Vue 3 (vue-tsc, strictTemplates)', files: fixtures('vue-'), options: {}, vue: { strictTemplates: true }, compiler: VUE_TSC },
  { name: 'Solid', files: fixtures('solid-'), options: { jsx: 'preserve', jsxImportSource: 'solid-js' } },
  { name: 'Svelte 5 (svelte/elements)', files: fixtures('svelte-', ...fixtures('svelte-template-')), options: {} },
  { name: 'Svelte 5 (svelte-check)', files: fixtures('svelte-template-'), options: {}, svelteCheck: true },
];

/**
 * tsc's `file(line,col): error TSnnnn: message` and its indented continuation lines, by absolute path (tsc prints paths
 * relative to its working directory, `cwd`); an error of no file is `(global)`.
 */
function parseErrors(output, cwd) {
  const errors = [];
  for (const line of output.split('\n')) {
    const match = /^(.+?)\(\d+,\d+\): error (TS\d+: .*)$/.exec(line);
    if (match) errors.push({ file: path.resolve(cwd, match[1]), message: match[2] });
    else if (/^\s+\S/.test(line) && errors.length) errors.at(-1).message += `\n${line.trim()}`;
    else if (/error TS\d+/.test(line)) errors.push({ file: '(global)', message: line });
  }
  return errors;
}

/**
 * svelte-check's `--output machine`: `<time> ERROR "file" line:col "message"` (the message JSON-quoted); files of the
 * workspace are reported as the fixtures they copy. Anything it could not run is an error of no fixture.
 */
function parseSvelteCheck(output, workspace) {
  const errors = [];
  let completed = false;
  for (const line of output.split('\n')) {
    const match = /^\d+ ERROR "(.+?)" \d+:\d+ (".*")$/.exec(line);
    if (match) errors.push({ file: path.join(FIXTURES, path.relative(workspace, path.resolve(workspace, match[1]))), message: JSON.parse(match[2]) });
    if (/^\d+ COMPLETED /.test(line)) completed = true;
  }
  if (!completed) errors.push({ file: '(svelte-check)', message: output });
  return errors;
}

describe('the frameworks\' types type-check against the built package', () => {
  let dir;
  /** Program name -> its errors, all programs checked at once (two at a time: a 2-core machine). */
  const results = new Map();

  before(async () => {
    assert.ok(existsSync(path.join(ROOT, 'dist/types/frameworks/react.d.ts')), 'dist/types/frameworks/ is missing: npm run build first');
    // A scratch project that has the package installed (a link to this one), as a user's has.
    dir = mkdtempSync(path.join(tmpdir(), 'vaw-types-'));
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(ROOT, path.join(dir, 'node_modules', 'voice-agent-widget'), 'dir');
    const exec = (args, cwd) => promisify(execFile)(process.execPath, args, { cwd, encoding: 'utf8' })
      .then(({ stdout }) => stdout, (error) => error.stdout || String(error));
    const run = async (program, index) => {
      if (program.svelteCheck) {
        // svelte-check checks the .svelte files of a folder (its "workspace"): a copy of the fixtures in a project that
        // has the package and svelte installed (links).
        const workspace = path.join(dir, 'svelte-check');
        mkdirSync(path.join(workspace, 'node_modules'), { recursive: true });
        symlinkSync(ROOT, path.join(workspace, 'node_modules', 'voice-agent-widget'), 'dir');
        symlinkSync(path.join(ROOT, 'node_modules/svelte'), path.join(workspace, 'node_modules', 'svelte'), 'dir');
        for (const file of program.files) copyFileSync(path.join(FIXTURES, file), path.join(workspace, file));
        writeFileSync(path.join(workspace, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...BASE, ...program.options }, include: ['*.svelte'] }));
        const output = await exec([SVELTE_CHECK, '--workspace', workspace, '--output', 'machine', '--threshold', 'error'], workspace);
        results.set(program.name, parseSvelteCheck(output, workspace));
        return;
      }
      const tsconfig = path.join(dir, `tsconfig.${index}.json`);
      writeFileSync(tsconfig, JSON.stringify({
        compilerOptions: { ...BASE, ...program.options },
        files: program.files.map((f) => path.join(FIXTURES, f)),
        ...(program.vue ? { vueCompilerOptions: program.vue } : {}),
      }, null, 2));
      results.set(program.name, parseErrors(await exec([program.compiler ?? TSC, '-p', tsconfig, '--pretty', 'false'], dir), dir));
    };
    const queue = PROGRAMS.map((program, index) => () => run(program, index));
    await Promise.all([0, 1].map(async () => { while (queue.length) await queue.shift()(); }));
  });
  after(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('has a fixture for every expectation and an expectation for every fixture', () => {
    assert.deepEqual(readdirSync(FIXTURES).sort(), Object.keys(EXPECTED).sort());
    const used = new Set(PROGRAMS.flatMap((p) => p.files));
    assert.deepEqual([...used].sort(), Object.keys(EXPECTED).sort(), 'every fixture is checked');
  });

  for (const program of PROGRAMS) {
    describe(program.name, () => {
      it('reports nothing outside the fixtures (the generated and shipped .d.ts files are correct TypeScript)', () => {
        const fixtureFiles = new Set(program.files.map((f) => path.join(FIXTURES, f)));
        assert.deepEqual(results.get(program.name).filter((e) => !fixtureFiles.has(e.file)), []);
      });
      for (const file of program.files) {
        const expected = program.expect && file in program.expect ? program.expect[file] : EXPECTED[file];
        it(expected ? `rejects ${file}` : `accepts ${file}`, () => {
          const errors = results.get(program.name).filter((e) => e.file === path.join(FIXTURES, file));
          if (!expected) return assert.deepEqual(errors.map((e) => e.message), [], `${file} compiles`);
          assert.equal(errors.length, 1, `${file} has exactly one error:\n${errors.map((e) => e.message).join('\n')}`);
          assert.match(errors[0].message, expected);
        });
      }
    });
  }
});

// Server rendering (issue 12 item 3): every entry of the package (package.json "exports") imports in Node, with no DOM,
// as a framework's server build imports it; nothing is registered and nothing throws. Against the built package (dist/,
// `npm run build` first): each entry is imported by its package name from a scratch folder that links the project in.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
/** Every importable entry: the package's exports with a JavaScript file (types-only subpaths left out). */
const entries = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target === 'string' ? target.endsWith('.js') : typeof target.import === 'string' || typeof target.default === 'string')
  .map(([subpath]) => (subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`));

describe('every entry imports in Node without a DOM', () => {
  let dir;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'vaw-node-'));
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(ROOT, path.join(dir, 'node_modules', pkg.name), 'dir');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lists the entries it checks', () => {
    assert.ok(entries.includes('voice-agent-widget') && entries.includes('voice-agent-widget/define.js') && entries.includes('voice-agent-widget/voice-agent-widget.js'), entries.join(', '));
  });

  for (const entry of entries) {
    it(`imports ${entry}`, () => {
      const script = `const m = await import(${JSON.stringify(entry)});
if (typeof document !== 'undefined' || typeof window !== 'undefined') throw new Error('a DOM appeared');
console.log(JSON.stringify({ exports: Object.keys(m).length, registered: globalThis.customElements?.get?.('voice-agent-widget') !== undefined }));`;
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' });
      const { registered } = JSON.parse(out.trim().split('\n').pop());
      assert.equal(registered, false, 'nothing is registered on a server');
    });
  }

  it('has the public API in the main entry (the class and the typed client)', () => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', `const m = await import('voice-agent-widget'); console.log(typeof m.VoiceAgentWidget, typeof m.fetchWidgetConfig)`], { cwd: dir, encoding: 'utf8' });
    assert.equal(out.trim(), 'function function');
  });
});

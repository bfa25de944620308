// npm run build: the script-tag bundle (IIFE), the ES module entries and the .d.ts types, into dist/; the custom
// elements manifest, custom-elements.json at the project root (npm run analyze); and from it the frameworks' types
// (React, Vue, Svelte, Solid) into dist/types/frameworks/ (scripts/build-framework-types.mjs).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit' });
run('npx', ['vite', 'build', '--mode', 'script', '--logLevel', 'warn']);
run('npx', ['vite', 'build', '--mode', 'es', '--logLevel', 'warn']);
run('node', ['scripts/build-worklets.mjs']);
run('npx', ['tsc', '-p', 'tsconfig.build.json']);
run('npm', ['run', '--silent', 'analyze']);
run('node', ['scripts/build-framework-types.mjs']);
console.log('built dist/voice-agent-widget.js, its worklets, dist/index.js, dist/define.js, dist/types/ (with frameworks/), custom-elements.json');

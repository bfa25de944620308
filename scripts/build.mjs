// npm run build: the script-tag bundle (IIFE), the ES module entries and the .d.ts types, into dist/; and the custom
// elements manifest, custom-elements.json at the project root (npm run analyze).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit' });
run('npx', ['vite', 'build', '--mode', 'script', '--logLevel', 'warn']);
run('npx', ['vite', 'build', '--mode', 'es', '--logLevel', 'warn']);
run('node', ['scripts/build-worklets.mjs']);
run('npx', ['tsc', '-p', 'tsconfig.build.json']);
run('npm', ['run', '--silent', 'analyze']);
console.log('built dist/voice-agent-widget.js, its worklets, dist/index.js, dist/define.js, dist/types/, custom-elements.json');

// npm run build: the script-tag bundle (IIFE), the ES module entries and the .d.ts types, into dist/.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit' });
run('npx', ['vite', 'build', '--mode', 'iife', '--logLevel', 'warn']);
run('npx', ['vite', 'build', '--mode', 'es', '--logLevel', 'warn']);
run('npx', ['tsc', '-p', 'tsconfig.build.json']);
console.log('built dist/voice-agent-widget.js, dist/index.js, dist/define.js, dist/types/');

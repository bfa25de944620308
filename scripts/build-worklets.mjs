// Writes the AudioWorklets beside the script-tag bundle, as files a page with a strict CSP can load (no `blob:`):
// dist/voice-agent-capture-worklet.js and dist/voice-agent-playback-worklet.js (WORKLET_FILES in
// src/audio/worklets.ts; their text by name: WORKLET_SOURCES in src/audio/worklet-files.ts). Their text is the same source the bundle holds (`captureWorkletSource`,
// `playbackWorkletSource`, built from src/audio with the bundle's minifier). Run by scripts/build.mjs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { build } from 'vite';

const result = await build({
  configFile: false,
  logLevel: 'warn',
  build: {
    write: false,
    target: 'es2022',
    minify: true,
    lib: { entry: 'src/audio/worklet-files.ts', formats: ['es'], fileName: () => 'worklet-files.js' },
    rolldownOptions: { output: { minify: true } },
  },
});
const code = [result].flat()[0].output[0].code;
const { WORKLET_SOURCES } = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
mkdirSync('dist', { recursive: true });
for (const [file, source] of Object.entries(WORKLET_SOURCES)) writeFileSync(`dist/${file}`, source);
console.log(`wrote ${Object.keys(WORKLET_SOURCES).map((f) => `dist/${f}`).join(', ')}`);

import { defineConfig } from 'vite';
import { minifyTemplateLiterals } from 'rollup-plugin-minify-template-literals';
import pkg from './package.json' with { type: 'json' };
import { classicEntry } from './scripts/classic-entry.mjs';

/** The script-tag build's first script: a classic script, the launcher and what it needs. */
const SCRIPT = 'voice-agent-widget.js';

/**
 * Two library builds (scripts/build.mjs runs both):
 * - `--mode script`: the script-tag build. dist/voice-agent-widget.js is a classic script for `<script src>` (registers
 *   the element, reads the configuration, paints the launcher); the conversation (panel, markdown, client, audio) is in
 *   `voice-agent-widget-*.js` ES module chunks beside it, loaded on intent (scripts/classic-entry.mjs);
 * - `--mode es` (default): dist/index.js (no side effects) and dist/define.js for npm users, dependencies left as imports;
 *   the conversation is a chunk of its own there too (the same `import()`), for the page's bundler to split.
 */
export default defineConfig(({ mode }) => {
  const script = mode === 'script';
  return {
    // Lit's html`` and css`` literals hold indentation and comments; minify them (src/ only).
    plugins: [
      { ...minifyTemplateLiterals({ include: ['src/**/*.ts'], failOnError: true }), enforce: 'pre' as const },
      ...(script ? [classicEntry(SCRIPT)] : []),
    ],
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir: 'dist',
      emptyOutDir: false,
      target: 'es2022',
      minify: true,
      sourcemap: !script,
      lib: script
        ? { entry: 'src/embed.ts', formats: ['es'], fileName: () => SCRIPT }
        : { entry: { index: 'src/index.ts', define: 'src/define.ts' }, formats: ['es'], fileName: (_format, name) => `${name}.js` },
      rolldownOptions: {
        // The entry may export what the lazy chunks share with it (Lit, config): they go into the first script, not into
        // a third, common chunk the launcher would have to wait for.
        ...(script ? { preserveEntrySignatures: 'allow-extension' as const } : {}),
        external: script ? [] : (id: string) => Object.keys(pkg.dependencies).some((dep) => id === dep || id.startsWith(`${dep}/`)),
        // The script-tag build is final (no bundler tree-shakes it again): its `@__PURE__` annotations are dead bytes
        // (24 in the first script, 190 in the conversation chunk). The npm build keeps them for the page's bundler.
        output: { minify: true, ...(script ? { chunkFileNames: 'voice-agent-widget-[name]-[hash].js', comments: { annotation: false } } : {}) },
      },
    },
  };
});

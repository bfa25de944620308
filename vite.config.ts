import { defineConfig } from 'vite';
import { minifyTemplateLiterals } from 'rollup-plugin-minify-template-literals';
import pkg from './package.json' with { type: 'json' };

/**
 * Two library builds (scripts/build.mjs runs both):
 * - `--mode iife`: dist/voice-agent-widget.js, ONE self-contained classic script for `<script src>` (registers the element);
 * - `--mode es` (default): dist/index.js (no side effects) and dist/define.js for npm users, dependencies left as imports.
 */
export default defineConfig(({ mode }) => {
  const iife = mode === 'iife';
  return {
    // Lit's html`` and css`` literals hold indentation and comments; minify them (src/ only).
    plugins: [{ ...minifyTemplateLiterals({ include: ['src/**/*.ts'], failOnError: true }), enforce: 'pre' as const }],
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir: 'dist',
      emptyOutDir: false,
      target: 'es2022',
      minify: true,
      sourcemap: !iife,
      lib: iife
        ? { entry: 'src/embed.ts', formats: ['iife'], name: 'VoiceAgentWidget', fileName: () => 'voice-agent-widget.js' }
        : { entry: { index: 'src/index.ts', define: 'src/define.ts' }, formats: ['es'], fileName: (_format, name) => `${name}.js` },
      rolldownOptions: {
        external: iife ? [] : (id: string) => Object.keys(pkg.dependencies).some((dep) => id === dep || id.startsWith(`${dep}/`)),
        output: { minify: true },
      },
    },
  };
});

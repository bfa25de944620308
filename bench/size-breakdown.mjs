// Which source files weigh what in the script-tag bundle: an esbuild metafile of the same entry, minified.
// Figures are minified bytes before gzip (gzip of the whole file is in bench/size.mjs).
import { build } from 'esbuild';

const result = await build({
  entryPoints: ['src/embed.ts'], bundle: true, minify: true, write: false, metafile: true, format: 'iife',
  target: 'es2022', tsconfig: 'tsconfig.json', define: { 'process.env.NODE_ENV': '"production"' },
});
const inputs = Object.values(result.metafile.outputs)[0].inputs;
const rows = Object.entries(inputs).map(([file, { bytesInOutput }]) => [bytesInOutput, file]).sort((a, b) => b[0] - a[0]);
for (const [bytes, file] of rows) if (bytes > 300) console.log(String(bytes).padStart(7), file);
const own = rows.filter(([, f]) => f.startsWith('src/')).reduce((sum, [b]) => sum + b, 0);
console.log(String(own).padStart(7), 'src/ in all (minified, not gzipped)');

// Which source files weigh what in the script-tag build: an esbuild metafile of the same entry, split the same way
// (the first script, then each chunk loaded on intent), minified. Figures are minified bytes before gzip (the gzipped
// files are in bench/size.mjs); esbuild's split differs from the build's (Vite/Rolldown) in detail, not in weight.
import { build } from 'esbuild';

const result = await build({
  entryPoints: ['src/embed.ts'], bundle: true, minify: true, write: false, metafile: true, format: 'esm', splitting: true,
  outdir: 'out', target: 'es2022', tsconfig: 'tsconfig.json', define: { 'process.env.NODE_ENV': '"production"' },
});
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  if (!file.endsWith('.js')) continue;
  const rows = Object.entries(output.inputs).map(([input, { bytesInOutput }]) => [bytesInOutput, input]).sort((a, b) => b[0] - a[0]);
  console.log(`${file}${file === 'out/embed.js' ? ' (the first script)' : output.entryPoint ? ' (loaded on intent)' : ' (shared: in the build, part of the first script)'}: ${output.bytes} B`);
  for (const [bytes, input] of rows) if (bytes > 300) console.log(String(bytes).padStart(7), input);
  const own = rows.filter(([, f]) => f.startsWith('src/')).reduce((sum, [b]) => sum + b, 0);
  console.log(String(own).padStart(7), 'src/ in all');
}

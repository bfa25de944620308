// The script-tag build's size against the budget (DEVELOPERS.md rule 5): dist/voice-agent-widget.js and its worklets,
// minified (as built) and gzipped with GNU gzip -9 (as the budget is measured). Run `npm run bench:size` (it builds first). Exits 1 over budget.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

/** GNU gzip -9, as the budget is measured (`gzip -9c FILE | wc -c`); node's zlib where gzip is missing (its sizes run ~1% larger). */
function gzipSize(file, source) {
  try {
    return execFileSync('gzip', ['-9c', file], { maxBuffer: 1 << 26 }).length;
  } catch {
    return gzipSync(source, { level: 9 }).length;
  }
}

const BUDGET_BYTES = 60 * 1024;
/** The script-tag build: the bundle and the worklet files written beside it (a voice call loads all three). */
const SCRIPT_TAG = ['dist/voice-agent-widget.js', 'dist/voice-agent-capture-worklet.js', 'dist/voice-agent-playback-worklet.js'];
const files = [...SCRIPT_TAG, 'dist/index.js', 'dist/define.js'];
let build = 0;
for (const file of files) {
  let source;
  try {
    source = readFileSync(file);
  } catch {
    console.error(`${file} is missing: run npm run build`);
    process.exit(1);
  }
  const gz = gzipSize(file, source);
  if (SCRIPT_TAG.includes(file)) build += gz;
  console.log(`${file.padEnd(38)} ${String(source.length).padStart(8)} B minified ${String(gz).padStart(7)} B gzip -9`);
}
const verdict = build <= BUDGET_BYTES ? 'within' : 'OVER';
console.log(`script-tag build (bundle + worklets): ${(build / 1024).toFixed(1)} KB gzipped of a ${BUDGET_BYTES / 1024} KB budget (${verdict}, ${BUDGET_BYTES - build} B left)`);
process.exit(build <= BUDGET_BYTES ? 0 : 1);

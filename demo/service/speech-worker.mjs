// The reference service's speech synthesis thread (speech.mjs `synthesize` runs eSpeak NG here): a synthesis takes
// some 350 ms of CPU for a reply of a few sentences, which on the service's own thread would hold every socket of the
// service for as long. The thread runs at a lower CPU priority (nice 10, Linux), so that on a machine it shares with
// the browser under test (the demo, the tests, the benchmarks) the browser's threads come first, as they would with a
// service on its own machine; where the priority cannot be set, it runs at the process's.
//
// Messages: in `{id, plain, voice}`; out `{id, sampleRate, samples}` (an Int16Array, its buffer transferred) or
// `{id, error}` (the message of what failed).
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { runEspeak } from './speech.mjs';

/** The nice value of the synthesis thread (0 is the default, 19 the lowest priority). */
const NICE = 10;

try {
  // Linux: /proc/thread-self names this thread's id, and setpriority on a thread id sets that thread's alone.
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, NICE);
} catch {
  // Not Linux, or not allowed: the thread keeps the process's priority.
}

parentPort?.on('message', async (/** @type {{id: number, plain: string, voice: string}} */ { id, plain, voice }) => {
  try {
    const { sampleRate, samples } = await runEspeak(plain, voice);
    parentPort?.postMessage({ id, sampleRate, samples }, [samples.buffer]);
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});

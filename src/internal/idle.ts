/**
 * Runs `run` once the browser is idle (`requestIdleCallback`, at the latest after `timeoutMs` ms), or in a task of its own
 * where there is no such call (Safari).
 * @returns what cancels the run (nothing once it has run). Never throws.
 */
export function whenIdle(run: () => void, timeoutMs: number): () => void {
  const idle = typeof requestIdleCallback === 'function';
  const handle = idle ? requestIdleCallback(run, { timeout: timeoutMs }) : setTimeout(run, 1);
  return () => (idle ? cancelIdleCallback(handle as number) : clearTimeout(handle));
}

/**
 * Runs `run` once the browser is idle (`requestIdleCallback`, at the latest after `timeoutMs` ms), or in a task of its own
 * where the pair `requestIdleCallback` / `cancelIdleCallback` is missing (Safari).
 * @returns what cancels the run (nothing once it has run). Never throws.
 */
export function whenIdle(run: () => void, timeoutMs: number): () => void {
  if (typeof requestIdleCallback == 'function' && typeof cancelIdleCallback == 'function') {
    // The cancel of the call that was asked (a page may replace either global later).
    const cancel = cancelIdleCallback;
    const handle = requestIdleCallback(run, { timeout: timeoutMs });
    return () => cancel(handle);
  }
  const timer = setTimeout(run, 1);
  return () => clearTimeout(timer);
}

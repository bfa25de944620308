/** Summaries of measured series for the audio benchmark pages (bench/audio-page.ts, bench/audio-widget-page.ts). */

/** Summary of a series of measurements (ms). */
export interface Stats {
  n: number;
  median: number;
  mean: number;
  p90: number;
  min: number;
  max: number;
}

/** Median, mean, p90 (nearest rank), min and max of `values`; NaN for all but `n` when there are none. */
export function stats(values: number[]): Stats {
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  if (!n) return { n: 0, median: NaN, mean: NaN, p90: NaN, min: NaN, max: NaN };
  const median = n % 2 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2;
  const p90 = s[Math.min(n - 1, Math.ceil(0.9 * n) - 1)];
  return { n, median, mean: s.reduce((sum, v) => sum + v, 0) / n, p90, min: s[0], max: s[n - 1] };
}

/**
 * Runs a benchmark page's `run` and leaves its outcome where bench/audio.mjs reads it: `window.__results`, then
 * `window.__done = true`; a failure sets `window.__error` (message and stack) instead of the results.
 */
export function publish(run: () => Promise<unknown>): void {
  const outcome = window as unknown as { __results?: unknown; __done?: boolean; __error?: string };
  run().then(
    (results) => {
      outcome.__results = results;
      outcome.__done = true;
    },
    (error) => {
      outcome.__error = error instanceof Error ? `${error.message}\n${error.stack}` : String(error);
      outcome.__done = true;
    },
  );
}

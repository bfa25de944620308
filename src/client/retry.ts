/**
 * The retry policy of the configuration read (PROTOCOL.md section 2): pure, no timers of its own. A read that failed
 * in a way time may mend is tried again after an exponential backoff with full jitter; anything else is final.
 */
import { ServiceHttpError, ServiceNetworkError } from './errors.js';

/** How many times a read is made in all (the first and the retries). */
export const READ_TRIES = 4;
/** The backoff's first and largest ceiling, in ms: tries wait up to 300, 600, 1200 ms (never more than 5000). */
export const RETRY_BASE_MS = 300;
export const RETRY_MAX_MS = 5000;

/**
 * True when time may mend the failure: no answer (network down, timeout: `ServiceNetworkError`), HTTP 5xx, 408
 * (request timeout) or 429 (too many requests). False for any other 4xx (the request itself is wrong: an unknown agent,
 * a bad signature) and for a 2xx answer that is not the documented shape.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof ServiceNetworkError) return true;
  return error instanceof ServiceHttpError && (error.status >= 500 || error.status === 408 || error.status === 429);
}

/**
 * How long to wait before retry number `retry` (0 for the first retry), in ms: a uniform draw from
 * [0, min(RETRY_MAX_MS, RETRY_BASE_MS · 2^retry)] ("full jitter": many widgets never retry in step).
 * @param random a uniform draw in [0, 1), injectable for tests
 */
export function retryDelay(retry: number, random: () => number = Math.random): number {
  return Math.round(random() * Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** retry));
}

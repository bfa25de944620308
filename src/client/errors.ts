/**
 * Typed errors of the client. Each carries what a caller needs to tell the visitor and the developer
 * what happened: the HTTP status and body `detail`, or the socket close code.
 */

/** One entry of an HTTPValidationError body's `detail` (SERVICE-INTERFACE.md section 7). */
export interface ValidationDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/**
 * The service answered with a non-2xx status. `detail` is the body's `detail`: a string, an object with a `message`,
 * or for a 422 the list of `ValidationDetail`s (SERVICE-INTERFACE.md section 7).
 */
export class ServiceHttpError extends Error {
  override name = 'ServiceHttpError';
  constructor(readonly status: number, readonly url: string, readonly detail: unknown) {
    const d = detail as { message?: unknown; msg?: unknown }[] & { message?: unknown };
    const text = typeof detail === 'string' ? detail : d?.message ?? d?.[0]?.msg;
    super(`${url} answered HTTP ${status}${typeof text === 'string' ? `: ${text.slice(0, 200)}` : ''}`);
  }
}

/** The request could not be made or had no answer in time (network down, CORS refused, timeout: `timedOut`). */
export class ServiceNetworkError extends Error {
  override name = 'ServiceNetworkError';
  constructor(readonly url: string, message: string, readonly timedOut = false) {
    super(`${url}: ${message}`);
  }
}

/** The service answered 2xx with a body that is not what SERVICE-INTERFACE.md says (invalid JSON, wrong shape). */
export class ServiceResponseError extends Error {
  override name = 'ServiceResponseError';
  constructor(readonly url: string, message: string) {
    super(`${url}: ${message}`);
  }
}

/**
 * The conversation socket failed: it could not open, closed with a code other than 1000, or no handshake came in
 * time (PROTOCOL.md section 3). `code` is the close code when there was one.
 */
export class ConversationError extends Error {
  override name = 'ConversationError';
  constructor(message: string, readonly code: number | null = null, readonly reason = '') {
    super(message);
  }
}

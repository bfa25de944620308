/**
 * Typed errors of the client. Each carries what a caller needs to tell the visitor and the developer
 * what happened: the HTTP status, the validation detail, or the socket close code.
 */

/** One entry of an HTTPValidationError body (SERVICE-INTERFACE.md section 7). */
export interface ValidationDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** The service answered with a non-2xx status. `detail` is the body's `detail` (string, object or validation list). */
export class ServiceHttpError extends Error {
  override name = 'ServiceHttpError';
  constructor(readonly status: number, readonly url: string, readonly detail: unknown) {
    super(`${url} answered HTTP ${status}${describeDetail(detail)}`);
  }
  /** The validation entries of a 422, else an empty list. */
  get validation(): ValidationDetail[] {
    return Array.isArray(this.detail)
      ? this.detail.filter((d): d is ValidationDetail => typeof d === 'object' && d !== null && Array.isArray(d.loc) && typeof d.msg === 'string')
      : [];
  }
}

/** The request could not be made or had no answer in time (network down, CORS refused, timeout). */
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
 * The conversation socket failed: it could not open, closed with a code other than 1000, or the service sent
 * an `error` message (PROTOCOL.md section 3). `code` is the close code or the error message's code.
 */
export class ConversationError extends Error {
  override name = 'ConversationError';
  constructor(message: string, readonly code: number | null = null, readonly reason = '') {
    super(message);
  }
}

function describeDetail(detail: unknown): string {
  if (typeof detail === 'string') return `: ${detail.slice(0, 200)}`;
  if (detail && typeof detail === 'object' && 'message' in detail && typeof detail.message === 'string') return `: ${detail.message.slice(0, 200)}`;
  if (Array.isArray(detail) && detail[0] && typeof detail[0].msg === 'string') return `: ${detail[0].msg}`;
  return '';
}

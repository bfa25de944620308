import { expect } from '@open-wc/testing';
import { ServiceHttpError, ServiceNetworkError, ServiceResponseError } from '../../../src/client/errors.js';
import { RETRY_BASE_MS, RETRY_MAX_MS, isTransient, retryDelay } from '../../../src/client/retry.js';

describe('retry policy of the configuration read', () => {
  it('retries what time may mend: no answer, a timeout, 5xx, 408 and 429; nothing else', () => {
    const http = (status: number) => new ServiceHttpError(status, 'http://s/x', 'detail');
    expect(isTransient(new ServiceNetworkError('http://s/x', 'offline'))).to.equal(true);
    expect(isTransient(new ServiceNetworkError('http://s/x', 'no answer in 10000 ms', true))).to.equal(true);
    expect([500, 502, 503, 504, 408, 429].map((status) => isTransient(http(status)))).to.deep.equal([true, true, true, true, true, true]);
    expect([400, 401, 403, 404, 422].map((status) => isTransient(http(status)))).to.deep.equal([false, false, false, false, false]);
    expect(isTransient(new ServiceResponseError('http://s/x', 'not JSON'))).to.equal(false);
    expect(isTransient(new Error('anything else'))).to.equal(false);
  });

  it('waits a full-jitter exponential backoff: within [0, base·2^n], capped', () => {
    expect([0, 1, 2].map((n) => retryDelay(n, () => 0.999999))).to.deep.equal([RETRY_BASE_MS, 2 * RETRY_BASE_MS, 4 * RETRY_BASE_MS]);
    expect(retryDelay(2, () => 0)).to.equal(0);
    expect(retryDelay(2, () => 0.5)).to.equal(2 * RETRY_BASE_MS);
    expect(retryDelay(20, () => 0.999999), 'capped').to.equal(RETRY_MAX_MS);
    const draws = Array.from({ length: 200 }, () => retryDelay(1));
    expect(Math.min(...draws)).to.be.at.least(0);
    expect(Math.max(...draws)).to.be.at.most(2 * RETRY_BASE_MS);
    expect(new Set(draws).size, 'jittered, not one fixed delay').to.be.greaterThan(10);
  });
});

import { isRecord } from '../internal/record.js';
import type { WidgetConfigResponse } from '../config/types.js';
import { ServiceHttpError, ServiceNetworkError, ServiceResponseError } from './errors.js';
import { widgetConfigPath } from './paths.js';

/** The `fetch` the client uses; injectable for unit tests (DESIGN.md rule 11). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Options of every REST call. `timeoutMs` defaults to 10000 ms. */
export interface RequestOptions {
  fetch?: FetchLike;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * One JSON request to the service, without cookies (`credentials: 'omit'`), aborted by `options.signal` or after
 * `timeoutMs`; shared by the configuration read and the feedback post (feedback.ts).
 * @returns the parsed body, undefined when empty
 * @throws ServiceHttpError (non-2xx), ServiceNetworkError (unreachable, timeout), ServiceResponseError (2xx, not JSON);
 *   the signal's reason when `options.signal` aborted
 */
export async function requestJson(url: string, init: RequestInit, options: RequestOptions): Promise<unknown> {
  const doFetch = options.fetch ?? ((input: string, requestInit?: RequestInit) => globalThis.fetch(input, requestInit));
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await doFetch(url, { ...init, signal, credentials: 'omit' });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason ?? error;
    const timedOut = timeout.aborted;
    throw new ServiceNetworkError(url, timedOut ? `no answer in ${options.timeoutMs ?? 10000} ms` : `request failed (${(error as Error)?.message ?? error})`, timedOut);
  }
  const text = await response.text().catch(() => '');
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      if (response.ok) throw new ServiceResponseError(url, 'the body is not JSON');
    }
  }
  if (!response.ok) throw new ServiceHttpError(response.status, url, isRecord(body) ? body['detail'] : text.slice(0, 200));
  return body;
}

/**
 * Reads an agent's public widget configuration: `GET {serverUrl}/v1/convai/agents/{agentId}/widget`
 * (SERVICE-INTERFACE.md 2.11 and 4.2; PROTOCOL.md section 2). No API key is sent.
 * @returns `{agent_id, widget_config}`; `widget_config` is still untrusted (see `resolveWidgetConfig`).
 * @throws ServiceHttpError (404 unknown agent, …), ServiceNetworkError (unreachable, timeout), ServiceResponseError (not JSON, wrong shape)
 */
export async function fetchWidgetConfig(
  serverUrl: string,
  agentId: string,
  options: RequestOptions & { conversationSignature?: string } = {},
): Promise<WidgetConfigResponse> {
  const query = options.conversationSignature ? `?conversation_signature=${encodeURIComponent(options.conversationSignature)}` : '';
  const url = serverUrl + widgetConfigPath(agentId) + query;
  const body = await requestJson(url, { method: 'GET' }, options);
  if (!isRecord(body) || !isRecord(body['widget_config'])) throw new ServiceResponseError(url, 'expected {agent_id, widget_config: {...}}');
  return { agent_id: typeof body['agent_id'] === 'string' ? body['agent_id'] : agentId, widget_config: body['widget_config'] };
}

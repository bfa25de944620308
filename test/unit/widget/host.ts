/**
 * Test doubles for the widget's controllers: a small LitElement host, a scripted `fetch` and a scripted `WebSocket`
 * (DESIGN.md rule 11: unit tests fake the network; the integration tests use the real service).
 */
import { fixture } from '@open-wc/testing';
import { LitElement, nothing } from 'lit';
import type { FetchLike } from '../../../src/client/rest.js';

/** A bare host for controllers: renders what `content` returns (nothing by default) into its shadow root. */
export class TestHost extends LitElement {
  content: () => unknown = () => nothing;
  override render(): unknown {
    return this.content();
  }
}
if (!customElements.get('test-controller-host')) customElements.define('test-controller-host', TestHost);

/**
 * Creates a host, lets `setup` add its controllers (and set `content`) before the host connects, then mounts it as the
 * test's one fixture and waits for its first update.
 */
export async function mountHost<T>(setup: (host: TestHost) => T): Promise<{ host: TestHost; made: T }> {
  const host = document.createElement('test-controller-host') as TestHost;
  const made = setup(host);
  await fixture(host);
  return { host, made };
}

/** Removes `host` from the page (its controllers' `hostDisconnected` run) and gives back a function that puts it back. */
export function detach(host: TestHost): () => Promise<void> {
  const parent = host.parentElement!;
  host.remove();
  return async () => {
    parent.append(host);
    await host.updateComplete;
  };
}

/** One request made through `FakeFetch.fetch`, answered when the test says so. */
export interface FetchCall {
  url: string;
  init: RequestInit | undefined;
  /** The request's signal, as the client passed it (the caller's abort combined with the timeout). */
  signal: AbortSignal;
  /** Answers with `status` and `body` (JSON unless a string). */
  respond(status: number, body?: unknown): void;
}

/** A scripted `fetch`: records each request; each stays pending until the test calls `respond` on it. */
export class FakeFetch {
  readonly calls: FetchCall[] = [];

  /**
   * @param honourAbort when true (the default) an aborted request rejects with an AbortError, as the browser's does;
   *   when false it is still answered by `respond`, to check that a late answer of an aborted request is dropped
   */
  constructor(private readonly honourAbort = true) {}

  readonly fetch: FetchLike = (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const signal = init?.signal ?? new AbortController().signal;
      const respond = (status: number, body: unknown = {}): void =>
        resolve(new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
      if (this.honourAbort) signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      this.calls.push({ url, init, signal, respond });
    });

  /** The latest request. */
  get last(): FetchCall {
    const call = this.calls.at(-1);
    if (!call) throw new Error('no request was made');
    return call;
  }
}

export { FakeSocket } from '../fake-socket.js';

/** The service's handshake (PROTOCOL.md section 3) for conversation `conversationId`. */
export const metadata = (conversationId: string): unknown => ({
  type: 'conversation_initiation_metadata',
  conversation_initiation_metadata_event: { conversation_id: conversationId, agent_output_audio_format: 'pcm_16000', user_input_audio_format: 'pcm_16000' },
});

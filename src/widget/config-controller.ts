import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { fetchWidgetConfig } from '../client/rest.js';
import * as log from './console.js';

/** Status of the configuration read, in the style of `@lit/task` (DESIGN.md rule 5). */
export type ConfigStatus = 'idle' | 'loading' | 'ready' | 'error';

/**
 * Reads one agent's widget configuration (PROTOCOL.md section 2) and keeps it as the service sent it (`raw`, still
 * untrusted: the element validates it together with its attributes). One AbortController per run; a newer run or
 * the element leaving the page aborts the older one.
 */
export class ConfigController implements ReactiveController {
  status: ConfigStatus = 'idle';
  raw: unknown = null;
  #abort: AbortController | null = null;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.#abort?.abort();
    this.#abort = null;
    if (this.status === 'loading') this.status = 'idle';
  }

  /** Starts a read; resolves when it settled (never rejects). */
  async load(serverUrl: string, agentId: string, conversationSignature?: string): Promise<void> {
    this.#abort?.abort();
    const abort = (this.#abort = new AbortController());
    this.status = 'loading';
    this.host.requestUpdate();
    try {
      const response = await fetchWidgetConfig(serverUrl, agentId, { signal: abort.signal, ...(conversationSignature ? { conversationSignature } : {}) });
      if (abort.signal.aborted) return;
      this.raw = response.widget_config;
      this.status = 'ready';
    } catch (error) {
      if (abort.signal.aborted) return;
      this.status = 'error';
      log.error(`could not read the widget configuration of agent "${agentId}" from ${serverUrl}: ${(error as Error).message}`, error);
    } finally {
      if (this.#abort === abort) this.#abort = null;
    }
    this.host.requestUpdate();
  }
}

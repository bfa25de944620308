import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { clearContinuation, continuationKey, readContinuation, writeContinuation, type ContinuedMessage } from '../../client/continuation.js';
import type { ServiceEndpoint } from '../../client/paths.js';
import type { ConversationController } from './conversation.js';
import { whenGone } from './presence.js';

/** The continuation keys held by an element of this page: one element restores and keeps each (server, agent). */
const held = new Set<string>();

/** What the continuation reads of the panel, and how it shows a restored one. */
export interface ContinuationSources {
  conversation: ConversationController;
  /** The panel as the visitor has it now: open, expanded, and whether a voice call is under way. */
  panel: () => { open: boolean; expanded: boolean; call: boolean };
  /** Shows the panel as a restored continuation had it: open (expanded or not). */
  show: (expanded: boolean) => void;
}

/**
 * Keeps one element's conversation across the pages of a visit (issue 21; the store is src/client/continuation.ts):
 * once the element knows its (server, agent), it holds that key for the page (a second element of the same agent on the
 * page neither restores nor keeps it), restores what an earlier page kept (the transcript, then the panel open or
 * expanded as it was), and from the first conversation on writes what changed after each update. A conversation the
 * visitor or the agent ended is forgotten. The element leaving the page (not moved in it) lets the key go, so the
 * element a framework mounts in its place restores it.
 */
export class ContinuationController implements ReactiveController {
  /** The key this element holds, or null. */
  #key: string | null = null;
  /** What was written last (a fingerprint of it), so an update that changed nothing writes nothing. */
  #written = '';
  /**
   * A call was on at the last write. It stays so through the call's end by an error: a page being left closes the
   * socket before it goes (Firefox, after `beforeunload`), and the next page must still say that the call ended then.
   */
  #call = false;

  constructor(private readonly host: ReactiveControllerHost & { readonly isConnected: boolean }, private readonly sources: ContinuationSources) {
    host.addController(this);
  }

  /**
   * Takes the key of `endpoint`'s (server, agent) when no element of the page holds it, and restores its continuation
   * into the conversation (once: a conversation shown or run here already is never replaced). Called before each update
   * of the element while it is in the page.
   */
  use(endpoint: ServiceEndpoint): void {
    const key = continuationKey(endpoint.serverUrl, endpoint.agentId);
    // An element that left may still update once (its conversation ending): it takes no key.
    if (key === this.#key || !this.host.isConnected) return;
    this.#release();
    if (held.has(key)) return;
    held.add(key);
    this.#key = key;
    this.#written = '';
    const kept = readContinuation(key);
    if (kept && this.sources.conversation.restore(kept) && kept.open) this.sources.show(kept.expanded);
  }

  /** Writes the conversation as it stands when it changed (complete messages only), or forgets it once it was ended. */
  hostUpdated(): void {
    const key = this.#key;
    const conversation = this.sources.conversation;
    if (!key || (conversation.status === 'idle' && !conversation.continued)) return;
    if (conversation.status === 'ended' && conversation.endReason !== 'error') {
      if (this.#written !== 'ended') clearContinuation(key);
      this.#written = 'ended';
      return;
    }
    const panel = this.sources.panel();
    const { open, expanded } = panel;
    // A restored call that ended as the page changed stays told until the visitor goes on.
    const restoredCall = conversation.status === 'idle' && !!conversation.continued?.call;
    const call = (this.#call = panel.call || restoredCall || (this.#call && conversation.status === 'ended'));
    const transcript = conversation.transcript;
    const last = transcript.at(-1);
    const conversationId = conversation.conversationId ?? conversation.continued?.conversationId ?? null;
    const fingerprint = `${transcript.length} ${last?.streaming} ${last?.text.length} ${open} ${expanded} ${call} ${conversationId}`;
    if (fingerprint === this.#written) return;
    this.#written = fingerprint;
    const messages: ContinuedMessage[] = [];
    for (const entry of transcript) {
      if ((entry.role === 'agent' || entry.role === 'user') && !entry.streaming && entry.text) messages.push({ role: entry.role, text: entry.text });
    }
    writeContinuation(key, { conversationId, open, expanded, mode: call ? 'voice' : 'text', call, updatedAt: Date.now(), messages });
  }

  /** The element left the page (not moved in it, see `whenGone`): the key goes, what was written stays for the next. */
  hostDisconnected(): void {
    whenGone(this.host, () => this.#release());
  }

  #release(): void {
    if (this.#key) held.delete(this.#key);
    this.#key = null;
  }
}

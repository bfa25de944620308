import type { EndReason } from '../client/session.js';

/**
 * `voice-agent-conversation-end`: the conversation ended, by the visitor (`user`), the agent (`agent`, socket
 * closed with 1000) or a failure (`error`, with the close code when there was one). PROTOCOL.md section 3.
 * Dispatched from the host, `bubbles` and `composed` (DESIGN.md rule 7).
 */
export class VoiceAgentConversationEndEvent extends Event {
  /**
   * @param detail `conversationId` (null when the handshake never came), `reason`, the close `code` (null when none
   * came) and the failure's `message` (null unless `reason` is `error`)
   */
  constructor(readonly detail: { conversationId: string | null; reason: EndReason; code: number | null; message: string | null }) {
    super('voice-agent-conversation-end', { bubbles: true, composed: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    'voice-agent-conversation-end': VoiceAgentConversationEndEvent;
  }
}

/**
 * `voice-agent-conversation`: a conversation started; the handshake is done (PROTOCOL.md section 3,
 * `conversation_initiation_metadata`). Dispatched from the host, `bubbles` and `composed` (DESIGN.md rule 7).
 */
export class VoiceAgentConversationEvent extends Event {
  /** @param detail `conversationId`: the service's id of the conversation */
  constructor(readonly detail: { conversationId: string }) {
    super('voice-agent-conversation', { bubbles: true, composed: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    'voice-agent-conversation': VoiceAgentConversationEvent;
  }
}

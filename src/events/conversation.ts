/**
 * `voice-agent-conversation`: a conversation started; the handshake is done (PROTOCOL.md section 3,
 * `conversation_initiation_metadata`). Dispatched from the host, `bubbles` and `composed` (DESIGN.md rule 7).
 */
export class VoiceAgentConversationEvent extends Event {
  /**
   * @param detail `conversationId`: the service's id of the conversation; `previousConversationId`: the id of the
   * earlier conversation of this visit that it continues (kept across a page load, issue 21: the agent was told its
   * turns in a `contextual_update`), else null
   */
  constructor(readonly detail: { conversationId: string; previousConversationId: string | null }) {
    super('voice-agent-conversation', { bubbles: true, composed: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    'voice-agent-conversation': VoiceAgentConversationEvent;
  }
}

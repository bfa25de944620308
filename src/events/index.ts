/**
 * Public DOM events of `<voice-agent-widget>` (DESIGN.md rule 7): typed `Event` subclasses, one prefix
 * (`voice-agent-`), dispatched from the host with `bubbles` and `composed`. None fires because code set a property.
 */
import type { EndReason } from '../client/session.js';

/** `voice-agent-conversation`: a conversation started; the handshake is done (PROTOCOL.md section 3). */
export class VoiceAgentConversationEvent extends Event {
  constructor(readonly detail: { conversationId: string }) {
    super('voice-agent-conversation', { bubbles: true, composed: true });
  }
}

/**
 * `voice-agent-conversation-end`: the conversation ended, by the visitor (`user`), the agent (`agent`, socket
 * closed with 1000) or a failure (`error`, with the close code when there was one). PROTOCOL.md section 3.
 */
export class VoiceAgentConversationEndEvent extends Event {
  constructor(readonly detail: { conversationId: string | null; reason: EndReason; code: number | null; message: string | null }) {
    super('voice-agent-conversation-end', { bubbles: true, composed: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    'voice-agent-conversation': VoiceAgentConversationEvent;
    'voice-agent-conversation-end': VoiceAgentConversationEndEvent;
  }
}

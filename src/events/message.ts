/**
 * `voice-agent-message`: a whole message of the conversation (PROTOCOL.md section 3): the agent's (`agent_response`,
 * once streamed in full), a correction of one (`agent_response_correction`: `correction` true, same `eventId`), or the
 * visitor's (typed, or heard: `user_transcript`). Dispatched from the host, `bubbles` and `composed` (DESIGN.md rule 7).
 */
export class VoiceAgentMessageEvent extends Event {
  /** @param detail `source` of the message, its `text` (agent text is markdown), the turn's `eventId` (null for typed text) */
  constructor(readonly detail: { source: 'agent' | 'user'; text: string; eventId: number | null; correction: boolean }) {
    super('voice-agent-message', { bubbles: true, composed: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    'voice-agent-message': VoiceAgentMessageEvent;
  }
}

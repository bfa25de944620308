import type { AudioTurnState } from '../audio/audio-controller.js';
import type { SessionStatus } from '../client/session.js';

/**
 * `voice-agent-status`: the conversation's status changed (PROTOCOL.md section 3): `connecting`, `connected` or
 * `ended`, and in a voice call whose turn it is (`listening`, `speaking` while the agent's audio plays; null in text).
 * Dispatched from the host, `bubbles` and `composed` (DESIGN.md rule 7).
 */
export class VoiceAgentStatusEvent extends Event {
  /** @param detail `status` of the session; `turn` of a voice call, or null */
  constructor(readonly detail: { status: SessionStatus; turn: AudioTurnState | null }) {
    super('voice-agent-status', { bubbles: true, composed: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    'voice-agent-status': VoiceAgentStatusEvent;
  }
}

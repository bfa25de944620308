/**
 * Why something failed, as `voice-agent-error` names it: `config` (the configuration could not be read, after its
 * retries), `attributes` (unusable attributes), `conversation` (the socket failed, closed with an error, or went
 * silent), `service` (an `error` message of the service; `serviceCode` holds its code), `client-tool` (a client tool
 * failed, timed out or is unknown), `load` (the conversation part of the script-tag build could not be loaded), and the
 * voice failures `microphone-denied`, `no-microphone`, `microphone-lost`, `audio-blocked`, `output-lost`, `audio`.
 */
export type VoiceAgentErrorCode =
  | 'config' | 'attributes' | 'conversation' | 'service' | 'client-tool' | 'load'
  | 'microphone-denied' | 'microphone-blocked' | 'microphone-in-use' | 'insecure-page' | 'no-microphone' | 'microphone-lost' | 'audio-blocked'
  | 'output-lost' | 'audio';

/**
 * `voice-agent-error`: something failed; the same words as the console's. Dispatched from the host, `bubbles` and
 * `composed` (DESIGN.md rule 7).
 */
export class VoiceAgentErrorEvent extends Event {
  /** @param detail the cause `code`, the `message`, and the service's own code for `service` errors (else null) */
  constructor(readonly detail: { code: VoiceAgentErrorCode; message: string; serviceCode: number | null }) {
    super('voice-agent-error', { bubbles: true, composed: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    'voice-agent-error': VoiceAgentErrorEvent;
  }
}

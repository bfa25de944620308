import type { ConversationConfigOverride } from '../client/protocol.js';
import type { DynamicVariables } from '../config/attributes.js';

/** A client tool (PROTOCOL.md section 3, `client_tool_call`): resolves to the result (sent as text), throws or rejects for an error. */
export type ClientTool = (parameters: Record<string, unknown>) => unknown;

/** What `voice-agent-before-start` lets the page change before a conversation opens. */
export interface BeforeStartDetail {
  /** `voice` for a call, `text` for a text conversation. */
  readonly mode: 'voice' | 'text';
  /** The dynamic variables to send (initiation `dynamic_variables`): add, change or delete entries. */
  dynamicVariables: DynamicVariables;
  /** The conversation overrides to send (initiation `conversation_config_override`, SERVICE-INTERFACE.md 2.8). */
  overrides: ConversationConfigOverride;
  /** Client tools for this conversation, by name, added to those of `clientTools` / `registerClientTool`. */
  clientTools: Record<string, ClientTool>;
}

/**
 * `voice-agent-before-start`: a conversation is about to open (PROTOCOL.md section 3, the initiation). Cancelable:
 * `preventDefault()` starts nothing and sends nothing. Its `detail` may be changed: dynamic variables, overrides and
 * client tools; values that are not of the documented kinds are reported in the console and left out.
 * Dispatched from the host, `bubbles` and `composed` (DESIGN.md rule 7).
 */
export class VoiceAgentBeforeStartEvent extends Event {
  constructor(readonly detail: BeforeStartDetail) {
    super('voice-agent-before-start', { bubbles: true, composed: true, cancelable: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    'voice-agent-before-start': VoiceAgentBeforeStartEvent;
  }
}

/**
 * The launcher's side of a conversation's continuation (issue 21, src/client/continuation.ts): whether this tab keeps a
 * conversation of an earlier page, so that the conversation part loads at once to show it (not at idle).
 */

/** Every `sessionStorage` key of a continuation, of every version, starts with this. */
export const CONTINUATION_FAMILY = 'voice-agent-widget:conversation:';

/** True when this tab's sessionStorage holds a continuation of any (server, agent). Never throws (no storage: false). */
export function hasKeptConversation(): boolean {
  try {
    return Object.keys(sessionStorage).some((key) => key.startsWith(CONTINUATION_FAMILY));
  } catch {
    return false;
  }
}

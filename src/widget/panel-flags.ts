/**
 * What the conversation panel offers, derived in one place (DESIGN.md: derived values are computed from their
 * source, not copied): a pure function of the configuration (PROTOCOL.md section 2), the conversation's state (the
 * session's, section 3) and the voice call's. The panel renders from it, and its public methods check a mode with it.
 */
import type { AudioTurnState } from '../audio/audio-controller.js';
import type { SessionStatus } from '../client/session.js';
import type { PanelLabels } from '../config/panel-labels.js';
import type { WidgetConfig } from '../config/types.js';
import type { VoiceState } from './controllers/voice.js';

/** The conversation's state as the panel reads it (the conversation controller's, from its session). */
export interface ConversationFacts {
  status: SessionStatus;
  /** A conversation is starting or running. */
  active: boolean;
  /** The conversation of an earlier page shown (issue 21): `call` when its voice call ended as the page changed. */
  continued?: { call: boolean } | null;
}

/** The voice call's state as the panel reads it (the voice controller's). */
export interface VoiceFacts {
  state: VoiceState;
  /** The call is switched to text. */
  textMode: boolean;
  turn: AudioTurnState;
  /** The visitor muted the microphone. */
  muted: boolean;
}

/** What the panel shows and offers. */
export interface PanelFlags {
  /** The agent takes text conversations (`text_only` or `supports_text_only`). */
  textAllowed: boolean;
  /** The agent takes voice calls (not `text_only`). */
  voiceAllowed: boolean;
  /** The mode of a start that names none: text where the agent takes it, else voice. */
  defaultMode: 'text' | 'voice';
  /** The panel is always shown: no collapse button, Escape does not close it (`always_expanded`). */
  alwaysExpanded: boolean;
  /** A voice call is under way (asking for the microphone counts). */
  call: boolean;
  /** A conversation is starting or running, or a call is under way: the end button instead of the start buttons. */
  active: boolean;
  /** The last conversation ended: the call button says `new_call`, the input `input_placeholder_new_conversation`. */
  ended: boolean;
  /** The text input is offered: `text_input_enabled`, and the agent takes text or a call runs (to type into it). */
  composer: boolean;
  /** The input's placeholder label. */
  placeholder: 'input_placeholder' | 'input_placeholder_text_only' | 'input_placeholder_new_conversation';
  /** The status line's label (`statusLabel`), or null for none. */
  status: keyof PanelLabels | null;
  /** The call's orb stands in place of the transcript (`transcript_enabled` false during a call). */
  orb: boolean;
}

/**
 * Which label the status line shows (PROTOCOL.md section 3): `connecting_status` while the conversation (or a call's
 * microphone and audio) is being opened; once connected, in a voice call `speaking_status` while the agent's audio
 * plays and `listening_status` otherwise (`microphone_muted` while the visitor muted the microphone: a screen reader
 * hears the mute and the unmute through the status region, issue 20), in text `chatting_status`; nothing before and
 * after.
 * @param turn the call's turn, or null when no voice call runs (or it is switched to text)
 * @param call a voice call is under way (asking for the microphone counts)
 * @param starting the call's audio does not run yet (the conversation may be connected already): `listening_status`
 *   would invite words the microphone does not send yet (Firefox ESR on an idle PulseAudio null sink loaded the audio
 *   worklets for 1.8 to 3.8 s while its AudioContext started)
 */
export function statusLabel(status: SessionStatus, turn: AudioTurnState | null, call: boolean, starting = false, muted = false): keyof PanelLabels | null {
  if (status === 'connecting' || (call && (status !== 'connected' || starting))) return 'connecting_status';
  if (status !== 'connected') return null;
  return turn ? (turn === 'speaking' ? 'speaking_status' : muted ? 'microphone_muted' : 'listening_status') : 'chatting_status';
}

/** The panel's flags for `config` (validated), the conversation's state and the voice call's (see `PanelFlags`). */
export function panelFlags(config: WidgetConfig, conversation: ConversationFacts, voice: VoiceFacts): PanelFlags {
  const textAllowed = config.text_only || config.supports_text_only;
  const call = voice.state !== 'off';
  // A call the page change ended is offered again as after any end (`new_call`).
  const ended = conversation.status === 'ended' || (conversation.status === 'idle' && !!conversation.continued?.call);
  return {
    textAllowed,
    voiceAllowed: !config.text_only,
    defaultMode: textAllowed ? 'text' : 'voice',
    alwaysExpanded: config.always_expanded,
    call,
    active: conversation.active || call,
    ended,
    composer: config.text_input_enabled && (textAllowed || call),
    placeholder: ended ? 'input_placeholder_new_conversation' : config.text_only ? 'input_placeholder_text_only' : 'input_placeholder',
    status: statusLabel(conversation.status, call && !voice.textMode ? voice.turn : null, call, voice.state === 'starting', voice.muted),
    orb: call && !config.transcript_enabled,
  };
}

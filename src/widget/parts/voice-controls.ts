import { css, html, nothing, type TemplateResult } from 'lit';
import type { Labels, WidgetConfig } from '../../config/types.js';
import type { NoticeKind } from '../controllers/conversation.js';

/** Options of `voiceControls`. */
export interface VoiceControlsOptions {
  config: WidgetConfig;
  texts: Labels;
  /** The microphone is muted (`aria-pressed` of the mute button). */
  muted: boolean;
  /** The call is switched to text. */
  textMode: boolean;
  onMute: () => void;
  onTextMode: () => void;
}

/**
 * The controls of a running voice call (PROTOCOL.md section 3, "Voice"): the mute toggle (`part="mute-button"`, named
 * by `mute_microphone`, `aria-pressed` while muted) when `mic_muting_enabled`, and the voice / text toggle
 * (`part="mode-button"`, named `text_mode` in voice and `voice_mode` in text) when `conversation_mode_toggle_enabled`.
 */
export function voiceControls({ config, texts, muted, textMode, onMute, onTextMode }: VoiceControlsOptions): TemplateResult {
  return html`${config.mic_muting_enabled
    ? html`<button part="button mute-button" class="icon mute" type="button" aria-label=${texts.mute_microphone} aria-pressed=${muted ? 'true' : 'false'} ?disabled=${textMode} @click=${onMute}>
        <span aria-hidden="true">${muted ? '🔇' : '🎙'}</span>
      </button>`
    : nothing}${config.conversation_mode_toggle_enabled
    ? html`<button part="button mode-button" class="secondary" type="button" @click=${onTextMode}>${textMode ? texts.voice_mode : texts.text_mode}</button>`
    : nothing}`;
}

/** Options of `voiceProblem`. */
export interface VoiceProblemOptions {
  texts: Labels;
  /** The failure's notice kind (a label key). */
  problem: NoticeKind;
}

/** A voice failure in plain words (`part="voice-problem"`, `role="alert"`, the error colour): denied, no microphone, blocked sound… */
export function voiceProblem({ texts, problem }: VoiceProblemOptions): TemplateResult {
  const label = problem === 'user' || problem === 'agent' || problem === 'error' || problem === 'text_mode' || problem === 'voice_mode' ? 'error_occurred' : problem;
  return html`<p part="voice-problem" class="problem" role="alert">${texts[label]}</p>`;
}

export const voiceControlsStyles = css`
  .problem {
    margin: 0 16px 8px;
    color: var(--_base-error);
    font-size: 13px;
    text-align: center;
  }
  .mute[aria-pressed='true'] {
    background: var(--_accent-subtle);
    color: var(--_accent-primary);
  }
`;

import { css, html, nothing, svg, type TemplateResult } from 'lit';
import type { PanelLabels } from '../../config/panel-labels.js';
import type { WidgetConfig } from '../../config/types.js';
import type { NoticeKind } from '../controllers/conversation.js';
import { noticeText } from './message.js';

/**
 * A microphone, drawn in the text colour (no emoji font needed). Elements are closed explicitly: the build's template
 * minifier drops the `/` of self-closing tags, which would nest the path inside the rect.
 */
export const microphoneIcon = svg`<rect x="9" y="3" width="6" height="11" rx="3"></rect><path d="M6 11a6 6 0 0 0 12 0M12 17v4"></path>`;

/** Options of `voiceControls`. */
export interface VoiceControlsOptions {
  config: WidgetConfig;
  texts: PanelLabels;
  /** The microphone is muted (`aria-pressed` of the mute button). */
  muted: boolean;
  /** The call is switched to text. */
  textMode: boolean;
  onMute: () => void;
  onTextMode: () => void;
  /** The device sheet is open (`aria-expanded` of its button). */
  devicesOpen: boolean;
  onDevices: () => void;
}

/**
 * The controls of a running voice call (PROTOCOL.md section 3, "Voice"): the device sheet's toggle
 * (`part="devices-button"`, named `devices`, `aria-expanded`, issue 19), the mute toggle (`part="mute-button"`, named
 * by `mute_microphone`, `aria-pressed` while muted) when `mic_muting_enabled`, and the voice / text toggle
 * (`part="mode-button"`, named `text_mode` in voice and `voice_mode` in text) when `conversation_mode_toggle_enabled`.
 */
export function voiceControls({ config, texts, muted, textMode, onMute, onTextMode, devicesOpen, onDevices }: VoiceControlsOptions): TemplateResult {
  return html`${config.mic_muting_enabled
    ? html`<button part="button mute-button" class="icon mute" type="button" aria-label=${texts.mute_microphone} aria-pressed=${muted ? 'true' : 'false'} ?disabled=${textMode} @click=${onMute}>
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">${microphoneIcon}${muted ? svg`<path d="M4 4l16 16"></path>` : nothing}</svg>
      </button>`
    : nothing}${devicesToggle({ texts, open: devicesOpen, onToggle: onDevices })}${config.conversation_mode_toggle_enabled
    ? html`<button part="button mode-button" class="secondary" type="button" @click=${onTextMode}>${textMode ? texts.voice_mode : texts.text_mode}</button>`
    : nothing}`;
}

/**
 * The device sheet's toggle (`part="devices-button"`, named `devices`, `aria-expanded`, issue 19): in a call's controls,
 * and before a call beside the call button once the microphone is granted.
 */
export function devicesToggle({ texts, open, onToggle }: { texts: PanelLabels; open: boolean; onToggle: () => void }): TemplateResult {
  return html`<button part="button devices-button" class="icon devices-toggle" type="button" aria-label=${texts.devices} aria-expanded=${open ? 'true' : 'false'} aria-controls="devices" @click=${onToggle}>
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path d="M4 7h10M18 7h2M4 17h2M10 17h10"></path><circle cx="16" cy="7" r="2"></circle><circle cx="8" cy="17" r="2"></circle></svg>
  </button>`;
}

/** Options of `voiceProblem`. */
export interface VoiceProblemOptions {
  texts: PanelLabels;
  /** The failure's notice kind (a label key). */
  problem: NoticeKind;
  /** The transcript tells the failure already (its notice): only the way forward is shown here, if any. */
  told: boolean;
  /** Whose site settings allow a refused microphone (`browserFamily`): the words of `microphone_denied`'s way forward. */
  browser: 'chromium' | 'firefox' | 'safari';
  /** The agent takes text: a microphone that cannot be had says so, as the other way forward. */
  typeInstead: boolean;
}

/** The microphone failures: each has a way forward (the call button tries again, or text where the agent takes it). */
const MICROPHONE: ReadonlySet<NoticeKind> = new Set([
  'microphone_denied', 'no_microphone', 'microphone_lost', 'microphone_in_use', 'microphone_blocked_page', 'microphone_blocked_frame', 'insecure_page',
]);

/**
 * A voice failure in plain words (`part="voice-problem"`, `role="alert"`, the error colour): denied, blocked by the
 * page, no microphone, in use, an insecure page, blocked sound… with its way forward in the same words (PROTOCOL.md
 * section 3, "Voice"): for a refused microphone how to allow it in this browser, and text where the agent takes it.
 * When the transcript tells the failure, only the way forward is shown (`part="voice-help"`), or nothing.
 */
export function voiceProblem({ texts, problem, told, browser, typeInstead }: VoiceProblemOptions): TemplateResult | typeof nothing {
  const help = [
    problem === 'microphone_denied' ? texts[`allow_microphone_${browser}`] : '',
    typeInstead && MICROPHONE.has(problem) ? texts.type_instead : '',
  ].filter(Boolean).join(' ');
  if (told) return help ? html`<p part="voice-help" class="problem help">${help}</p>` : nothing;
  return html`<p part="voice-problem" class="problem" role="alert">${help ? `${noticeText(texts, problem)} ${help}` : noticeText(texts, problem)}</p>`;
}

export const voiceControlsStyles = css`
  .problem {
    margin: 0 16px 8px;
    padding: 6px 10px;
    border: 1px solid var(--_base-error);
    border-radius: var(--_input-radius);
    color: var(--_error-text);
    font-size: 13px;
    text-align: center;
  }
  p.help {
    border: 0;
    color: var(--_subtle-text);
  }
  .mute svg,
  .devices-toggle svg {
    fill: none;
    stroke: currentColor;
    stroke-width: 2;
    stroke-linecap: round;
    vertical-align: middle;
  }
  .mute[aria-pressed='true'] {
    background: var(--_accent-subtle);
    color: var(--_accent-primary);
  }
`;

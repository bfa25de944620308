import { css, html, nothing, type TemplateResult } from 'lit';
import type { DeviceChoice } from '../../audio/devices.js';
import type { PanelLabels } from '../../config/panel-labels.js';
import type { ChosenDevices } from '../controllers/device-choice.js';
import { elementRef, type ElementCallback } from './element-ref.js';
import { microphoneIcon } from './voice-controls.js';

/** Options of `deviceSheet`. */
export interface DeviceSheetOptions {
  texts: PanelLabels;
  /** The devices offered, each list without the browser's default (offered first, as `default_device`). */
  microphones: readonly DeviceChoice[];
  /** Empty where the engine cannot choose a speaker: then no speaker list. */
  speakers: readonly DeviceChoice[];
  /** What the call uses, or with none running what the next call asks for ('' for the default). */
  chosen: ChosenDevices;
  onChoose: (kind: keyof ChosenDevices, deviceId: string) => void;
  /** Gets the element the microphone's level is shown around (the voice controller's `levelTarget`). */
  levelTarget: ElementCallback;
}

/** One list: the default first, then each device by the browser's name of it (`microphone 2` where it gives none). */
function deviceSelect(texts: PanelLabels, kind: keyof ChosenDevices, list: readonly DeviceChoice[], chosen: string, onChoose: DeviceSheetOptions['onChoose']): TemplateResult {
  return html`<label class="device">${texts[kind]}
    <select part="${kind}-select" @change=${(event: Event) => onChoose(kind, (event.target as HTMLSelectElement).value)}>
      <option value="" ?selected=${chosen === ''}>${texts.default_device}</option>
      ${list.map((device, i) => html`<option value=${device.deviceId} ?selected=${device.deviceId === chosen}>${device.label || `${texts[kind]} ${i + 1}`}</option>`)}
    </select>
  </label>`;
}

/**
 * The device sheet of a voice call (`part="device-sheet"`, a group named `devices`, issue 19): the microphone list
 * (`part="microphone-select"`) beside a microphone whose level ring shows that it hears something, and the speaker list
 * (`part="speaker-select"`) where the engine can choose one. Choosing moves the call at once.
 */
export function deviceSheet({ texts, microphones, speakers, chosen, onChoose, levelTarget }: DeviceSheetOptions): TemplateResult {
  return html`<div part="device-sheet" class="devices" id="devices" role="group" aria-label=${texts.devices}>
    <span class="level" ${elementRef(levelTarget)}><svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">${microphoneIcon}</svg></span>
    ${deviceSelect(texts, 'microphone', microphones, chosen.microphone, onChoose)}
    ${speakers.length ? deviceSelect(texts, 'speaker', speakers, chosen.speaker, onChoose) : nothing}
  </div>`;
}

export const deviceSheetStyles = css`
  .devices {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 8px 12px;
    align-items: center;
    margin: 0 16px 8px;
    padding: 8px 10px;
    border: 1px solid var(--_base-border);
    border-radius: var(--_input-radius);
    font-size: 13px;
  }
  .devices .level {
    display: inline-flex;
    position: relative;
    padding: 4px;
    border-radius: 50%;
  }
  .devices svg {
    fill: none;
    stroke: currentColor;
    stroke-width: 2;
    stroke-linecap: round;
  }
  .device {
    display: flex;
    grid-column: 2;
    flex-direction: column;
    gap: 2px;
    color: var(--_subtle-text);
  }
  .device select {
    min-height: 28px;
    max-width: 100%;
    border: 1px solid var(--_base-border);
    border-radius: var(--_input-radius);
    background: var(--_base);
    color: var(--_base-primary);
    font: inherit;
  }
`;

/**
 * `voice-agent-device`: the visitor chose the microphone or the speaker of the voice call (issue 19, the device
 * sheet), and the call now uses it. `deviceId` is the browser's id of the device (`MediaDeviceInfo.deviceId`), '' for
 * the browser's default; `label` the browser's name of it ('' for the default). Dispatched from the host, `bubbles` and
 * `composed` (DESIGN.md rule 7); never for a choice the widget restored by itself.
 */
export class VoiceAgentDeviceEvent extends Event {
  /** @param detail which device (`microphone` or `speaker`), its `deviceId` and its `label` */
  constructor(readonly detail: { kind: 'microphone' | 'speaker'; deviceId: string; label: string }) {
    super('voice-agent-device', { bubbles: true, composed: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    'voice-agent-device': VoiceAgentDeviceEvent;
  }
}

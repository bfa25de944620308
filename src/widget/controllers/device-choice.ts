import type { ReactiveController, ReactiveElement } from 'lit';
import { listDevices, type DeviceChoice } from '../../audio/devices.js';
import { VoiceAgentDeviceEvent } from '../../events/device.js';
import * as log from '../../internal/console.js';

/** Where the visitor's choice is kept for the site (localStorage): `{microphone?, speaker?}`, device ids. */
const STORE_KEY = 'voice-agent-widget:devices';

/** What a call uses, chosen by the visitor: its microphone and its speaker ('' for the browser's default). */
export interface ChosenDevices {
  microphone: string;
  speaker: string;
}

/** Storage is on unless the page says `<html data-voice-agent-no-storage>`. */
const storageAllowed = (): boolean => !document.documentElement.hasAttribute('data-voice-agent-no-storage');

/**
 * The choice kept for the site, read as untrusted (another script may have written it): device ids that are strings
 * of at most 512 characters, else ''.
 */
function savedChoice(): ChosenDevices {
  let saved: unknown = null;
  try {
    if (storageAllowed()) saved = JSON.parse(localStorage.getItem(STORE_KEY) ?? 'null');
  } catch {
    // Storage refused (a sandboxed frame, a browser setting) or not JSON: nothing kept.
  }
  const id = (value: unknown): string => (typeof value === 'string' && value.length <= 512 ? value : '');
  const record = saved && typeof saved === 'object' ? (saved as Record<string, unknown>) : {};
  return { microphone: id(record.microphone), speaker: id(record.speaker) };
}

/**
 * The microphone and speaker of a voice call, as the visitor chooses them in the device sheet (issue 19): the lists
 * (`listDevices`, read when the sheet opens and again at each `devicechange` while it is open), the choice (applied at
 * once through `apply`, told with `voice-agent-device`), and its memory for the site (localStorage, written only when
 * the visitor chooses during a call; `<html data-voice-agent-no-storage>` turns it off), which the next call starts
 * with if that device is still there. Acquires its `devicechange` listener while the sheet is open; releases it in
 * `close()` and hostDisconnected.
 */
export class DeviceChoiceController implements ReactiveController {
  /** The device sheet is open. */
  open = false;
  microphones: DeviceChoice[] = [];
  /** Empty where the engine cannot choose a speaker (`canChooseSpeaker`, devices.ts): the sheet offers none. */
  speakers: DeviceChoice[] = [];
  /** What the call uses now ('' for the default). */
  readonly chosen: ChosenDevices = { microphone: '', speaker: '' };
  readonly #refresh = (): void => void this.#read();

  /**
   * @param apply moves the call to a device ('' for the default): resolves true when it did, false (or rejects) when
   * the device could not be used, and the call stays where it was
   */
  constructor(
    private readonly host: ReactiveElement,
    private readonly apply: (kind: keyof ChosenDevices, deviceId: string) => Promise<boolean>,
  ) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.close();
  }

  /** The choice kept for the site, for a call that starts: its devices are used where they are still there. */
  get saved(): ChosenDevices {
    return savedChoice();
  }

  /** Opens the sheet (reading the lists) or closes it. */
  toggle(): void {
    if (this.open) return this.close();
    this.open = true;
    navigator.mediaDevices?.addEventListener('devicechange', this.#refresh);
    this.#refresh();
    this.host.requestUpdate();
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    navigator.mediaDevices?.removeEventListener('devicechange', this.#refresh);
    this.host.requestUpdate();
  }

  /** The call uses these devices ('' for the default), not chosen in the sheet (restored at its start): shown as chosen. */
  using(devices: Partial<ChosenDevices>): void {
    Object.assign(this.chosen, devices);
  }

  /**
   * The visitor chose `deviceId` for `kind` ('' for the default): the call moves there, then the choice is kept for the
   * site and told (`voice-agent-device`). A device that cannot be used is told in the console, and nothing changes.
   */
  async choose(kind: keyof ChosenDevices, deviceId: string): Promise<void> {
    if (this.chosen[kind] === deviceId) return;
    const moved = await this.apply(kind, deviceId).catch(() => false);
    const label = (kind === 'microphone' ? this.microphones : this.speakers).find((d) => d.deviceId === deviceId)?.label ?? '';
    if (!moved) {
      log.warn(`voice call: the ${kind} "${label || deviceId}" could not be used; the call stays on the one it had.`);
      return this.host.requestUpdate();
    }
    this.chosen[kind] = deviceId;
    try {
      if (storageAllowed()) localStorage.setItem(STORE_KEY, JSON.stringify(this.chosen));
    } catch {
      // Storage refused: the choice holds for this call only.
    }
    this.host.requestUpdate();
    this.host.dispatchEvent(new VoiceAgentDeviceEvent({ kind, deviceId, label }));
  }

  async #read(): Promise<void> {
    const { microphones, speakers } = await listDevices();
    if (!this.open) return;
    [this.microphones, this.speakers] = [microphones, speakers];
    this.host.requestUpdate();
  }
}

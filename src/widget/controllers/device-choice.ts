import type { ReactiveController, ReactiveElement } from 'lit';
import { listDevices, type DeviceChoice } from '../../audio/devices.js';
import { microphonePermissionStatus } from '../../audio/microphone.js';
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
  /** Chosen while no call runs (in the sheet, or by the page): the next call starts with it, and keeps it for the site. */
  #next: Partial<ChosenDevices> = {};
  /** A call started here. */
  #started = false;
  /** The microphone's permission, watched for a change while the host is connected. */
  #permission: PermissionStatus | null = null;
  readonly #refresh = (): void => void this.#read();
  readonly #permissionChange = (): void => this.host.requestUpdate();

  /**
   * @param apply moves a running call's microphone, or the output (kept from call to call, so at any time), to a device
   * ('' for the default): resolves true when it did, false (or rejects) when it could not be used, and nothing moved
   * @param calling whether a call runs now
   */
  constructor(
    private readonly host: ReactiveElement,
    private readonly apply: (kind: keyof ChosenDevices, deviceId: string) => Promise<boolean>,
    private readonly calling: () => boolean,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    void microphonePermissionStatus().then((status) => {
      if (!status || !this.host.isConnected || this.#permission) return;
      // Its own object (each query makes one): `onchange` is ours to set.
      this.#permission = status;
      status.onchange = this.#permissionChange;
      this.#permissionChange();
    });
  }

  /**
   * The sheet may open before a call: the microphone is granted to this site (the Permissions API says so), or a call
   * started here and the permission does not say denied since; before that the browser gives the devices no names.
   */
  get granted(): boolean {
    const state = this.#permission?.state;
    return state === 'granted' || (this.#started && state !== 'denied');
  }

  hostDisconnected(): void {
    this.close();
    if (this.#permission) this.#permission.onchange = null;
    this.#permission = null;
  }

  /**
   * What a call that starts asks for: the choice kept for the site, under what was chosen since with no call running.
   * Its devices are used where they are still there.
   */
  get saved(): ChosenDevices {
    return { ...savedChoice(), ...this.#next };
  }

  /** The devices in use ('' for the default): the call's while one runs, else the ones the next call asks for. */
  get inUse(): ChosenDevices {
    return this.calling() ? this.chosen : this.saved;
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

  /**
   * A call starts on these devices ('' for the default), not chosen in the sheet (restored at its start): shown as
   * chosen. What was chosen before it is kept for the site now that a call was started.
   */
  using(devices: Partial<ChosenDevices>): void {
    this.#started = true;
    Object.assign(this.chosen, devices);
    if (Object.keys(this.#next).length) this.#keep(this.saved);
    this.#next = {};
  }

  /**
   * The visitor (the sheet) or the page (`microphoneId`, `speakerId`) chose `deviceId` for `kind` ('' for the default):
   * a call that runs moves there and the choice is kept for the site; with none running, the next call asks for it
   * (and a speaker is routed at once where the engine can). Told with `voice-agent-device`. A device that cannot be
   * used is told in the console, and nothing changes.
   */
  async choose(kind: keyof ChosenDevices, deviceId: string): Promise<void> {
    if (this.inUse[kind] === deviceId) return;
    const calling = this.calling();
    // With no call, the choice reads back at once (the element's property), and is undone if the device fails.
    const next = { ...this.#next };
    if (!calling) this.#next[kind] = deviceId;
    // With no call running, a microphone waits for the next call; the output moves at once.
    let moved = !calling && kind === 'microphone';
    try {
      moved ||= await this.apply(kind, deviceId);
    } catch {
      // Refused (a device gone, no `setSinkId` in this engine): told below.
    }
    const label = (kind === 'microphone' ? this.microphones : this.speakers).find((d) => d.deviceId === deviceId)?.label ?? '';
    if (!moved) {
      if (!calling) this.#next = next;
      log.warn(`voice call: the ${kind} "${label || deviceId}" could not be used; the ${calling ? 'call stays on' : 'next call asks for'} the one it had.`);
      return this.host.requestUpdate();
    }
    if (calling) {
      this.chosen[kind] = deviceId;
      this.#keep(this.chosen);
    }
    this.host.requestUpdate();
    this.host.dispatchEvent(new VoiceAgentDeviceEvent({ kind, deviceId, label }));
  }

  /** Keeps `devices` for the site (localStorage), unless the page turned storage off or the browser refuses it. */
  #keep(devices: ChosenDevices): void {
    try {
      if (storageAllowed()) localStorage.setItem(STORE_KEY, JSON.stringify(devices));
    } catch {
      // Storage refused: the choice holds for this page only.
    }
  }

  async #read(): Promise<void> {
    const { microphones, speakers } = await listDevices();
    if (!this.open) return;
    [this.microphones, this.speakers] = [microphones, speakers];
    this.host.requestUpdate();
  }
}

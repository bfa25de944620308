/**
 * Watching the devices of a call: decides when a change means the call lost its microphone or its sound output.
 * - The microphone is lost when its track ends (the browser's word for an unplugged device) or when a `devicechange`
 *   leaves no device with the track's `deviceId`.
 * - The output is lost when a `devicechange` takes the number of `audiooutput` devices from some to none. It is
 *   compared with the last count, never judged by zero alone: some browsers list no outputs at all (Firefox without
 *   `setSinkId`), and there a call must not be told it has none.
 */

/** What `watchDevices` reports; neither is called after its release. */
export interface DeviceWatchCallbacks {
  /** The microphone in use went away. */
  onMicrophoneLost(): void;
  /** The last audio output went away. */
  onOutputLost(): void;
}

/** A microphone track as the watch reads it: its `ended` event and its `deviceId` (a `MediaStreamTrack`). */
export type WatchedTrack = EventTarget & { getSettings(): { deviceId?: string }; onended?: ((event: Event) => unknown) | null };

/** The devices as the watch reads them: `devicechange` events and the list (`navigator.mediaDevices`). */
export type DeviceList = EventTarget & { enumerateDevices(): Promise<Pick<MediaDeviceInfo, 'deviceId' | 'kind'>[]> };

/**
 * Watches the microphone of `stream` and the audio outputs, and reports each loss once it happens.
 * @param devices the device list; `navigator.mediaDevices` but for unit tests (DESIGN.md rule 11)
 * @returns its release: removes every listener; a list still being read then reports nothing
 */
export function watchDevices(
  stream: { getAudioTracks(): WatchedTrack[] },
  callbacks: DeviceWatchCallbacks,
  devices: DeviceList = navigator.mediaDevices,
): () => void {
  let live = true;
  let outputs = 0;
  let lost = false;
  const microphoneLost = () => live && !lost && ((lost = true), callbacks.onMicrophoneLost());
  const read = async (report: boolean) => {
    const list = await devices.enumerateDevices().catch(() => []);
    if (!live) return;
    const id = stream.getAudioTracks()[0]?.getSettings().deviceId;
    const count = list.filter((d) => d.kind === 'audiooutput').length;
    if (report && id && !list.some((d) => d.deviceId === id)) callbacks.onMicrophoneLost();
    else if (report && outputs && !count) callbacks.onOutputLost();
    outputs = count;
  };
  const change = () => void read(true);
  const tracks = stream.getAudioTracks();
  // Both: Firefox 153 calls only the `onended` handler for an `ended` dispatched on the track; the listener is for
  // every other target. Reported once.
  for (const track of tracks) {
    track.addEventListener('ended', microphoneLost);
    if ('onended' in track) track.onended = microphoneLost;
  }
  devices.addEventListener('devicechange', change);
  void read(false);
  return () => {
    live = false;
    for (const track of tracks) {
      track.removeEventListener('ended', microphoneLost);
      if (track.onended === microphoneLost) track.onended = null;
    }
    devices.removeEventListener('devicechange', change);
  };
}

/** A device offered for the visitor's choice: the browser's id ('' for its default) and its name as the browser gives it. */
export interface DeviceChoice {
  readonly deviceId: string;
  readonly label: string;
}

/** The speaker can be chosen in this engine: its media elements have `setSinkId` (not in Safari, nor Firefox before 116). */
export const canChooseSpeaker = (): boolean => 'setSinkId' in HTMLMediaElement.prototype;

/**
 * The microphones and the speakers a visitor may choose from (`enumerateDevices`), each list in the browser's order
 * without its own aliases of the default (`default`, `communications`): the caller offers the default first. No
 * speakers where the engine cannot choose one (`canChooseSpeaker`). Labels are empty until the microphone was granted.
 * @param devices the device list; `navigator.mediaDevices` but for unit tests (DESIGN.md rule 11)
 * @returns both lists; empty when the list cannot be read. Never rejects.
 */
export async function listDevices(
  devices: Pick<MediaDevices, 'enumerateDevices'> = navigator.mediaDevices,
): Promise<{ microphones: DeviceChoice[]; speakers: DeviceChoice[] }> {
  const list = await devices.enumerateDevices().catch(() => []);
  const of = (kind: MediaDeviceKind): DeviceChoice[] => list
    .filter((d) => d.kind === kind && d.deviceId && d.deviceId !== 'default' && d.deviceId !== 'communications')
    .map(({ deviceId, label }) => ({ deviceId, label }));
  return { microphones: of('audioinput'), speakers: canChooseSpeaker() ? of('audiooutput') : [] };
}

/**
 * The one place that asks for the microphone (PROTOCOL.md section 3, "Voice"): decides the constraints of a call and
 * what a refusal means. Echo cancellation, noise suppression and auto gain are on, so that the agent's voice coming out
 * of the speakers is not sent back to it as the visitor's turn. Everyone else takes the stream this returns.
 */
import type { AudioErrorKind } from './audio-controller.js';

/** The microphone constraints of a call: echo cancellation, noise suppression and auto gain on. */
export const MICROPHONE_CONSTRAINTS: MediaTrackConstraints = { echoCancellation: true, noiseSuppression: true, autoGainControl: true };

/**
 * Why `getUserMedia` failed, as an `AudioErrorKind`: `denied` (NotAllowedError, SecurityError), `no-microphone`
 * (NotFoundError, NotReadableError, OverconstrainedError), else `failed`.
 */
export const microphoneErrorKind = (e: unknown): AudioErrorKind => {
  const name = (e as Error)?.name;
  return /NotAllowed|Security/.test(name) ? 'denied' : /NotFound|NotReadable|Overconstrained/.test(name) ? 'no-microphone' : 'failed';
};

/**
 * Asks for the microphone: `getUserMedia({ audio })` with `MICROPHONE_CONSTRAINTS`, each overridden by `constraints`.
 * @returns a stream with one audio track; the caller owns it and stops its tracks
 * @throws (rejects) getUserMedia's DOMException, or a TypeError where there is no `navigator.mediaDevices` (outside a
 * secure context); `microphoneErrorKind` says what it means
 */
export async function requestMicrophone(constraints?: MediaTrackConstraints): Promise<MediaStream> {
  return navigator.mediaDevices.getUserMedia({ audio: { ...MICROPHONE_CONSTRAINTS, ...constraints } });
}

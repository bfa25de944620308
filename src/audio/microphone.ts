/**
 * The one place that asks for the microphone (PROTOCOL.md section 3, "Voice"): decides the constraints of a call and
 * what a refusal means. Echo cancellation, noise suppression and auto gain are on, so that the agent's voice coming out
 * of the speakers is not sent back to it as the visitor's turn. Everyone else takes the stream this returns.
 */
import type { AudioErrorKind } from './audio-controller.js';

/** The microphone constraints of a call: echo cancellation, noise suppression and auto gain on. */
export const MICROPHONE_CONSTRAINTS: MediaTrackConstraints = { echoCancellation: true, noiseSuppression: true, autoGainControl: true };

/**
 * Why `getUserMedia` failed, as an `AudioErrorKind`: `denied` (NotAllowedError, SecurityError), `in-use`
 * (NotReadableError: another application holds the device, or the system could not start it), `no-microphone`
 * (NotFoundError, OverconstrainedError), `insecure` (no `navigator.mediaDevices`: not a secure context), else
 * `failed`. A NotAllowedError on a page whose permissions policy blocks the microphone is `microphoneBlocked()`'s.
 */
export const microphoneErrorKind = (e: unknown): AudioErrorKind => {
  const name = (e as Error)?.name;
  return /NotAllowed|Security/.test(name) ? 'denied' : /NotReadable/.test(name) ? 'in-use'
    : /NotFound|Overconstrained/.test(name) ? 'no-microphone' : microphoneBlocked() === 'insecure' ? 'insecure' : 'failed';
};

/** The permissions policy of the document (`permissionsPolicy`, Chromium's older `featurePolicy`), where the engine tells it. */
type PolicyDocument = Document & { permissionsPolicy?: { allowsFeature(feature: string): boolean }; featurePolicy?: { allowsFeature(feature: string): boolean } };
const microphonePolicy = (doc = document as PolicyDocument) => doc.permissionsPolicy ?? doc.featurePolicy;

/**
 * What rules the microphone out on this page before anyone is asked (PROTOCOL.md section 3, "Voice"): `insecure` (not
 * a secure context: browsers give the microphone only to https pages and localhost), `blocked-frame` / `blocked-page`
 * (the permissions policy blocks `microphone`: in an iframe, most often one without `allow="microphone"`; at the top,
 * a `Permissions-Policy` header), or null when nothing does, or the engine cannot tell (then the refusal tells).
 * Errors: never throws.
 */
export function microphoneBlocked(): 'insecure' | 'blocked-frame' | 'blocked-page' | null {
  if (!isSecureContext || !navigator.mediaDevices?.getUserMedia) return 'insecure';
  try {
    if (microphonePolicy()?.allowsFeature('microphone') === false) return self === top ? 'blocked-page' : 'blocked-frame';
  } catch {
    // An engine whose policy object throws cannot tell: the refusal will.
  }
  return null;
}

/**
 * Whether a framed document's `denied` permission is its iframe's doing (no `allow="microphone"`), in an engine with no
 * policy object to ask (Firefox, Safari): a document the policy blocks lists no microphone (`enumerateDevices` leaves
 * out what it may not use), where a visitor's denial, delegated from the top page, still lists one (measured in Firefox
 * ESR and WebKitGTK: test/permissions/microphone-access-engines.test.mjs). A visitor who denied and has no microphone
 * at all reads as blocked too. False at the top and where a policy object tells (`microphoneBlocked`).
 * @throws (rejects) only where `enumerateDevices` does; the start then fails as a refusal that says so
 */
export const frameBlocksMicrophone = async (): Promise<boolean> =>
  self !== top && !microphonePolicy() && !(await navigator.mediaDevices.enumerateDevices()).some((device) => device.kind === 'audioinput');

/**
 * The microphone's permission as the Permissions API tells it (a `PermissionStatus` of its own: its `state` and its
 * `change` events), or null where the engine has no such query for the microphone. Errors: never rejects.
 */
export async function microphonePermissionStatus(): Promise<PermissionStatus | null> {
  try {
    return await navigator.permissions.query({ name: 'microphone' as PermissionName });
  } catch {
    return null;
  }
}

/**
 * The microphone's permission before asking: `granted`, `denied` or `prompt`; null where the engine cannot tell
 * (`microphonePermissionStatus`). Errors: never rejects.
 */
export const microphonePermission = async (): Promise<PermissionState | null> => (await microphonePermissionStatus())?.state ?? null;

/** Whose site settings a visitor must open to allow the microphone, from the user agent: Firefox, Safari, else Chromium's. */
export const browserFamily = (userAgent: string): 'firefox' | 'safari' | 'chromium' =>
  / Firefox\//.test(userAgent) ? 'firefox' : / Version\/[\d.]+.* Safari\//.test(userAgent) && !/ (Chrome|Chromium|Edg)\//.test(userAgent) ? 'safari' : 'chromium';

/**
 * Asks for the microphone: `getUserMedia({ audio })` with `MICROPHONE_CONSTRAINTS`, each overridden by `constraints`.
 * @returns a stream with one audio track; the caller owns it and stops its tracks
 * @throws (rejects) getUserMedia's DOMException, or a TypeError where there is no `navigator.mediaDevices` (outside a
 * secure context); `microphoneErrorKind` says what it means
 */
export async function requestMicrophone(constraints?: MediaTrackConstraints): Promise<MediaStream> {
  return navigator.mediaDevices.getUserMedia({ audio: { ...MICROPHONE_CONSTRAINTS, ...constraints } });
}

/**
 * Loading the capture and playback worklets into a context: decides where their code comes from (README "Content
 * Security Policy"). A page with a strict CSP allows a file under `script-src` but not `blob:`, so a given file URL
 * comes first; without one, a Blob URL of the source (`captureWorkletSource`, `playbackWorkletSource`). With
 * `workletFallback`, a file that fails to load (development, a bundler that did not copy it) falls back to the Blob URL
 * for pages that allow `blob:`. Every Blob URL is revoked once loading is over, loaded or not. The two load one after
 * the other (WebKitGTK deadlocks on two at once).
 *
 * The sources are a module of their own (worklet-files.ts), imported only when a Blob URL is needed: a call that loads
 * the files does not download the same code a second time inside the conversation chunk.
 */
import type { AudioStartOptions } from './audio-controller.js';

/** The worklet files' names, in the folder of the script that defines the element (scripts/build-worklets.mjs). */
export const WORKLET_FILES = { capture: 'voice-agent-capture-worklet.js', playback: 'voice-agent-playback-worklet.js' } as const;

/**
 * Adds the `capture` and `playback` processors to `context`'s AudioWorklet (`options` as in `AudioStartOptions`).
 * @throws (rejects) the first worklet's load error (a CSP refusal, a missing file without `workletFallback`, a syntax
 * error), once both loads have settled
 */
export async function loadWorklets(context: BaseAudioContext, options: Pick<AudioStartOptions, 'workletUrls' | 'workletFallback'>): Promise<void> {
  const blobs: string[] = [];
  const fromSource = async (file: string): Promise<void> => {
    const { WORKLET_SOURCES } = await import('./worklet-files.js');
    const url = URL.createObjectURL(new Blob([WORKLET_SOURCES[file]!], { type: 'text/javascript' }));
    blobs.push(url);
    return context.audioWorklet.addModule(url);
  };
  const load = (url: string | undefined, file: string): Promise<void> =>
    url ? context.audioWorklet.addModule(url).catch((e) => (options.workletFallback ? fromSource(file) : Promise.reject(e))) : fromSource(file);
  // One after the other: two addModule calls at once deadlock WebKitGTK 2.50's web process in about one start in
  // three (its main thread in a GStreamer state change, the AudioWorklet thread waiting on the main thread); one at a
  // time, never (0 in 20 starts). Both are tried; the first failure is thrown once both have settled.
  let failure: { reason: unknown } | undefined;
  for (const [url, file] of [[options.workletUrls?.capture, WORKLET_FILES.capture], [options.workletUrls?.playback, WORKLET_FILES.playback]] as const) {
    // A context closed meanwhile (the element removed) loads nothing more: Chromium's renderer crashes on addModule then.
    if (context.state === 'closed') failure ??= { reason: new DOMException('the AudioContext was closed', 'InvalidStateError') };
    else await load(url, file).catch((reason: unknown) => void (failure ??= { reason }));
  }
  blobs.forEach(URL.revokeObjectURL);
  if (failure) throw failure.reason;
}

/**
 * Loading the capture and playback worklets into a context: decides where their code comes from (README "Content
 * Security Policy"). A page with a strict CSP allows a file under `script-src` but not `blob:`, so a given file URL
 * comes first; without one, a Blob URL of the source (`captureWorkletSource`, `playbackWorkletSource`). With
 * `workletFallback`, a file that fails to load (development, a bundler that did not copy it) falls back to the Blob URL
 * for pages that allow `blob:`. Every Blob URL is revoked once loading is over, loaded or not.
 */
import type { AudioStartOptions } from './audio-controller.js';
import { captureWorkletSource } from './capture-worklet.js';
import { playbackWorkletSource } from './playback-worklet.js';

/**
 * Adds the `capture` and `playback` processors to `context`'s AudioWorklet (`options` as in `AudioStartOptions`).
 * @throws (rejects) the first worklet's load error (a CSP refusal, a missing file without `workletFallback`, a syntax
 * error), once both loads have settled
 */
export async function loadWorklets(context: BaseAudioContext, options: Pick<AudioStartOptions, 'workletUrls' | 'workletFallback'>): Promise<void> {
  const blobs: string[] = [];
  const fromSource = (code: string): Promise<void> => {
    const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
    blobs.push(url);
    return context.audioWorklet.addModule(url);
  };
  const load = (url: string | undefined, code: string): Promise<void> =>
    url ? context.audioWorklet.addModule(url).catch((e) => (options.workletFallback ? fromSource(code) : Promise.reject(e))) : fromSource(code);
  // Settled, not `all`: a fallback still under way when the other load fails would make its Blob URL after the revoking.
  const loads = await Promise.allSettled([load(options.workletUrls?.capture, captureWorkletSource), load(options.workletUrls?.playback, playbackWorkletSource)]);
  blobs.forEach(URL.revokeObjectURL);
  const failure = loads.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) throw failure.reason;
}

/**
 * The worklet files the build writes beside the script (scripts/build-worklets.mjs): what a page with a strict CSP
 * loads instead of a Blob URL (README "Content Security Policy"). Their text by name; the names are `WORKLET_FILES`
 * (worklets.ts). Also the module worklets.ts imports, only then, to make a Blob URL.
 */
import { captureWorkletSource } from './capture-worklet.js';
import { playbackWorkletSource } from './playback-worklet.js';
import { WORKLET_FILES } from './worklets.js';

/** Each file's text: `captureWorkletSource` and `playbackWorkletSource`, as the build minified them. */
export const WORKLET_SOURCES: Record<string, string> = {
  [WORKLET_FILES.capture]: captureWorkletSource,
  [WORKLET_FILES.playback]: playbackWorkletSource,
};

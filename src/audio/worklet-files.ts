/**
 * The worklet files the build writes beside the script (scripts/build-worklets.mjs): what a page with a strict CSP
 * loads instead of a Blob URL (README "Content Security Policy"). Their names, and their text by name.
 */
import { captureWorkletSource } from './capture-worklet.js';
import { playbackWorkletSource } from './playback-worklet.js';

/** The file names, in the defining script's folder. */
export const WORKLET_FILES = { capture: 'voice-agent-capture-worklet.js', playback: 'voice-agent-playback-worklet.js' } as const;

/** Each file's text: `captureWorkletSource` and `playbackWorkletSource`, as the build minified them. */
export const WORKLET_SOURCES = {
  [WORKLET_FILES.capture]: captureWorkletSource,
  [WORKLET_FILES.playback]: playbackWorkletSource,
};

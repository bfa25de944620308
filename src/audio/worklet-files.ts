/**
 * The worklet files the build writes beside the script (scripts/build-worklets.mjs), by file name: what a page with a
 * strict CSP loads instead of a Blob URL (README "Content Security Policy"). Not part of any bundle.
 */
import { captureWorkletSource } from './capture-worklet.js';
import { playbackWorkletSource } from './playback-worklet.js';

export const WORKLET_SOURCES = {
  'voice-agent-capture-worklet.js': captureWorkletSource,
  'voice-agent-playback-worklet.js': playbackWorkletSource,
};

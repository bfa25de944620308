/** The audio pipeline (PROTOCOL.md section 3): microphone capture, agent-voice playback, PCM and μ-law conversion. */
export * from './audio-controller.js';
export { captureWorkletSource } from './capture-worklet.js';
export * from './pcm.js';
export { playbackWorkletSource } from './playback-worklet.js';

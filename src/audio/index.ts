/** The audio pipeline (PROTOCOL.md section 3): microphone capture, agent-voice playback, PCM and μ-law conversion. */
export * from './audio-controller.js';
export { watchDevices, type DeviceList, type DeviceWatchCallbacks, type WatchedTrack } from './devices.js';
export { MICROPHONE_CONSTRAINTS, browserFamily, microphoneBlocked, microphoneErrorKind, microphonePermission, requestMicrophone } from './microphone.js';
export { loadWorklets } from './worklets.js';
export { captureWorkletSource } from './capture-worklet.js';
export * from './pcm.js';
export { playbackWorkletSource } from './playback-worklet.js';

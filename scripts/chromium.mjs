// How every tool of this project launches Debian's Chromium (TOOLCHAIN.md): the tests, the audio benchmark and the
// screenshots. One place for the path and the flags.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Debian's Chromium; CHROMIUM_PATH overrides. No tool downloads a browser. */
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Flags for headless Chromium as root on a machine with a closed network. */
export const chromiumArgs = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];

/** The fake microphone's speech file (test/fixtures/README.md); FAKE_AUDIO_WAV overrides. */
export const fakeMicrophoneWav = process.env.FAKE_AUDIO_WAV || fileURLToPath(new URL('../test/fixtures/speech.wav', import.meta.url));

/**
 * `chromiumArgs` plus a fake microphone playing `fakeMicrophoneWav` and audio allowed without a gesture.
 * @throws Error when the WAV file is missing
 */
export function chromiumArgsWithFakeMicrophone() {
  if (!existsSync(fakeMicrophoneWav)) throw new Error(`the fake microphone's WAV file is missing: ${fakeMicrophoneWav}`);
  return [
    ...chromiumArgs,
    '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream',
    `--use-file-for-fake-audio-capture=${fakeMicrophoneWav}`, '--autoplay-policy=no-user-gesture-required',
  ];
}

/**
 * How a voice call shows a level (the microphone's, the agent's): on a level meter's scale and with its ballistics, so
 * that speech moves it visibly and it does not flicker at every 20 ms chunk.
 *
 * A chunk's RMS (0..1 of full scale) of speech is about 0.03 to 0.3, -30 to -10 dBFS: drawn as it is, it moved the
 * header avatar's ring by 1 to 2 px of 7 (screenshots while the agent spoke), too little to see that the call hears
 * or speaks. A meter reads decibels: `meterLevel` puts -50 dBFS at 0 (a quiet room) and -10 dBFS at 1. A meter also
 * rises at once and falls back slowly (`meterFall`), which the call worker applies where it draws.
 *
 * Plain functions with no imports of their own: call-worker.ts runs them in the worker from their source text.
 */

/**
 * The meter's position (0..1) for an RMS level (0..1 of full scale): -50 dBFS (RMS 0.0032) and below is 0, -10 dBFS
 * (RMS 0.32) and above is 1, linear in dB between. Not a number (or below 0) is 0.
 */
export function meterLevel(rms: number): number {
  return rms > 0 ? Math.min(1, Math.max(0, (20 * Math.log10(rms) + 50) / 40)) : 0;
}

/**
 * What a meter that rose to `peak` at `at` shows at `now` (ms, the same clock): `peak`, falling by a factor e every
 * 150 ms since (to a third in about 0.16 s, to a twentieth in 0.45 s).
 */
export function meterFall(peak: number, at: number, now: number): number {
  return peak * Math.exp(Math.min(0, at - now) / 150);
}

/** The level meter's scale and fall (src/audio/level-meter.ts). */
import { expect } from '@open-wc/testing';
import { meterFall, meterLevel } from '../../../src/audio/level-meter.js';

/** The RMS (0..1 of full scale) of a level in dBFS. */
const rms = (db: number) => 10 ** (db / 20);

describe('meterLevel', () => {
  it('puts -50 dBFS and below at 0, -10 dBFS and above at 1, linear in dB between', () => {
    expect(meterLevel(rms(-50))).to.be.closeTo(0, 1e-9);
    expect(meterLevel(rms(-70))).to.equal(0);
    expect(meterLevel(rms(-40))).to.be.closeTo(0.25, 1e-9);
    expect(meterLevel(rms(-30))).to.be.closeTo(0.5, 1e-9);
    expect(meterLevel(rms(-20))).to.be.closeTo(0.75, 1e-9);
    expect(meterLevel(rms(-10))).to.be.closeTo(1, 1e-9);
    expect(meterLevel(1)).to.equal(1);
    expect(meterLevel(4)).to.equal(1);
  });

  it('moves visibly for speech: the RMS of speech (0.03 to 0.3) spans most of the scale, where RMS itself spans a third', () => {
    expect(meterLevel(0.3) - meterLevel(0.03)).to.be.closeTo(0.5, 1e-9);
    expect(meterLevel(0.03)).to.be.closeTo(0.49, 0.01);
  });

  it('shows 0 for silence and for what is not a level', () => {
    for (const value of [0, -0.5, NaN, Number.NEGATIVE_INFINITY, undefined as unknown as number]) expect(meterLevel(value), String(value)).to.equal(0);
  });
});

describe('meterFall', () => {
  it('shows the peak until its time, then falls by e every 150 ms', () => {
    expect(meterFall(0.8, 1000, 900)).to.equal(0.8);
    expect(meterFall(0.8, 1000, 1000)).to.equal(0.8);
    expect(meterFall(0.8, 1000, 1150)).to.be.closeTo(0.8 / Math.E, 1e-9);
    expect(meterFall(0.8, 1000, 1300)).to.be.closeTo(0.8 / Math.E ** 2, 1e-9);
    expect(meterFall(1, 0, 450), 'a twentieth after 0.45 s').to.be.closeTo(0.05, 0.001);
  });
});

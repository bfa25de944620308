import { expect } from '@open-wc/testing';
import { captureWorkletSource, holdEcho, type EchoHold } from '../../../src/audio/capture-worklet.js';

const fresh = (): EchoHold => ({ s: 0, n: 0, e: 0, c: 0, o: 0 });
/** One chunk: the agent's voice at RMS `agent` went out (as 128 samples at ±agent), then the microphone's `level`. */
function chunk(h: EchoHold, level: number, agent: number): boolean {
  [h.s, h.n] = [128 * agent * agent, 128];
  return holdEcho(h, level);
}
/** Runs `holdEcho` over chunks of `[microphone level, agent level]` (RMS, 0..1); true where a chunk was held down. */
function run(chunks: [number, number][], h: EchoHold = fresh()): boolean[] {
  return chunks.map(([level, agent]) => chunk(h, level, agent));
}
const repeat = <T>(n: number, value: T): T[] => Array.from({ length: n }, () => value);
/** dBFS → RMS level. */
const db = (dbfs: number): number => 10 ** (dbfs / 20);

describe('holdEcho (the capture worklet\'s echo hold)', () => {
  it('holds nothing down while the agent is silent, however loud the microphone', () => {
    expect(run([[0.5, 0], [0.01, 0], [db(-60), 0]])).to.deep.equal([false, false, false]);
  });

  it('holds down echo up to +18 dB above the agent\'s level while it speaks, and through the loop\'s delay', () => {
    // The agent at -22 dBFS for 1 s, the echo 200 ms late at +16 dB (a canceller that lost track, gain control on).
    const agent = [...repeat(50, db(-22)), ...repeat(40, 0)];
    const echo = agent.map((_, i) => (i >= 10 && i < 60 ? db(-6) : 0));
    expect(run(echo.map((level, i) => [level, agent[i]])).slice(0, 60).every(Boolean)).to.equal(true);
  });

  it('holds the agent\'s peak 10 chunks, then halves it each chunk, and then holds nothing', () => {
    const h = fresh();
    chunk(h, 0, 0.125);
    expect([h.s, h.n]).to.deep.equal([0, 0]);
    for (let i = 0; i < 10; i++) holdEcho(h, 0);
    expect(h.e).to.equal(0.125);
    holdEcho(h, 0);
    expect(h.e).to.equal(0.0625);
    // 0.125 / 2^n under a quiet room's -90 dBFS (8 × e) after some 14 more chunks: a voice then opens at once.
    for (let i = 0; i < 14; i++) holdEcho(h, 0);
    expect(holdEcho(h, db(-90))).to.equal(false);
  });

  it('opens for a voice louder than 8 times the agent\'s level, for 25 chunks after the last such chunk', () => {
    const h = fresh();
    const agent = db(-30);
    expect(chunk(h, db(-20), agent)).to.equal(true); // +10 dB: could be echo
    expect(chunk(h, db(-11), agent)).to.equal(false); // +19 dB: the visitor
    // Quieter again (+10 dB: the visitor's voice with the agent's): still open for 24 more chunks, then held.
    expect(run(repeat(24, [db(-20), agent]), h).every((held) => !held)).to.equal(true);
    expect(chunk(h, db(-20), agent)).to.equal(true);
  });

  it('is in the worklet\'s source, which calls it', () => {
    expect(captureWorkletSource).to.include(String(holdEcho));
    expect(captureWorkletSource).to.include(`${holdEcho.name}(this.`);
  });
});

/**
 * A voice call's levels on screen (the orb, the header's avatar) where no call worker draws them (call-worker.ts draws
 * its rings itself), at the least cost to the page: the microphone's and the agent's RMS come about every 20 ms each,
 * are put on a level meter's scale (`meterLevel`: -50 to -10 dBFS as 0..1, audio/level-meter.ts), and are drawn at most
 * once per animation frame, only when one changed visibly (`LEVEL_STEP`), never while the page is hidden or the
 * visitor prefers reduced motion (the orb then shows the turn alone). They are written to the level elements only, as
 * `--_mic-level` and `--_agent-level`, registered as non-inherited numbers (`registerLevelProperties`), so a write
 * restyles that element and nothing under or around it; the styles turn them into a `transform` (audio-orb.ts), which
 * the compositor draws.
 */
import { meterLevel } from '../../audio/level-meter.js';

/** The two properties a level element gets: the microphone's level and the agent's, on the meter's scale (0..1). */
export const LEVEL_PROPERTIES = ['--_mic-level', '--_agent-level'] as const;

/** The smallest change of a level (0..1 on the meter's scale) that is drawn: about a pixel of the 120 px orb's growth. */
export const LEVEL_STEP = 0.05;

let registered = false;

/**
 * Registers `LEVEL_PROPERTIES` as `<number>`, `inherits: false`, initial 0 (CSS Properties and Values API), once per
 * page. Registration is page-wide (an `@property` rule in a shadow root's sheet is not applied), and a property already
 * registered (another copy of the widget on the page) or an engine without `CSS.registerProperty` keeps the levels
 * working as plain custom properties. Never throws.
 */
export function registerLevelProperties(): void {
  if (registered) return;
  registered = true;
  for (const name of LEVEL_PROPERTIES) {
    try {
      CSS.registerProperty({ name, syntax: '<number>', inherits: false, initialValue: '0' });
    } catch {
      // registered already, or no API: the properties still work, inherited
    }
  }
}

/** Draws the levels on the elements handed to `add`; `set` as often as levels come, `reset` at the end of a call. */
export class LevelMeter {
  readonly #targets = new Set<HTMLElement>();
  #latest: [number, number] = [0, 0];
  #drawn: [number, number] = [0, 0];
  #frame = 0;

  /**
   * @param reducedMotion the visitor's `prefers-reduced-motion: reduce` (read at each level; injectable for unit
   * tests, DESIGN.md rule 11)
   */
  constructor(private readonly reducedMotion: Pick<MediaQueryList, 'matches'> | null = typeof matchMedia === 'function' ? matchMedia('(prefers-reduced-motion: reduce)') : null) {
    registerLevelProperties();
  }

  /** An element that shows the levels (the orb, the header's avatar); dropped once no longer in the document. */
  add(element: HTMLElement): void {
    this.#targets.add(element);
  }

  /** The elements that show the levels (some may have left the document since the last write). */
  get targets(): ReadonlySet<HTMLElement> {
    return this.#targets;
  }

  /**
   * The latest levels (RMS, 0..1 of full scale): drawn on the meter's scale at the next animation frame if they changed
   * visibly and may be drawn now.
   */
  set(micRms: number, agentRms: number): void {
    const mic = meterLevel(micRms);
    const agent = meterLevel(agentRms);
    this.#latest = [mic, agent];
    if (this.#frame || !this.#drawable()) return;
    if (Math.abs(mic - this.#drawn[0]) < LEVEL_STEP && Math.abs(agent - this.#drawn[1]) < LEVEL_STEP) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      if (this.#drawable()) this.#write(...this.#latest);
    });
  }

  /** Back to 0 at once (the call ended): no frame left pending. */
  reset(): void {
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#latest = [0, 0];
    this.#write(0, 0);
  }

  #drawable(): boolean {
    return !document.hidden && !this.reducedMotion?.matches;
  }

  #write(mic: number, agent: number): void {
    this.#drawn = [mic, agent];
    for (const target of this.#targets) {
      if (!target.isConnected) {
        this.#targets.delete(target);
        continue;
      }
      target.style.setProperty(LEVEL_PROPERTIES[0], mic.toFixed(3));
      target.style.setProperty(LEVEL_PROPERTIES[1], agent.toFixed(3));
    }
  }
}

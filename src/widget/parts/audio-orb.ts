import { css, html, type TemplateResult } from 'lit';
import { elementRef, type ElementCallback } from './element-ref.js';

/** Options of `audioOrb`. */
export interface AudioOrbOptions {
  /** Gets the orb element, which follows the call's levels (`--_mic-level`, `--_agent-level`). */
  levelTarget: ElementCallback;
  /** Gets the orb element for the panel, which writes its `data-turn` (the call's turn) as it does the status line. */
  orbRef: ElementCallback;
}

/**
 * The large orb of a voice call (`part="orb"`), shown in place of the transcript when `transcript_enabled` is false:
 * decorative (`aria-hidden`; the status line says whose turn it is), framed in the accent colour while the agent speaks
 * (`data-turn`, which reduced motion keeps). It and the header's avatar (its `.level` frame)
 * follow the levels the voice controller writes on them (`--_mic-level`, `--_agent-level`, 0..1, non-inherited:
 * controllers/levels.ts) as a `transform` the compositor draws, and stay still under `prefers-reduced-motion`.
 */
export function audioOrb({ levelTarget, orbRef }: AudioOrbOptions): TemplateResult {
  return html`<div class="orb-stage"><span part="orb" class="avatar orb audio-orb" aria-hidden="true" ${elementRef(levelTarget)} ${elementRef(orbRef)}></span></div>`;
}

export const audioOrbStyles = css`
  .orb-stage {
    flex: 1;
    display: grid;
    place-items: center;
  }
  .orb-stage .audio-orb {
    width: 120px;
    height: 120px;
    box-shadow: 0 0 0 12px var(--_accent-subtle);
  }
  /* The agent's turn, shown without motion: a frame outside the ring. */
  .audio-orb[data-turn='speaking'] {
    box-shadow: 0 0 0 12px var(--_accent-subtle), 0 0 0 15px var(--_accent);
  }
  .header .level {
    display: flex;
    flex: none;
    border-radius: 50%;
  }
  /* The ring a call worker draws around a level element (call-thread.ts): centred, behind the element's content. */
  .header .level,
  .orb-stage .audio-orb {
    position: relative;
    isolation: isolate;
  }
  .level-ring {
    position: absolute;
    inset: 50% auto auto 50%;
    translate: -50% -50%;
    z-index: -1;
    pointer-events: none;
  }
  @media (prefers-reduced-motion: no-preference) {
    .live .header .level,
    .audio-orb {
      transform: scale(calc(1 + 0.35 * max(var(--_mic-level, 0), var(--_agent-level, 0))));
      will-change: transform;
    }
  }
`;

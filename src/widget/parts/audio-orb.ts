import { css, html, type TemplateResult } from 'lit';
import type { AudioTurnState } from '../../audio/audio-controller.js';
import { elementRef, type ElementCallback } from './element-ref.js';

/** Options of `audioOrb`. */
export interface AudioOrbOptions {
  turn: AudioTurnState;
  /** Gets the orb element, which follows the call's levels (`--_mic-level`, `--_agent-level`). */
  levelTarget: ElementCallback;
}

/**
 * The large orb of a voice call (`part="orb"`), shown in place of the transcript when `transcript_enabled` is false:
 * decorative (`aria-hidden`; the status line says whose turn it is). It and the header's avatar (its `.level` frame)
 * follow the levels the voice controller writes on them (`--_mic-level`, `--_agent-level`, 0..1, non-inherited:
 * controllers/levels.ts) as a `transform` the compositor draws, and stay still under `prefers-reduced-motion`.
 */
export function audioOrb({ turn, levelTarget }: AudioOrbOptions): TemplateResult {
  return html`<div class="orb-stage"><span part="orb" class="avatar orb audio-orb ${turn}" aria-hidden="true" ${elementRef(levelTarget)}></span></div>`;
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

import { css, html, type TemplateResult } from 'lit';
import { elementRef, type ElementCallback } from './element-ref.js';

/** Options of `audioOrb`. */
export interface AudioOrbOptions {
  /** The agent's words said so far (each complete line, as text), for the screen reader's log; the newest last. */
  spoken: readonly string[];
  /** The log's name (`transcript`). */
  label: string;
  /** Gets the orb element, which follows the call's levels (`--_mic-level`, `--_agent-level`). */
  levelTarget: ElementCallback;
  /** Gets the orb element for the panel, which writes its `data-turn` (the call's turn) as it does the status line. */
  orbRef: ElementCallback;
}

/**
 * The large orb of a voice call (`part="orb"`), shown in place of the transcript when `transcript_enabled` is false:
 * decorative (`aria-hidden`; the status line says whose turn it is), framed in the accent colour while the agent speaks
 * (`data-turn`, which reduced motion keeps). It and the header's avatar (its `.level` frame) follow the levels the
 * voice controller writes on them (`--_mic-level`, `--_agent-level`, 0..1 on a level meter's scale, non-inherited:
 * controllers/levels.ts) as a `transform` the compositor draws, and stay still under `prefers-reduced-motion`.
 * Without a transcript on screen, the agent's words still reach a screen reader as they are spoken (issue 20): a
 * visually hidden `role="log"` (`part="spoken-log"`) gets each complete agent line once, never a streamed part of one.
 */
export function audioOrb({ spoken, label, levelTarget, orbRef }: AudioOrbOptions): TemplateResult {
  return html`<div class="orb-stage"><span part="orb" class="avatar orb audio-orb" aria-hidden="true" ${elementRef(levelTarget)} ${elementRef(orbRef)}></span>
    <div part="spoken-log" class="visually-hidden" role="log" aria-label=${label}>${spoken.map((line) => html`<p>${line}</p>`)}</div></div>`;
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
  /* Where no call worker draws the rings (levels.ts): the levels as the element's scale; the transition (run by the
     compositor) eases the meter between the frames that write it, as the worker's rings fall back. */
  @media (prefers-reduced-motion: no-preference) {
    .live .header .level,
    .audio-orb {
      transform: scale(calc(1 + 0.35 * max(var(--_mic-level, 0), var(--_agent-level, 0))));
      transition: transform 150ms ease-out;
      will-change: transform;
    }
  }
`;

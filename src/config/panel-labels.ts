import * as log from '../internal/console.js';
import { DEFAULT_TEXTS, WIDGET_LABELS } from './defaults.js';
import type { Labels } from './types.js';

/**
 * The conversation panel's own labels, for what no `text_contents` label names (SERVICE-INTERFACE.md 2.11), in English:
 * the like / dislike buttons of `feedback_mode: during` (PROTOCOL.md section 4), the transcript's name, the voice
 * call's failures (PROTOCOL.md section 3, "Voice"), why the microphone cannot be had and the way forward for each case,
 * and the device sheet. They load with the conversation chunk: the launcher never shows them (its own are
 * `WIDGET_LABELS`). The conversation language's come from config/translations/; the `text-contents` attribute sets any.
 */
export const PANEL_LABELS = {
  like: 'Like',
  dislike: 'Dislike',
  /** The transcript's accessible name. */
  transcript: 'Transcript',
  /** The button beside a visitor's message that did not reach the agent: sends it again (starting a conversation). */
  send_again: 'Send again',
  /** Voice call failures (PROTOCOL.md section 3, "Voice"), each told in the panel and, with its cause, in the console. */
  microphone_denied: 'The microphone is blocked for this site.',
  no_microphone: 'No microphone was found.',
  microphone_lost: 'The microphone was disconnected.',
  audio_blocked: 'The browser paused the sound. Click anywhere in the page to hear the agent.',
  output_lost: 'The sound output was lost.',
  /** The page's `Permissions-Policy` rules the microphone out. */
  microphone_blocked_page: 'This page does not allow the microphone.',
  /** The iframe the widget is in may not use the microphone (no `allow="microphone"`). */
  microphone_blocked_frame: 'The microphone is not allowed where this widget is embedded.',
  /** Another application holds the microphone, or the system could not start it. */
  microphone_in_use: 'The microphone is in use by another app, or could not start.',
  /** Not a secure context (http other than localhost): said before the press. */
  insecure_page: 'Calls need a secure (https) page to use the microphone.',
  /** How to allow a refused microphone, per browser family (`browserFamily`). */
  allow_microphone_chromium: 'To allow it, click the icon left of the address bar and set Microphone to Allow.',
  allow_microphone_firefox: 'To allow it, click the crossed-out microphone in the address bar and clear the block.',
  allow_microphone_safari: 'To allow it, open Safari › Settings for This Website and set Microphone to Allow.',
  /** The call's microphone went away and capture moved to the default one (a transcript notice): the call goes on. */
  microphone_default: 'The microphone was disconnected; the call goes on with the default microphone.',
  /** The device sheet of a call: its button and name, its two lists, and the browser's default device. */
  devices: 'Microphone and speaker',
  microphone: 'Microphone',
  speaker: 'Speaker',
  default_device: 'Default',
  /** Where the agent takes text: the other way forward. */
  type_instead: 'You can type instead.',
  /** The name of each star of the end-of-conversation rating (PROTOCOL.md section 4); `{rating}` is 1 … 5. */
  rating_stars: '{rating} out of 5 stars',
  /** The status line of a call while the visitor muted the microphone (the unmute says `listening_status` again). */
  microphone_muted: 'Microphone muted',
  /** The divider under the messages of a conversation continued from an earlier page of the visit (issue 21). */
  earlier_in_visit: 'Earlier in this visit',
  /** A continued conversation's notice: its voice call ended when the page changed (a call cannot outlive a load). */
  call_ended_page_changed: 'The call ended when the page changed.',
};

/** Every label the conversation panel shows: the element's (`Labels`) and the panel's own (`PANEL_LABELS`). */
export type PanelLabels = Labels & typeof PANEL_LABELS;

const withPanel = new WeakMap<Labels, PanelLabels>();
/** The `text-contents` keys already reported as naming no label. */
const reported = new Set<string>();

/**
 * `texts` with the panel's English labels under them (a translation or the `text-contents` attribute in `texts` wins),
 * the same object for the same `texts` (the parts compare labels by identity to skip a render). A key of `texts` that
 * names no label (a `text-contents` typo, config/attributes.ts `parseTextContents`) is reported once in the console.
 */
export function panelLabels(texts: Labels): PanelLabels {
  let labels = withPanel.get(texts);
  if (!labels) {
    withPanel.set(texts, (labels = { ...PANEL_LABELS, ...texts }));
    for (const key in texts) {
      if (!Object.hasOwn(PANEL_LABELS, key) && !Object.hasOwn(DEFAULT_TEXTS, key) && !Object.hasOwn(WIDGET_LABELS, key) && !reported.has(key)) {
        reported.add(key);
        log.warn(`text-contents.${key} is not a known label; ignored.`);
      }
    }
  }
  return labels;
}

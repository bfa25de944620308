import type { Labels } from './types.js';

/**
 * The voice call's own labels that neither `text_contents` (SERVICE-INTERFACE.md 2.11) nor `WIDGET_LABELS` has, in
 * English: why the microphone cannot be had, and the way forward for each case (PROTOCOL.md section 3, "Voice"). They
 * load with the conversation chunk: the launcher never shows them.
 */
export const CALL_LABELS = {
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
};

/** Every label the conversation panel shows: the element's (`Labels`) and the call's own (`CALL_LABELS`). */
export type PanelLabels = Labels & typeof CALL_LABELS;

const withCall = new WeakMap<Labels, PanelLabels>();

/**
 * `texts` with the call's labels beside them, the same object for the same `texts` (the parts compare labels by
 * identity to skip a render).
 */
export function panelLabels(texts: Labels): PanelLabels {
  let labels = withCall.get(texts);
  if (!labels) withCall.set(texts, (labels = { ...CALL_LABELS, ...texts }));
  return labels;
}

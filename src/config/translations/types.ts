import type { WIDGET_LABELS } from '../defaults.js';
import type { PANEL_LABELS } from '../panel-labels.js';

/** One language's translation of the widget's own labels (`WIDGET_LABELS` and `PANEL_LABELS`): every key. */
export type Translation = Record<keyof typeof WIDGET_LABELS | keyof typeof PANEL_LABELS, string>;

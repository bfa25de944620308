/**
 * The launcher's parts (DESIGN.md layout): what the element renders before the conversation part has loaded: the
 * launcher, the error state and the panel's box. Render functions, each taking one named-options object, and their
 * styles. The conversation's parts are in ./conversation.ts (loaded on intent).
 */
import { avatarStyles } from './avatar.js';
import { errorStateStyles } from './error-state.js';
import { launcherStyles } from './launcher.js';
import { panelStyles } from './panel.js';

export { avatar } from './avatar.js';
export { errorState } from './error-state.js';
export { launcher } from './launcher.js';
export { panel, panelPlaceholder } from './panel.js';

/** The launcher's parts' styles, in cascade order (after the shared styles). */
export const launcherPartStyles = [launcherStyles, avatarStyles, errorStateStyles, panelStyles];

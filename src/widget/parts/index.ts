/** The parts of the element (DESIGN.md layout): render functions, each taking one named-options object, and their styles. */
import { audioOrbStyles } from './audio-orb.js';
import { avatarStyles } from './avatar.js';
import { codeActionsStyles } from './code-actions.js';
import { composerStyles } from './composer.js';
import { errorStateStyles } from './error-state.js';
import { feedbackSheetStyles } from './feedback-sheet.js';
import { headerStyles } from './header.js';
import { launcherStyles } from './launcher.js';
import { messageStyles } from './message.js';
import { panelStyles } from './panel.js';
import { termsDialogStyles } from './terms-dialog.js';
import { transcriptStyles } from './transcript.js';
import { voiceControlsStyles } from './voice-controls.js';

export { audioOrb } from './audio-orb.js';
export { composer } from './composer.js';
export { errorState } from './error-state.js';
export { feedbackSheet } from './feedback-sheet.js';
export { conversationId, header, statusLabel } from './header.js';
export { launcher } from './launcher.js';
export { banner, conversationActions, panel } from './panel.js';
export { termsDialog } from './terms-dialog.js';
export { transcript } from './transcript.js';
export { voiceControls, voiceProblem } from './voice-controls.js';

/** Every part's styles, in cascade order (after the shared styles). */
export const partStyles = [
  launcherStyles, avatarStyles, errorStateStyles, panelStyles, headerStyles, transcriptStyles, messageStyles, codeActionsStyles,
  composerStyles, feedbackSheetStyles, termsDialogStyles, voiceControlsStyles, audioOrbStyles,
];

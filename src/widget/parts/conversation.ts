/**
 * The conversation's parts (DESIGN.md layout): everything inside the panel. Only the conversation panel
 * (../conversation-panel.ts, loaded on intent) imports them, so none of them is in the launcher's first script.
 */
import { conversationSharedStyles } from '../conversation-styles.js';
import { audioOrbStyles } from './audio-orb.js';
import { codeActionsStyles } from './code-actions.js';
import { composerStyles } from './composer.js';
import { conversationActionsStyles } from './conversation-actions.js';
import { deviceSheetStyles } from './device-sheet.js';
import { feedbackSheetStyles } from './feedback-sheet.js';
import { headerStyles } from './header.js';
import { messageStyles } from './message.js';
import { termsDialogStyles } from './terms-dialog.js';
import { transcriptStyles } from './transcript.js';
import { voiceControlsStyles } from './voice-controls.js';

export { audioOrb } from './audio-orb.js';
export { composer } from './composer.js';
export { banner, conversationActions } from './conversation-actions.js';
export { feedbackSheet } from './feedback-sheet.js';
export { deviceSheet } from './device-sheet.js';
export { conversationId, header } from './header.js';
export { panel } from './panel.js';
export { termsDialog } from './terms-dialog.js';
export { prepareTranscript, transcript } from './transcript.js';
export { devicesToggle, voiceControls, voiceProblem } from './voice-controls.js';

/** The conversation's parts' styles, in cascade order (after the shared and the launcher's styles). */
export const conversationStyles = [
  conversationSharedStyles, headerStyles, transcriptStyles, messageStyles, codeActionsStyles, conversationActionsStyles, composerStyles, feedbackSheetStyles,
  termsDialogStyles, voiceControlsStyles, deviceSheetStyles, audioOrbStyles,
];

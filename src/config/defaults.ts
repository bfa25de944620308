import type { StyleColorKey, StyleSizeKey, TextKey } from './types.js';

/** Built-in labels, the last step of the text precedence (PROTOCOL.md section 2), English; in the service's order. */
export const DEFAULT_TEXTS = {
  main_label: 'Need help?',
  start_call: 'Start a call',
  start_chat: 'Start a chat',
  new_call: 'New call',
  end_call: 'End',
  mute_microphone: 'Mute microphone',
  change_language: 'Change language',
  collapse: 'Collapse',
  expand: 'Expand',
  copied: 'Copied!',
  accept_terms: 'Accept',
  dismiss_terms: 'Cancel',
  listening_status: 'Listening',
  speaking_status: 'Talk to interrupt',
  connecting_status: 'Connecting',
  chatting_status: 'Chatting with AI agent',
  input_label: 'Text message input',
  input_placeholder: 'Send a message...',
  input_placeholder_text_only: 'Send a message...',
  input_placeholder_new_conversation: 'Start a new conversation',
  user_ended_conversation: 'You ended the conversation',
  agent_ended_conversation: 'The agent ended the conversation',
  conversation_id: 'ID',
  error_occurred: 'An error occurred',
  copy_id: 'Copy ID',
  initiate_feedback: 'How was this conversation?',
  request_follow_up_feedback: 'Tell us more',
  thanks_for_feedback: 'Thank you for your feedback!',
  thanks_for_feedback_details: 'Your feedback helps us improve.',
  follow_up_feedback_placeholder: 'Tell us more about your experience...',
  submit: 'Submit',
  go_back: 'Go back',
  send_message: 'Send',
  text_mode: 'Switch to text mode',
  voice_mode: 'Switch to voice mode',
  switched_to_text_mode: 'Switched to text mode',
  switched_to_voice_mode: 'Switched to voice mode',
  copy: 'Copy',
  download: 'Download',
  wrap: 'Wrap',
  agent_working: 'Working...',
  agent_done: 'Completed',
  agent_error: 'Error occurred',
};

/** The 43 labels of `text_contents` (SERVICE-INTERFACE.md 2.11). */
export const TEXT_KEYS = Object.keys(DEFAULT_TEXTS) as TextKey[];

/**
 * The widget's own labels that the launcher shows, for controls that no `text_contents` label names (English; the
 * conversation language's come from config/translations/, and a page sets its own with the `text-contents` attribute):
 * the launcher's dismiss button (`dismissible`), and the panel while the conversation part of the script-tag build loads
 * or when it could not be loaded. The panel's own labels are config/panel-labels.ts `PANEL_LABELS`.
 */
export const WIDGET_LABELS = {
  dismiss: 'Dismiss',
  /** The error state's button that reads the configuration again (after a failure time may mend). */
  retry: 'Try again',
  /** The panel while the conversation part of the script-tag build loads (a press before it did). */
  loading: 'Loading…',
  /** The panel when the conversation part could not be loaded (the cause is in the console); `retry` tries again. */
  load_failed: 'The conversation could not be loaded.',
};

/** `styles` colour defaults (PROTOCOL.md section 2). */
export const DEFAULT_STYLE_COLORS: Record<StyleColorKey, string> = {
  base: '#ffffff',
  base_hover: '#f9fafb',
  base_active: '#f3f4f6',
  base_border: '#e5e7eb',
  base_subtle: '#6b7280',
  base_primary: '#000000',
  base_error: '#ef4444',
  accent: '#000000',
  accent_hover: '#1f2937',
  accent_active: '#374151',
  accent_border: '#4b5563',
  accent_subtle: '#6b7280',
  accent_primary: '#ffffff',
};

/** `styles` size defaults in px (PROTOCOL.md section 2); the three sheet radii are derived in `resolveTheme`. */
export const DEFAULT_STYLE_SIZES: Pick<Record<StyleSizeKey, number>, 'overlay_padding' | 'button_radius' | 'input_radius' | 'bubble_radius'> = {
  overlay_padding: 32,
  button_radius: 18,
  input_radius: 10,
  bubble_radius: 15,
};

/** Orb avatar colours (PROTOCOL.md section 2). */
export const DEFAULT_ORB_COLORS = { color_1: '#2792dc', color_2: '#9ce6e6' } as const;

/** Longest label or free text accepted from the network, in characters; longer values fall back. */
export const MAX_TEXT_LENGTH = 2000;
/** Longest `terms_html` / `first_message` accepted, in characters. */
export const MAX_LONG_TEXT_LENGTH = 20000;
/** Longest URL accepted (`custom_avatar_path`, `override_link`, `server-url`), in characters. */
export const MAX_URL_LENGTH = 2048;
/** Longest prompt override accepted (`override-prompt`), in characters. */
export const MAX_PROMPT_LENGTH = 50000;
/** Largest size accepted for a `styles` number or legacy radius, in px. */
export const MAX_SIZE_PX = 400;

/**
 * The texts only a conversation shows (PROTOCOL.md sections 2 and 3): its first message and what it strips from the
 * agent's text. Apart from texts.ts so that, in the script-tag build, they load with the conversation chunk.
 */
import { presetFor } from './texts.js';
import type { WidgetConfig } from './types.js';

/** The first message for `language`: the preset's, else the configured one (PROTOCOL.md sections 2 and 3). */
export function firstMessageFor(config: WidgetConfig, language: string): string {
  return presetFor(config, language)?.first_message ?? config.first_message;
}

/**
 * Fills `{{name}}` placeholders from dynamic variables, as the service does for the first message
 * (PROTOCOL.md section 3). A variable that is not given becomes an empty string.
 */
export function fillDynamicVariables(text: string, variables: Record<string, unknown>): string {
  return text.replace(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g, (_, name: string) => {
    const value = Object.prototype.hasOwnProperty.call(variables, name) ? variables[name] : '';
    return value === null || value === undefined ? '' : String(value);
  });
}

/**
 * Removes bracketed audio tags such as `[laughs]` or `[whispers softly]` from text shown to the visitor
 * (`strip_audio_tags`, SERVICE-INTERFACE.md 2.11). Markdown links `[text](url)` and references `[text][ref]` stay.
 */
export function stripAudioTags(text: string): string {
  return text.replace(/ ?\[[a-z]{2,}(?:[ -][a-z]+){0,3}\](?![([:])/gi, '');
}

/**
 * The widget's console messages, all with one prefix so a developer can filter on it: `warn` for a problem the
 * widget recovered from (a bad value replaced by its default), `error` for one the visitor sees (an error state),
 * `info` for what a developer should know that is not a problem. Extra arguments (the cause) are passed on.
 */
const say =
  (level: 'warn' | 'error' | 'info') =>
  (message: string, ...cause: unknown[]): void =>
    console[level](`[voice-agent-widget] ${message}`, ...cause);

export const warn = say('warn');
export const error = say('error');
export const info = say('info');

/** Shows an untrusted value in a message without flooding it: JSON (else `String`), at most 60 characters. */
export function preview(value: unknown): string {
  let text: string;
  try {
    text = String(JSON.stringify(value));
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The one prefix of every console message of the widget, so a developer can filter on it. */
const PREFIX = '[voice-agent-widget]';

/** A problem the widget recovered from (a bad value replaced by its default). */
export function warn(message: string): void {
  console.warn(`${PREFIX} ${message}`);
}

/** A problem the visitor sees (the widget shows an error state). */
export function error(message: string, cause?: unknown): void {
  if (cause === undefined) console.error(`${PREFIX} ${message}`);
  else console.error(`${PREFIX} ${message}`, cause);
}

/** Something the developer should know that is not a problem. */
export function info(message: string): void {
  console.info(`${PREFIX} ${message}`);
}

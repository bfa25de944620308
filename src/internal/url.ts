/**
 * Parses a URL without throwing: `new URL(input, base)`, or null when it does not parse. The one URL parser of the
 * widget: every untrusted URL (attributes, configuration fields, links in agent replies) goes through it.
 */
export function parseUrl(input: string, base?: string): URL | null {
  try {
    return base === undefined ? new URL(input) : new URL(input, base);
  } catch {
    return null;
  }
}

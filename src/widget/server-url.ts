/**
 * The default service base URL (PROTOCOL.md section 1): the origin of the script that defined the element.
 * The script-tag entry and the module entry each record their own origin here.
 */
let scriptOrigin: string | null = null;

/** Records the defining script's URL (`document.currentScript.src` or `import.meta.url`); ignores what does not parse. */
export function setScriptUrl(url: string | null | undefined): void {
  if (!url) return;
  try {
    const parsed = new URL(url, location.href);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') scriptOrigin = parsed.origin;
  } catch {
    /* not a URL: keep the page's origin */
  }
}

/** The defining script's origin, else the page's origin. */
export function defaultServerUrl(): string {
  return scriptOrigin ?? location.origin;
}

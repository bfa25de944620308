/**
 * The entries of `markdown_link_allowed_hosts` (PROTOCOL.md section 2, Link policy): which entries mean something and
 * what each allows (a rule). Configuration validation asks `isHostEntry` of each entry (the launcher's first script);
 * the link policy (link-policy.ts, loaded with the conversation) turns the entries into rules. Pure, never throws.
 */
import { parseUrl } from '../internal/url.js';

/** One parsed entry of `allowedHosts`. */
export type HostRule =
  | { readonly kind: 'any' }
  /** `example.com` (optionally `example.com:8443`): that host, `port` '' meaning the scheme's default port. */
  | { readonly kind: 'host'; readonly host: string; readonly port: string }
  /** `*.example.com`: any subdomain of `base` at any depth, default port. */
  | { readonly kind: 'subdomains'; readonly base: string }
  /** `https://example.com/docs/`: links whose normalised href begins with `prefix`. */
  | { readonly kind: 'prefix'; readonly prefix: string };

/** Schemes a link may ever have; which of them pass depends on `allowHttp` and the origin rule. */
export const WEB_SCHEMES = new Set(['https:', 'http:']);

/** An entry that names a scheme: `https://…`, `http://…` (any `scheme://`). */
const SCHEME_ENTRY = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Removes one trailing dot of a hostname (`example.com.` → `example.com`); hostnames are already lower case. */
export function stripTrailingDot(hostname: string): string {
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}

/**
 * Parses a bare host entry (`example.com`, `Bücher.example.`, `example.com:8443`) through the URL parser, so it is
 * lower-cased and IDN-normalised exactly as a link's host is. Returns null for anything that is not just a host
 * (and optional port): a path, query, fragment, credentials or a `*` inside the host.
 */
function parseHostEntry(entry: string): { host: string; port: string } | null {
  const url = parseUrl(`https://${entry}`);
  if (!url) return null;
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null;
  // The URL parser keeps '?'/'#' only when followed by something: reject a bare trailing one too.
  if (/[?#]/.test(entry)) return null;
  const host = stripTrailingDot(url.hostname);
  if (!host || host.includes('*') || host.startsWith('.')) return null;
  return { host, port: url.port };
}

/** A URL's href with one trailing dot of its hostname removed, so `https://example.com./a` compares as `https://example.com/a`. */
export function comparableHref(url: URL): string {
  if (!url.hostname.endsWith('.')) return url.href;
  const copy = new URL(url.href);
  copy.hostname = stripTrailingDot(copy.hostname);
  return copy.href;
}

/** Turns one untrusted entry into a rule, or null when it is to be ignored. */
export function parseEntry(entry: unknown): HostRule | null {
  if (typeof entry !== 'string') return null;
  const trimmed = entry.trim();
  if (!trimmed) return null;
  if (trimmed === '*') return { kind: 'any' };
  if (SCHEME_ENTRY.test(trimmed)) {
    const url = parseUrl(trimmed);
    if (!url || !WEB_SCHEMES.has(url.protocol) || !url.hostname || url.username || url.password) return null;
    return { kind: 'prefix', prefix: comparableHref(url) };
  }
  if (trimmed.startsWith('*.')) {
    const parsed = parseHostEntry(trimmed.slice(2));
    if (!parsed || parsed.port !== '') return null;
    return { kind: 'subdomains', base: parsed.host };
  }
  const parsed = parseHostEntry(trimmed);
  return parsed ? { kind: 'host', host: parsed.host, port: parsed.port } : null;
}

/**
 * Whether one `markdown_link_allowed_hosts` entry is one the policy can use (`example.com`, `*`, `*.example.com`,
 * `https://example.com/docs/`); others are ignored by the policy, so configuration validation reports them.
 */
export function isHostEntry(entry: unknown): boolean {
  return parseEntry(entry) !== null;
}

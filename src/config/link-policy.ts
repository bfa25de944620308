/**
 * The link policy for agent markdown and `terms_html`: which links stay clickable and which images load.
 *
 * Implements PROTOCOL.md section 2, Link policy (the widget config's `markdown_link_*` fields); what each entry of
 * `markdown_link_allowed_hosts` allows is decided in host-entries.ts.
 * Pure functions over strings and `URL`; no DOM, no side effects, never throws.
 */
import { parseUrl } from '../internal/url.js';
import { WEB_SCHEMES, comparableHref, parseEntry, stripTrailingDot, type HostRule } from './host-entries.js';

/** The link policy of PROTOCOL.md section 2, from the widget config's markdown_link_* fields. */
export interface LinkPolicy {
  /**
   * Entries of markdown_link_allowed_hosts (their `hostname` strings), untrusted: 'example.com', '*',
   * '*.example.com', 'https://example.com/docs/'. Entries that are not strings, are empty or do not parse
   * are ignored. An empty list allows only links to the page's own origin.
   */
  readonly allowedHosts: readonly string[];
  /** markdown_link_include_www: a plain entry `example.com` also allows `www.example.com`. */
  readonly includeWww: boolean;
  /** markdown_link_allow_http: `http:` links pass as well as `https:` ones. */
  readonly allowHttp: boolean;
  /** The page's own URL (location.href in the element), base for relative links and the origin rule. */
  readonly pageUrl: string;
}

/** The rules of a policy's `allowedHosts`; a non-array reads as an empty list. */
function parseRules(allowedHosts: unknown): HostRule[] {
  if (!Array.isArray(allowedHosts)) return [];
  const rules: HostRule[] = [];
  for (const entry of allowedHosts) {
    const rule = parseEntry(entry);
    if (rule) rules.push(rule);
  }
  return rules;
}

/** Whether one rule admits an already scheme-checked, credential-free URL. */
function ruleMatches(rule: HostRule, url: URL, host: string, includeWww: boolean): boolean {
  switch (rule.kind) {
    case 'any':
      return true;
    case 'host':
      return url.port === rule.port && (host === rule.host || (includeWww && host === `www.${rule.host}`));
    case 'subdomains':
      return url.port === '' && host.endsWith(`.${rule.base}`) && host.length > rule.base.length + 1;
    case 'prefix':
      return comparableHref(url).startsWith(rule.prefix);
  }
}

/**
 * Applies the link policy to one link and returns the parsed, normalised URL when it passes.
 *
 * Shapes: `href` is any untrusted string (absolute or relative to `policy.pageUrl`); the result is a `URL`
 * whose `href` is the normalised link to render, or `null` when the link must lose its link.
 * Rules: only `https:` (and `http:` when `allowHttp`) pass; a URL with a username or password never passes;
 * an empty `allowedHosts` admits only the page's own origin (whatever its scheme, http or https); otherwise
 * an entry must match (`example.com` on its default port [+ `www.` with `includeWww`], `*`, `*.example.com`,
 * or a `https://…` href prefix). Hosts compare case-insensitively, IDN-normalised, a trailing dot ignored.
 *
 * Errors: never throws; unparseable links, non-string input and malformed policies give `null`.
 *
 * Implements PROTOCOL.md section 2, Link policy.
 */
export function allowedUrl(href: string, policy: LinkPolicy): URL | null {
  if (typeof href !== 'string' || !policy || typeof policy !== 'object') return null;
  const pageUrl = typeof policy.pageUrl === 'string' ? parseUrl(policy.pageUrl) : null;
  const url = pageUrl ? parseUrl(href, pageUrl.href) : parseUrl(href);
  if (!url) return null;
  if (url.username || url.password) return null;
  if (!WEB_SCHEMES.has(url.protocol)) return null;

  const rules = parseRules(policy.allowedHosts);
  if (rules.length === 0) {
    // Same origin only, whatever its scheme: an http page admits http links to itself.
    return pageUrl && pageUrl.origin !== 'null' && url.origin === pageUrl.origin ? url : null;
  }

  if (url.protocol === 'http:' && policy.allowHttp !== true) return null;
  const host = stripTrailingDot(url.hostname);
  const includeWww = policy.includeWww === true;
  return rules.some((rule) => ruleMatches(rule, url, host, includeWww)) ? url : null;
}

/**
 * Whether a link passes the link policy: `allowedUrl(href, policy) !== null`.
 *
 * Shapes: `href` is any untrusted string, absolute or relative to `policy.pageUrl`.
 * Errors: never throws; anything unparseable is simply not allowed.
 *
 * Implements PROTOCOL.md section 2, Link policy.
 */
export function isLinkAllowed(href: string, policy: LinkPolicy): boolean {
  return allowedUrl(href, policy) !== null;
}

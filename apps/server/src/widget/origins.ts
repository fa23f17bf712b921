/**
 * Which sites may show a widget (issue 21). `Origin` and the iframe's `X-Chorus-Embedder` are a
 * browser courtesy: anyone outside a browser can send any value. What a browser enforces is the
 * embed page's `frame-ancestors`, built here from the same list.
 */

/** An allowed origin as stored: scheme, host (a leading `*.` for any subdomain), port. */
const allowedPattern = /^(https?):\/\/(\*\.)?([a-z0-9.-]+)(?::(\d{1,5}))?$/i;

const defaultPorts: Record<string, string> = { http: '80', https: '443' };

type Parsed = { scheme: string; host: string; port: string };

/** A browser origin (`https://a.example.com`, or a page URL) split up; null for none or `null`. */
const parseOrigin = (value: string | undefined | null): Parsed | null => {
  const trimmed = value?.trim();
  if (!trimmed || trimmed === 'null' || trimmed.length > 2_000) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  const scheme = url.protocol.replace(/:$/, '');
  if (scheme !== 'http' && scheme !== 'https') return null;
  return {
    scheme,
    host: url.hostname.toLowerCase(),
    port: url.port || defaultPorts[scheme]!,
  };
};

/** `scheme://host[:port]` of a URL or origin, lowercased, without a default port. */
export const originOf = (value: string | undefined | null): string | null => {
  const p = parseOrigin(value);
  if (!p) return null;
  return `${p.scheme}://${p.host}${p.port === defaultPorts[p.scheme] ? '' : `:${p.port}`}`;
};

/** Whether one stored entry admits the origin: exactly, or as a subdomain of a `*.` entry. */
const admits = (entry: string, origin: Parsed): boolean => {
  const m = allowedPattern.exec(entry.trim());
  if (!m) return false;
  const scheme = m[1]!.toLowerCase();
  const wildcard = m[2] !== undefined;
  const host = m[3]!.toLowerCase();
  const port = m[4] ?? defaultPorts[scheme]!;
  if (scheme !== origin.scheme || String(Number(port)) !== String(Number(origin.port))) {
    return false;
  }
  return wildcard
    ? origin.host.endsWith(`.${host}`) && origin.host.length > host.length + 1
    : origin.host === host;
};

/** Whether `origin` is on the widget's list. An empty list admits nothing, never everything. */
export const originAllowed = (allowed: readonly string[], origin: string | null | undefined) => {
  const parsed = parseOrigin(origin);
  return parsed !== null && allowed.some((entry) => admits(entry, parsed));
};

/**
 * The `frame-ancestors` sources for a widget: 'self' (the owner's preview in the app) and each
 * well-formed stored origin as it is (`https://*.example.com` is CSP's own wildcard syntax).
 * Anything else is left out, so a stored value can never add a directive to the header.
 */
export const frameAncestors = (allowed: readonly string[]): string[] => [
  "'self'",
  ...new Set(
    allowed
      .map((entry) => entry.trim())
      .filter((entry) => allowedPattern.test(entry))
      .map((entry) => entry.toLowerCase()),
  ),
];

const hostLabel = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * An origin as the widget keeps it and as `frame-ancestors` reads it: lower case, no trailing
 * slash, no default port. The contract's pattern has already refused paths and wildcards other
 * than a leading `*.`; this refuses what it lets through but no browser would match.
 */
export const normaliseOrigin = (
  given: string,
): { origin: string; problem?: never } | { origin?: never; problem: string } => {
  const match = /^(https?):\/\/(\*\.)?([a-z0-9.-]+)(?::(\d{1,5}))?\/?$/.exec(
    given.trim().toLowerCase(),
  );
  if (!match) {
    return {
      problem:
        'An origin is a scheme and host, with a port if any — like https://example.com or http://localhost:5173 — without a path',
    };
  }
  const [, scheme = '', wildcard = '', host = '', port] = match;
  const labels = host.split('.');
  if (host.length > 253 || !labels.every((label) => hostLabel.test(label))) {
    return { problem: `“${given}” has no valid host name` };
  }
  if (wildcard && labels.length < 2) {
    return {
      problem: `“${given}” allows every site under a top-level domain: name a domain, like https://*.example.com`,
    };
  }
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) {
    return { problem: `“${given}” has a port outside 1–65535` };
  }
  const keptPort =
    port === undefined || defaultPorts[scheme] === String(Number(port)) ? '' : `:${Number(port)}`;
  return { origin: `${scheme}://${wildcard}${host}${keptPort}` };
};

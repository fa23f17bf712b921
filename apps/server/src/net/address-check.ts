// Pure checks for outbound requests to user-supplied URLs (ARCHITECTURE §11): which addresses
// Chorus may connect to, which URLs it may fetch, and the admin's allow-list of private hosts.
// No I/O here: safe-fetch.ts applies these at connect time, at every redirect hop.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why an address is refused; `public` when Chorus may connect to it. */
export type AddressClass =
  | 'public'
  | 'invalid'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'carrier_nat'
  | 'unspecified'
  | 'broadcast'
  | 'multicast'
  | 'reserved'
  | 'documentation'
  | 'metadata'
  | 'unique_local'
  | 'tunnel';

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

const cidr = (text: string): Cidr => ipaddr.parseCIDR(text);

// Cloud instance metadata services: they hand out credentials, so they stay refused even for a
// host the admin allowed (an intranet MCP server never lives there). AWS/GCP/Azure (and AWS's
// IPv6 endpoint), Alibaba, Oracle.
const metadataAddresses = [
  '169.254.169.254',
  'fd00:ec2::254',
  '100.100.100.200',
  '192.0.0.192',
].map((text) => ipaddr.parse(text).toNormalizedString());

// ipaddr.js files these under `reserved` with other blocks; named apart so a refusal says so.
const documentationRanges = [
  cidr('192.0.2.0/24'),
  cidr('198.51.100.0/24'),
  cidr('203.0.113.0/24'),
  cidr('2001:db8::/32'),
  cidr('3fff::/20'),
];

// The only IPv6 block assigned for global unicast; anything outside it is not a public host.
const globalUnicastV6 = cidr('2000::/3');

const v4Classes: Partial<Record<string, AddressClass>> = {
  unicast: 'public',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link_local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier_nat',
  private: 'private',
};

const v6Classes: Partial<Record<string, AddressClass>> = {
  unicast: 'public',
  unspecified: 'unspecified',
  linkLocal: 'link_local',
  multicast: 'multicast',
  loopback: 'loopback',
  uniqueLocal: 'unique_local',
  deprecatedSiteLocal: 'private',
  // 6to4, Teredo and NAT64 (RFC 6052, RFC 6145) carry an IPv4 address the route goes on to, and
  // Teredo's is obfuscated: refused whatever they embed (request-filtering-agent refuses them
  // too, so the two checks agree). An admin can allow such a range by CIDR.
  '6to4': 'tunnel',
  teredo: 'tunnel',
  rfc6052: 'tunnel',
  rfc6145: 'tunnel',
};

/** Parses an address in any form ipaddr.js reads (`127.1`, `0x7f000001`, `[::1]`, `fe80::1%eth0`). */
const parseAddress = (ip: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined => {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (!ipaddr.isValid(bare)) return undefined;
  const parsed = ipaddr.parse(bare);
  // `::ffff:a.b.c.d` reaches the IPv4 host a.b.c.d: judge that.
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as ipaddr.IPv6).toIPv4Address()
    : parsed;
};

const matches = (address: ipaddr.IPv4 | ipaddr.IPv6, [range, bits]: Cidr) =>
  address.kind() === range.kind() && address.match(range, bits);

/** Sorts an address into the class that decides whether Chorus may connect to it. */
export const classifyAddress = (ip: string): AddressClass => {
  const address = parseAddress(ip);
  if (!address) return 'invalid';
  if (metadataAddresses.includes(address.toNormalizedString())) return 'metadata';
  if (documentationRanges.some((range) => matches(address, range))) return 'documentation';
  if (address.kind() === 'ipv4') return v4Classes[address.range()] ?? 'reserved';
  const kind = v6Classes[address.range()] ?? 'reserved';
  return kind === 'public' && !matches(address, globalUnicastV6) ? 'reserved' : kind;
};

/**
 * Whether Chorus may connect to this address without an admin's say-so: a global unicast
 * address, not loopback, private, link-local, CGNAT, metadata, ULA, mapped or tunnelled private.
 * Anything that is not an address at all is not public.
 */
export const isPublicAddress = (ip: string): boolean => classifyAddress(ip) === 'public';

/**
 * The admin's list of private targets Chorus may reach anyway (an intranet MCP server): exact
 * host names (`mcp.intranet.example`), addresses (`10.0.0.5`, `[fd12::5]`) or CIDRs
 * (`10.1.0.0/16`). Empty, so off, by default.
 */
export type AllowList = { hosts: string[] };

/** An allow-list read once: host names apart, addresses and CIDRs as ranges. */
export type CompiledAllowList = { names: ReadonlySet<string>; ranges: readonly Cidr[] };

const normalizeHostName = (host: string) => host.trim().toLowerCase().replace(/\.$/, '');

/** Reads one allow-list entry: an address or CIDR as a range, a host name as a name. */
const readAllowEntry = (entry: string): { range: Cidr } | { name: string } | undefined => {
  const text = entry.trim();
  if (!text) return undefined;
  const bare = text.startsWith('[') ? text.replace(/^\[|\](?=\/|$)/g, '') : text;
  if (ipaddr.isValidCIDR(bare)) {
    const [address, bits] = ipaddr.parseCIDR(bare);
    return { range: [address, bits] };
  }
  const address = parseAddress(bare);
  if (address) return { range: [address, address.kind() === 'ipv4' ? 32 : 128] };
  // A host name as the URL parser would write it (lower case, punycode), nothing more.
  try {
    const url = new URL(`http://${text}/`);
    if (url.port || url.pathname !== '/' || url.username || url.password) return undefined;
    return { name: normalizeHostName(url.hostname) };
  } catch {
    return undefined;
  }
};

/** Whether a settings form may store this entry (a host name, an address or a CIDR). */
export const isValidAllowEntry = (entry: string): boolean => readAllowEntry(entry) !== undefined;

/** Compiles an allow-list; entries that are none of name, address or CIDR are ignored. */
export const compileAllowList = (list: AllowList | undefined): CompiledAllowList => {
  const names = new Set<string>();
  const ranges: Cidr[] = [];
  for (const entry of list?.hosts ?? []) {
    const read = readAllowEntry(entry);
    if (read && 'name' in read) names.add(read.name);
    else if (read) ranges.push(read.range);
  }
  return { names, ranges };
};

/** The allow-list's IP and CIDR entries as text, for request-filtering-agent's own list. */
export const allowListRanges = (list: CompiledAllowList): string[] =>
  list.ranges.map(([address, bits]) => `${address.toString()}/${bits}`);

/** Whether the host name in a URL is on the allow-list by name. */
export const isAllowedHostName = (list: CompiledAllowList, hostname: string): boolean =>
  list.names.has(normalizeHostName(hostname));

/**
 * Whether Chorus may connect to `ip` for a URL whose host is `hostname`: a public address, or
 * one the admin allowed by host name or by range. Metadata addresses are never allowed.
 */
export const isAllowedAddress = (
  list: CompiledAllowList,
  hostname: string,
  ip: string,
): boolean => {
  const kind = classifyAddress(ip);
  if (kind === 'public') return true;
  if (kind === 'invalid' || kind === 'metadata') return false;
  if (isAllowedHostName(list, hostname)) return true;
  const address = parseAddress(ip);
  return !!address && list.ranges.some((range) => matches(address, range));
};

/** Why a URL is refused before any connection is tried. */
export type UrlRefusal = 'invalid' | 'scheme' | 'credentials' | 'port' | 'host';

export type ParsedOutboundUrl =
  { ok: true; url: URL } | { ok: false; reason: UrlRefusal; message: string };

const refuse = (reason: UrlRefusal, message: string): ParsedOutboundUrl => ({
  ok: false,
  reason,
  message,
});

/** At most this much of a bad URL is quoted back in a refusal. */
const quoteLimit = 200;

const quote = (text: string) => (text.length > quoteLimit ? `${text.slice(0, quoteLimit)}…` : text);

/**
 * Reads a user-supplied URL for an outbound request: http or https only, no user name or
 * password in it, a port from 1 to 65535, a host. The URL parser's normal form is kept, so
 * `http://127.1/` and `http://0x7f000001/` come back with host 127.0.0.1.
 */
export const parseOutboundUrl = (raw: string): ParsedOutboundUrl => {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return refuse(
      'invalid',
      `"${quote(raw)}" is not a valid URL. Give a full address such as https://example.com/page.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return refuse(
      'scheme',
      `Chorus fetches only http and https URLs, not ${quote(url.protocol.replace(/:$/, ''))}.`,
    );
  }
  if (url.username || url.password) {
    // The URL is not quoted back: its password is a secret.
    return refuse(
      'credentials',
      'Chorus does not send a user name or password written inside a URL. Remove them from the address.',
    );
  }
  if (url.port !== '') {
    const port = Number(url.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      return refuse('port', `The port ${url.port} is not valid. Use a port from 1 to 65535.`);
    }
  }
  if (!url.hostname) {
    return refuse('host', `"${quote(raw)}" has no host name. Give a full address.`);
  }
  return { ok: true, url };
};

/** The URL's host as an address, when it is one (`[::1]` → `::1`); otherwise undefined. */
export const literalAddress = (url: URL): string | undefined => {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : undefined;
};

import { createHmac, hkdfSync } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { widgetLimits } from '@chorus/shared/api/widgets';

/**
 * How long a block also holds against new anonymous visitors from the blocked visitor's network
 * address. Long enough that clearing the browser's storage does not undo a block at once; short
 * enough that others behind the same address (an office, a school, a mobile carrier's shared
 * address) are not shut out for good.
 */
export const BLOCKED_ADDRESS_HOURS = widgetLimits.blockedAddressHours;

/**
 * The network a client address stands for: the address itself for IPv4, its /64 for IPv6 (a
 * device changes the rest at will). Null for an address that cannot be read.
 */
const networkOf = (ip: string): string | null => {
  if (!ipaddr.isValid(ip)) return null;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return (parsed as ipaddr.IPv6).parts.slice(0, 4).join(':');
};

const keys = new Map<string, Buffer>();

/**
 * A keyed hash of a visitor's network, per widget: it lets a block hold against a new anonymous
 * visitor from the same network without keeping the address, and the same network reads
 * differently for each widget. Null when the address cannot be read (then nothing is matched).
 */
export const visitorAddressHash = (
  authSecret: string,
  widgetId: string,
  ip: string,
): string | null => {
  const network = networkOf(ip);
  if (network === null) return null;
  let key = keys.get(authSecret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', authSecret, 'chorus', 'widget-visitor-address/v1', 32));
    keys.set(authSecret, key);
  }
  return createHmac('sha256', key).update(`${widgetId}\n${network}`).digest('base64url');
};

import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/**
 * A DNS lookup that answers from a fixed table and knows no other name, for tests: a name such
 * as `rebind.test` resolves to 127.0.0.1 without asking any resolver, and a name missing from
 * the table fails as an unknown host would, so a test can never reach the network by mistake.
 */
export const lookupTable =
  (table: Record<string, string | string[]>): LookupFunction =>
  (hostname, options, callback) => {
    const entry = table[hostname.toLowerCase()];
    if (entry === undefined) {
      const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      error.code = 'ENOTFOUND';
      process.nextTick(() => callback(error, options.all ? [] : ''));
      return;
    }
    const addresses: LookupAddress[] = (Array.isArray(entry) ? entry : [entry]).map((address) => ({
      address,
      family: isIP(address),
    }));
    process.nextTick(() => {
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };

import { randomInt } from 'node:crypto';

const used = new Set<string>();

/**
 * A client address no other test uses, sent as X-Forwarded-For (the app trusts the proxy in
 * e2e) so each test gets its own auth rate-limit budget.
 */
export const uniqueClientIp = (): string => {
  for (;;) {
    const ip = `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
    if (!used.has(ip)) {
      used.add(ip);
      return ip;
    }
  }
};

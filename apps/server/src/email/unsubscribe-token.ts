import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * The token an unsubscribe link carries: an HMAC of the address with a key derived from
 * AUTH_SECRET, so only a link from one of our mails opts an address out (issue 13, point 8).
 * It never expires: an old mail's link keeps working, as people expect of unsubscribe links.
 */
export const createUnsubscribeTokens = (authSecret: string) => {
  const key = Buffer.from(hkdfSync('sha256', authSecret, 'chorus', 'unsubscribe/v1', 32));
  const sign = (email: string) =>
    createHmac('sha256', key).update(email.trim().toLowerCase()).digest('base64url');
  return {
    sign,
    verify: (email: string, token: string) => {
      const expected = Buffer.from(sign(email));
      const given = Buffer.from(token);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
};

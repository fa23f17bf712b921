import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export type LinkCheck = 'valid' | 'expired' | 'invalid';

/**
 * Short-lived download links: `?exp=<unix seconds>&sig=<HMAC-SHA256(id.exp)>`. The key is derived
 * from AUTH_SECRET (HKDF, own label), so it changes with it and is never the session key itself.
 * A link is the permission to read one file until `exp`; it names nothing but the file's id.
 */
export const createLinkSigner = (authSecret: string) => {
  const key = Buffer.from(
    hkdfSync('sha256', authSecret, '', 'chorus/storage/download-link/v1', 32),
  );
  const sign = (fileId: string, exp: number) =>
    createHmac('sha256', key).update(`${fileId}.${exp}`).digest('base64url');

  return {
    /** The query of a link to `fileId` valid for `ttlSeconds` from `now`. */
    sign(fileId: string, ttlSeconds: number, now = Date.now()) {
      const exp = Math.floor(now / 1000) + ttlSeconds;
      return { exp, sig: sign(fileId, exp) };
    },

    /** Signature first, expiry second: a forged link learns nothing about expiry or existence. */
    verify(
      fileId: string,
      exp: string | undefined,
      sig: string | undefined,
      now = Date.now(),
    ): LinkCheck {
      if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig))
        return 'invalid';
      const expected = Buffer.from(sign(fileId, Number(exp)));
      if (!timingSafeEqual(expected, Buffer.from(sig))) return 'invalid';
      return Number(exp) * 1000 <= now ? 'expired' : 'valid';
    },
  };
};

export type LinkSigner = ReturnType<typeof createLinkSigner>;

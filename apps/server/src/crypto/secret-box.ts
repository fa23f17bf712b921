import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for provider keys at rest (ARCHITECTURE §4). Stored form:
 * `v1.<iv>.<tag>.<ciphertext>` in base64url, with a random 96-bit IV per value. The AES key is
 * derived from KEY_ENCRYPTION_SECRET with HKDF, so the secret itself is never the cipher key.
 */
export type SecretBox = {
  seal(plaintext: string): string;
  open(sealed: string): string;
};

export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

export const createSecretBox = (secret: string): SecretBox => {
  const key = Buffer.from(hkdfSync('sha256', secret, 'chorus', 'provider-keys/v1', 32));
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return ['v1', iv, tag, ciphertext]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, tag, ciphertext] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || ciphertext === undefined) {
        throw new SecretBoxError('Stored key has an unknown format');
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([
          decipher.update(Buffer.from(ciphertext, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new SecretBoxError(
          'Stored key cannot be decrypted (was KEY_ENCRYPTION_SECRET changed?)',
        );
      }
    },
  };
};

/** A hint safe to show: the key's prefix up to its first dash and its last four characters. */
export const maskKey = (key: string): string => {
  const k = key.trim();
  if (k.length <= 8) return '…';
  const dash = k.indexOf('-');
  const prefix = dash > 0 && dash <= 5 ? k.slice(0, dash + 1) : '';
  return `${prefix}…${k.slice(-4)}`;
};

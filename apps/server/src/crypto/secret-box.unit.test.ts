import { describe, expect, it } from 'vitest';
import { createSecretBox, maskKey, SecretBoxError } from './secret-box.ts';

const secret = 'a-test-secret-that-is-long-enough-0001';

describe('secret box', () => {
  it('round-trips a key and never stores it in the clear', () => {
    const box = createSecretBox(secret);
    const sealed = box.seal('sk-canary-1234567890');
    expect(sealed).not.toContain('canary');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(box.open(sealed)).toBe('sk-canary-1234567890');
  });

  it('uses a fresh IV each time', () => {
    const box = createSecretBox(secret);
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses a tampered value or another secret', () => {
    const sealed = createSecretBox(secret).seal('sk-abc');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => createSecretBox(secret).open(parts.join('.'))).toThrow(SecretBoxError);
    expect(() => createSecretBox(`${secret}-other`).open(sealed)).toThrow(SecretBoxError);
    expect(() => createSecretBox(secret).open('plain-text')).toThrow(SecretBoxError);
  });
});

describe('maskKey', () => {
  it('keeps only a short prefix and the last four characters', () => {
    expect(maskKey('sk-proj-abcdefghijklmnop1a2b')).toBe('sk-…1a2b');
    expect(maskKey('pplx-0123456789abcdef')).toBe('pplx-…cdef');
    expect(maskKey('AIzaSyA0123456789wxyz')).toBe('…wxyz');
    expect(maskKey('short')).toBe('…');
  });
});

import { describe, expect, it } from 'vitest';
import { createLinkSigner } from './signed-links.ts';

const id = '0b5a6c1e-8f3d-4a7b-9c2e-1d4f6a8b0c2e';
const other = '1c6b7d2f-9a4e-4b8c-8d3f-2e5a7b9c1d3f';
const secret = 'x'.repeat(40);

describe('signed download links', () => {
  const signer = createLinkSigner(secret);
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);

  it('accepts its own link until it expires, then reports it expired', () => {
    const { exp, sig } = signer.sign(id, 300, now);
    expect(exp).toBe(now / 1000 + 300);
    expect(signer.verify(id, String(exp), sig, now)).toBe('valid');
    expect(signer.verify(id, String(exp), sig, now + 299_000)).toBe('valid');
    expect(signer.verify(id, String(exp), sig, now + 300_000)).toBe('expired');
  });

  it('refuses a link moved to another file, a stretched expiry or a tampered signature', () => {
    const { exp, sig } = signer.sign(id, 300, now);
    expect(signer.verify(other, String(exp), sig, now)).toBe('invalid');
    expect(signer.verify(id, String(exp + 3600), sig, now)).toBe('invalid');
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    expect(signer.verify(id, String(exp), flipped, now)).toBe('invalid');
  });

  it('refuses a link signed with another AUTH_SECRET', () => {
    const { exp, sig } = createLinkSigner('y'.repeat(40)).sign(id, 300, now);
    expect(signer.verify(id, String(exp), sig, now)).toBe('invalid');
  });

  it('refuses missing or malformed parameters without throwing', () => {
    const { exp, sig } = signer.sign(id, 300, now);
    for (const [e, s] of [
      [undefined, sig],
      [String(exp), undefined],
      ['-1', sig],
      ['1e9', sig],
      [String(exp), sig.slice(1)],
      [String(exp), `${sig.slice(0, -1)}=`],
      [String(exp), 'é'.repeat(43)],
    ] as const) {
      expect(signer.verify(id, e, s, now)).toBe('invalid');
    }
  });
});

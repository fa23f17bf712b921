import { describe, expect, it } from 'vitest';
import { isValidNotificationAddress, isValidRecipient, unsubscribePath } from './email.ts';

describe('recipient pattern (spec §5: no spaces, one @, a dot in the domain)', () => {
  it.each(['ann@example.com', 'a.b+tag@mail.example.co.uk', 'x@y.z'])('accepts %s', (address) => {
    expect(isValidRecipient(address)).toBe(true);
  });

  it.each([
    '',
    'ann',
    'ann@example',
    'ann @example.com',
    'ann@@example.com',
    'a@b@c.com',
    '@example.com',
    'ann@.',
  ])('refuses %j', (address) => {
    expect(isValidRecipient(address)).toBe(false);
  });

  it('applies the same shape to run notifications (text@text.text)', () => {
    expect(isValidNotificationAddress('text@text.text')).toBe(true);
    expect(isValidNotificationAddress('text@text')).toBe(false);
  });
});

describe('unsubscribe link', () => {
  it('keeps the address and its token in the query, encoded', () => {
    expect(unsubscribePath('a+b@example.com', 'x/y=')).toBe(
      '/unsubscribe?email=a%2Bb%40example.com&token=x%2Fy%3D',
    );
  });
});

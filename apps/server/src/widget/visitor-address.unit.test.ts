import { describe, expect, it } from 'vitest';
import { visitorAddressHash } from './visitor-address.ts';

const secret = 'a-test-secret-of-enough-length-000000';

describe('visitorAddressHash', () => {
  it('is the same for one network on one widget, and differs across widgets', () => {
    const a = visitorAddressHash(secret, 'w1', '203.0.113.7');
    expect(a).toBe(visitorAddressHash(secret, 'w1', '203.0.113.7'));
    expect(a).toBe(visitorAddressHash(secret, 'w1', '::ffff:203.0.113.7'));
    expect(a).not.toBe(visitorAddressHash(secret, 'w2', '203.0.113.7'));
    expect(a).not.toBe(visitorAddressHash(secret, 'w1', '203.0.113.8'));
    expect(a).not.toBe(
      visitorAddressHash('another-secret-of-enough-length-0000', 'w1', '203.0.113.7'),
    );
  });

  it('takes an IPv6 address by its /64, which a device changes the rest of at will', () => {
    const one = visitorAddressHash(secret, 'w1', '2001:db8:1:2::1');
    expect(one).toBe(visitorAddressHash(secret, 'w1', '2001:db8:1:2:aaaa:bbbb:cccc:dddd'));
    expect(one).not.toBe(visitorAddressHash(secret, 'w1', '2001:db8:1:3::1'));
  });

  it('matches nothing for an address it cannot read', () => {
    expect(visitorAddressHash(secret, 'w1', 'unknown')).toBeNull();
    expect(visitorAddressHash(secret, 'w1', '')).toBeNull();
  });
});

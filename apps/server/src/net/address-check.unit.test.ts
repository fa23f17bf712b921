import { describe, expect, it } from 'vitest';
import {
  allowListRanges,
  classifyAddress,
  compileAllowList,
  isAllowedAddress,
  isPublicAddress,
  isValidAllowEntry,
  literalAddress,
  parseOutboundUrl,
  type AddressClass,
} from './address-check.ts';

// Pure checks: nothing here opens a connection.

describe('classifyAddress', () => {
  const refused: [string, AddressClass][] = [
    ['127.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['2130706433', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['fec0::1', 'private'],
    ['169.254.1.1', 'link_local'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['100.64.0.1', 'carrier_nat'],
    ['100.127.255.254', 'carrier_nat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::7f00:1', 'reserved'],
    ['4000::1', 'reserved'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['192.0.0.192', 'metadata'],
    ['fd00::1', 'unique_local'],
    ['fc00::1', 'unique_local'],
    ['2002:7f00:1::1', 'tunnel'],
    ['2002:a00:1::1', 'tunnel'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'tunnel'],
    ['64:ff9b::7f00:1', 'tunnel'],
    ['64:ff9b::a9fe:a9fe', 'tunnel'],
    ['64:ff9b:1::a00:1', 'tunnel'],
    ['::ffff:0:7f00:1', 'tunnel'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['2001:db8::1', 'documentation'],
    ['not-an-address', 'invalid'],
    ['256.1.1.1', 'invalid'],
    ['', 'invalid'],
  ];

  it.each(refused)('refuses %s as %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
    expect(isPublicAddress(ip)).toBe(false);
  });

  const allowed = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '::ffff:8.8.8.8',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
  ];

  it.each(allowed)('allows the public address %s', (ip) => {
    expect(classifyAddress(ip)).toBe('public');
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe('the admin allow-list', () => {
  const list = compileAllowList({
    hosts: ['Intranet.Example.', '10.1.0.0/16', '[fd12::5]', '192.168.1.7', '169.254.0.0/16'],
  });

  it('is off by default: no private address passes', () => {
    const none = compileAllowList(undefined);
    expect(isAllowedAddress(none, 'intranet.example', '10.1.2.3')).toBe(false);
    expect(isAllowedAddress(none, 'example.com', '8.8.8.8')).toBe(true);
  });

  it('lets a host named on it reach a private address, whatever the letter case', () => {
    expect(isAllowedAddress(list, 'intranet.example', '10.9.9.9')).toBe(true);
    expect(isAllowedAddress(list, 'INTRANET.example.', '127.0.0.1')).toBe(true);
    expect(isAllowedAddress(list, 'other.example', '10.9.9.9')).toBe(false);
  });

  it('lets the addresses and ranges on it through, for any host name', () => {
    expect(isAllowedAddress(list, 'anything.example', '10.1.2.3')).toBe(true);
    expect(isAllowedAddress(list, 'anything.example', '::ffff:10.1.2.3')).toBe(true);
    expect(isAllowedAddress(list, 'anything.example', '10.2.0.1')).toBe(false);
    expect(isAllowedAddress(list, 'anything.example', 'fd12::5')).toBe(true);
    expect(isAllowedAddress(list, 'anything.example', 'fd12::6')).toBe(false);
    expect(isAllowedAddress(list, 'anything.example', '192.168.1.7')).toBe(true);
  });

  it('never lets a metadata address through, even inside an allowed range or name', () => {
    expect(isAllowedAddress(list, 'anything.example', '169.254.1.1')).toBe(true);
    expect(isAllowedAddress(list, 'anything.example', '169.254.169.254')).toBe(false);
    expect(isAllowedAddress(list, 'intranet.example', '169.254.169.254')).toBe(false);
    expect(isAllowedAddress(list, 'intranet.example', 'fd00:ec2::254')).toBe(false);
  });

  it('hands its ranges to request-filtering-agent as CIDRs', () => {
    expect(allowListRanges(list)).toEqual([
      '10.1.0.0/16',
      'fd12::5/128',
      '192.168.1.7/32',
      '169.254.0.0/16',
    ]);
  });

  it('accepts host names, addresses and CIDRs as entries, and nothing else', () => {
    for (const entry of ['mcp.intranet.example', '10.0.0.5', '[fd12::5]', '10.1.0.0/16']) {
      expect(isValidAllowEntry(entry), entry).toBe(true);
    }
    for (const entry of ['', '  ', 'has space.example', 'host:8080', 'http://x/', 'a/b']) {
      expect(isValidAllowEntry(entry), entry).toBe(false);
    }
  });
});

describe('parseOutboundUrl', () => {
  it('reads http and https URLs, in the URL parser’s normal form', () => {
    const plain = parseOutboundUrl('https://Example.com/a?b=1');
    expect(plain.ok && plain.url.href).toBe('https://example.com/a?b=1');
    const short = parseOutboundUrl('http://127.1:8080/');
    expect(short.ok && short.url.hostname).toBe('127.0.0.1');
    const hex = parseOutboundUrl('http://0x7f000001/');
    expect(hex.ok && hex.url.hostname).toBe('127.0.0.1');
    const v6 = parseOutboundUrl('http://[::1]:8080/');
    expect(v6.ok && v6.url.hostname).toBe('[::1]');
  });

  it.each([
    ['ftp://example.com/file', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['gopher://127.0.0.1:25/', 'scheme'],
    ['http://user:hunter2@example.com/', 'credentials'],
    ['https://token@example.com/', 'credentials'],
    ['http://example.com:0/', 'port'],
    ['http://example.com:65536/', 'invalid'],
    ['not a url', 'invalid'],
    ['', 'invalid'],
  ])('refuses %s (%s)', (raw, reason) => {
    const parsed = parseOutboundUrl(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.reason).toBe(reason);
      expect(parsed.message).toMatch(/^[A-Z"].*\.$/);
    }
  });

  it('never quotes a password back', () => {
    const parsed = parseOutboundUrl('http://user:hunter2@example.com/');
    expect(!parsed.ok && parsed.message).not.toContain('hunter2');
  });

  it('names the address a URL’s host is written as, and nothing for a name', () => {
    const address = (raw: string) => {
      const parsed = parseOutboundUrl(raw);
      return parsed.ok ? literalAddress(parsed.url) : 'refused';
    };
    expect(address('http://127.1/')).toBe('127.0.0.1');
    expect(address('http://[::ffff:127.0.0.1]/')).toBe('::ffff:7f00:1');
    expect(address('http://[::1]:80/')).toBe('::1');
    expect(address('http://localhost/')).toBeUndefined();
    expect(address('http://example.com/')).toBeUndefined();
  });
});

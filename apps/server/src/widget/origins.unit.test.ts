import { describe, expect, it } from 'vitest';
import { spentBudget } from './budget.ts';
import { embedPolicy } from './embed-page.ts';
import { frameAncestors, originAllowed, originOf } from './origins.ts';

describe('widget origins', () => {
  const list = ['https://shop.example.com', 'https://*.example.org', 'http://localhost:5173'];

  it.each([
    ['https://shop.example.com', true],
    ['https://SHOP.example.com', true],
    ['https://shop.example.com:443', true],
    ['https://shop.example.com/cart?x=1', true],
    ['https://a.example.org', true],
    ['https://a.b.example.org', true],
    ['http://localhost:5173', true],
    ['https://example.org', false],
    ['https://evilexample.org', false],
    ['http://a.example.org', false],
    ['http://localhost:5174', false],
    ['https://shop.example.com.evil.net', false],
    ['null', false],
    ['', false],
    [undefined, false],
    ['javascript:alert(1)', false],
  ])('%s allowed: %s', (origin, allowed) => {
    expect(originAllowed(list, origin)).toBe(allowed);
  });

  it('allows nothing with an empty list', () => {
    expect(originAllowed([], 'https://shop.example.com')).toBe(false);
  });

  it('normalises an origin', () => {
    expect(originOf('HTTPS://Shop.Example.com:443/path')).toBe('https://shop.example.com');
    expect(originOf('http://localhost:8080/')).toBe('http://localhost:8080');
    expect(originOf('ftp://x.example')).toBeNull();
  });

  it('builds frame-ancestors from well-formed entries only', () => {
    expect(frameAncestors([])).toEqual(["'self'"]);
    expect(
      frameAncestors([...list, "https://x.example; script-src 'unsafe-inline'", 'https://*']),
    ).toEqual(["'self'", ...list]);
    expect(embedPolicy(['https://a.example'], ["'sha256-abc'"])).toContain(
      "frame-ancestors 'self' https://a.example;",
    );
  });
});

describe('widget budgets', () => {
  const widget = { daily_tokens: 100, monthly_tokens: 1_000 };
  const now = new Date('2026-11-25T10:00:00Z');

  it('names the spent budget and its notice period', () => {
    expect(spentBudget(widget, { today: 99, month: 500 }, now)).toBeNull();
    expect(spentBudget(widget, { today: 100, month: 500 }, now)).toEqual({
      budget: 'daily',
      period: '2026-11-25',
      tokens: 100,
    });
    expect(spentBudget(widget, { today: 100, month: 1_000 }, now)).toEqual({
      budget: 'monthly',
      period: '2026-11',
      tokens: 1_000,
    });
  });
});

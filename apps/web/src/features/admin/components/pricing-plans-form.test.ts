import { describe, expect, it } from 'vitest';
import { rangeProblem } from '../api/get-usage-statistics';
import { MB } from '@chorus/shared/limits';
import { parseLimit, parseMegabytes, parseModels, parsePrice } from './pricing-plans-form';

describe('pricing plan form parsing', () => {
  it('reads a displayed price into cents', () => {
    expect(parsePrice('12')).toBe(1200);
    expect(parsePrice('9.99')).toBe(999);
    expect(parsePrice('9,5')).toBe(950);
    expect(parsePrice('')).toBe(0);
    expect(parsePrice('-1')).toBeNull();
    expect(parsePrice('1.234')).toBeNull();
    expect(parsePrice('ten')).toBeNull();
  });

  it('reads a blank daily limit as unlimited and refuses anything but whole numbers', () => {
    expect(parseLimit('')).toBeNull();
    expect(parseLimit(' 20 ')).toBe(20);
    expect(parseLimit('0')).toBe(0);
    expect(parseLimit('2.5')).toBeUndefined();
    expect(parseLimit('-3')).toBeUndefined();
  });

  it('reads file limits in MB, blank as the default, refusing zero and sizes past the ceiling', () => {
    expect(parseMegabytes('', 5 * MB)).toBeNull();
    expect(parseMegabytes(' 10 ', 100 * MB)).toBe(10 * MB);
    expect(parseMegabytes('0.5', 100 * MB)).toBe(MB / 2);
    expect(parseMegabytes('1,25', 100 * MB)).toBe(1.25 * MB);
    expect(parseMegabytes('5', 5 * MB)).toBe(5 * MB);
    expect(parseMegabytes('5.001', 5 * MB)).toBeUndefined();
    expect(parseMegabytes('0', 5 * MB)).toBeUndefined();
    expect(parseMegabytes('-1', 5 * MB)).toBeUndefined();
    expect(parseMegabytes('ten', 5 * MB)).toBeUndefined();
  });

  it('reads models one per line or comma separated, without duplicates', () => {
    expect(parseModels('gpt-5-mini\n o3 , gpt-5-mini,\n\n')).toEqual(['gpt-5-mini', 'o3']);
  });
});

describe('usage statistics date range', () => {
  it('accepts up to 366 days, in order', () => {
    expect(rangeProblem({ from: '2024-01-01', to: '2024-12-31' })).toBeNull();
    expect(rangeProblem({ from: '2025-01-02', to: '2025-01-01' })).toMatch(/on or before/);
    expect(rangeProblem({ from: '2023-01-01', to: '2024-12-31' })).toMatch(/at most 366/);
    expect(rangeProblem({ from: '', to: '2024-12-31' })).toBe('Pick both dates.');
  });
});

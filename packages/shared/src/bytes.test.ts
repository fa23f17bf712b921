import { describe, expect, it } from 'vitest';
import { formatBytes } from './bytes.ts';
import { MB } from './limits.ts';

describe('formatBytes', () => {
  it('writes sizes in binary units with at most one decimal', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(1023)).toBe('1023 bytes');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(10 * MB)).toBe('10 MB');
    expect(formatBytes(100 * MB + 1)).toBe('100 MB');
    expect(formatBytes(5 * 1024 * MB)).toBe('5 GB');
    expect(formatBytes(3 * 1024 * 1024 * MB)).toBe('3 TB');
  });
});

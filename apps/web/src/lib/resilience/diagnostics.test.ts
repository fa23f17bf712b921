import { describe, expect, it } from 'vitest';
import { diagnostics, DiagnosticsBuffer } from './diagnostics';

describe('the diagnostics buffer', () => {
  it('keeps the last 300 entries, oldest first', () => {
    expect(diagnostics.capacity).toBe(300);
    const buffer = new DiagnosticsBuffer();
    for (let i = 1; i <= 301; i += 1) buffer.record('request', `call ${i}`);
    const entries = buffer.snapshot();
    expect(entries).toHaveLength(300);
    expect(entries[0]?.message).toBe('call 2');
    expect(entries[299]?.message).toBe('call 301');
  });

  it('tells listeners about each entry with a new snapshot', () => {
    const buffer = new DiagnosticsBuffer(2);
    let seen = 0;
    buffer.subscribe(() => (seen += 1));
    const before = buffer.snapshot();
    buffer.record('auth', 'SIGNED_IN');
    expect(buffer.snapshot()).not.toBe(before);
    expect(seen).toBe(1);
  });
});

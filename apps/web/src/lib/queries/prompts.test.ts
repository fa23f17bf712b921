import { describe, expect, it } from 'vitest';
import { importBatches } from './prompts';

const exportOf = (prompts: unknown[]) => ({
  format: 'chorus.prompts',
  version: 1,
  exported_at: '2026-11-24T10:00:00.000Z',
  prompts,
});

describe('importing a large prompt export', () => {
  it('sends a small file in one request', () => {
    const file = exportOf([{ title: 'a', content: 'b' }]);
    expect(importBatches(file)).toEqual([{ body: file, firstRow: 1 }]);
  });

  it('splits rows into requests under 1 MB each, in order, numbering rows as in the file', () => {
    const big = 'x'.repeat(20_000);
    const rows = Array.from({ length: 120 }, (_, i) => ({ title: `p${i}`, content: big }));
    const batches = importBatches(exportOf(rows));
    expect(batches.length).toBeGreaterThan(1);
    for (const batch of batches) {
      expect(new TextEncoder().encode(JSON.stringify(batch.body)).length).toBeLessThan(1024 * 1024);
      expect(batch.body).toMatchObject({ format: 'chorus.prompts', version: 1 });
    }
    const sent = batches.flatMap((b) => (b.body as { prompts: { title: string }[] }).prompts);
    expect(sent.map((r) => r.title)).toEqual(rows.map((r) => r.title));
    let next = 1;
    for (const batch of batches) {
      expect(batch.firstRow).toBe(next);
      next += (batch.body as { prompts: unknown[] }).prompts.length;
    }
  });

  it('passes anything that is not an export on as it is, for the server to refuse', () => {
    expect(importBatches([1, 2])).toEqual([{ body: [1, 2], firstRow: 1 }]);
    expect(importBatches(null)).toEqual([{ body: null, firstRow: 1 }]);
  });
});

import { describe, expect, it } from 'vitest';
import { featuredFirst } from './featured-first';

const entry = (id: string, featured: boolean, created_at: string) => ({ id, featured, created_at });

describe('featured first', () => {
  it('puts featured entries first, each group newest first, and keeps at most the count', () => {
    const items = [
      entry('old', false, '2026-01-01T00:00:00.000Z'),
      entry('featured-old', true, '2026-01-02T00:00:00.000Z'),
      entry('new', false, '2026-03-01T00:00:00.000Z'),
      entry('featured-new', true, '2026-02-01T00:00:00.000Z'),
    ];
    expect(featuredFirst(items, 3).map((e) => e.id)).toEqual([
      'featured-new',
      'featured-old',
      'new',
    ]);
  });

  it('leaves the list it was given as it was', () => {
    const items = [entry('a', false, '2026-01-01'), entry('b', true, '2026-01-02')];
    featuredFirst(items, 2);
    expect(items.map((e) => e.id)).toEqual(['a', 'b']);
  });
});

import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from '@chorus/shared/routes';
import {
  defaultFilters,
  discoverApiPath,
  filtersToParams,
  hasFilters,
  readFilters,
  readUseRequest,
  signInToUse,
} from './discover-params';

describe('the discover URL', () => {
  it('reads the filters from the query, falling back to the defaults for anything unknown', () => {
    expect(readFilters(new URLSearchParams())).toEqual(defaultFilters);
    expect(
      readFilters(
        new URLSearchParams('q=review&kind=scenario&category=Code&tag=git&sort=most_used'),
      ),
    ).toEqual({
      search: 'review',
      kind: 'scenario',
      category: 'Code',
      tag: 'git',
      sort: 'most_used',
    });
    expect(readFilters(new URLSearchParams('kind=agent&sort=oldest'))).toMatchObject({
      kind: 'all',
      sort: 'newest',
    });
  });

  it('writes only what differs from the defaults, and reads back what it wrote', () => {
    expect(filtersToParams(defaultFilters).toString()).toBe('');
    const filters = {
      ...defaultFilters,
      search: 'tone & style',
      kind: 'prompt' as const,
      tag: 'email',
    };
    const params = filtersToParams(filters);
    expect(params.toString()).toBe('q=tone+%26+style&kind=prompt&tag=email');
    expect(readFilters(params)).toEqual(filters);
    expect(hasFilters(defaultFilters)).toBe(false);
    expect(hasFilters({ ...defaultFilters, sort: 'most_used' })).toBe(false);
    expect(hasFilters(filters)).toBe(true);
  });

  it('asks the API for one page with the trimmed search, the filters and the cursor', () => {
    expect(discoverApiPath(defaultFilters, null)).toBe(
      '/rest/v1/discover?kind=all&sort=newest&limit=24',
    );
    expect(
      discoverApiPath(
        { search: ' sql ', kind: 'prompt', category: 'Data', tag: 'postgres', sort: 'most_used' },
        'abc==',
      ),
    ).toBe(
      '/rest/v1/discover?kind=prompt&sort=most_used&limit=24&search=sql&category=Data&tag=postgres&cursor=abc%3D%3D',
    );
  });

  it('reads the item chosen before signing in, and ignores one it cannot trust', () => {
    expect(readUseRequest(new URLSearchParams('use=prompt:p-1'))).toEqual({
      kind: 'prompt',
      id: 'p-1',
    });
    expect(readUseRequest(new URLSearchParams('use=scenario%3As-9'))).toEqual({
      kind: 'scenario',
      id: 's-9',
    });
    for (const bad of ['', 'use=', 'use=p-1', 'use=agent:a-1', 'use=prompt:', 'use=:p-1']) {
      expect(readUseRequest(new URLSearchParams(bad))).toBeNull();
    }
  });

  it('sends a guest to sign in and back to the same filters and item', () => {
    const filters = { ...defaultFilters, kind: 'scenario' as const, search: 'pull request' };
    const to = signInToUse(filters, { kind: 'scenario', id: 's-9' });
    const url = new URL(to, 'http://chorus.test');
    expect(url.pathname).toBe('/auth');
    expect(url.searchParams.get('redirect')).toBe('true');
    const from = safeRedirectPath(url.searchParams.get('from'));
    expect(from).toBe('/discover?q=pull+request&kind=scenario&use=scenario%3As-9');
    const back = new URL(from!, 'http://chorus.test').searchParams;
    expect(readFilters(back)).toEqual(filters);
    expect(readUseRequest(back)).toEqual({ kind: 'scenario', id: 's-9' });
  });
});

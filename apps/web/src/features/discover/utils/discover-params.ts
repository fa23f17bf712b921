import type { DiscoverKind } from '@chorus/shared/api/discover';
import { signInRedirect } from '@chorus/shared/routes';

export const discoverPath = '/discover';
export const discoverPageSize = 24;

export type KindFilter = 'all' | DiscoverKind;
export type DiscoverSort = 'newest' | 'most_used';

/** The directory's filters, kept in the URL so a link (and the way back from sign-in) keeps them. */
export type DiscoverFilters = {
  search: string;
  kind: KindFilter;
  category: string;
  tag: string;
  sort: DiscoverSort;
};

export const defaultFilters: DiscoverFilters = {
  search: '',
  kind: 'all',
  category: '',
  tag: '',
  sort: 'newest',
};

/** What "Use" copies into the person's workspace; a custom AI is talked to instead. */
export type CopyableKind = Exclude<DiscoverKind, 'custom_ai'>;

/** The item chosen before signing in: `?use=prompt:<id>`. */
export type UseRequest = { kind: CopyableKind; id: string };
export const useParam = 'use';

// Not the contract's `discoverKinds`: its module builds zod schemas, and a value imported from it
// brings all of zod into this public page's first load.
const copyable: readonly CopyableKind[] = ['prompt', 'scenario'];
const kinds: readonly DiscoverKind[] = [...copyable, 'custom_ai'];

const isKind = (value: string | null): value is DiscoverKind =>
  (kinds as readonly string[]).includes(value ?? '');

const isCopyable = (value: string): value is CopyableKind =>
  (copyable as readonly string[]).includes(value);

/** A published custom AI opens in a new chat (sign-in first, for a guest, by the route guard). */
export const customAiChatPath = (id: string) => `/chat?custom_ai=${encodeURIComponent(id)}`;

export const readFilters = (params: URLSearchParams): DiscoverFilters => {
  const kind = params.get('kind');
  return {
    search: params.get('q') ?? '',
    kind: isKind(kind) ? kind : 'all',
    category: params.get('category') ?? '',
    tag: params.get('tag') ?? '',
    sort: params.get('sort') === 'most_used' ? 'most_used' : 'newest',
  };
};

/** The URL's query for `filters`: defaults are left out, so the plain page is plain /discover. */
export const filtersToParams = (filters: DiscoverFilters): URLSearchParams => {
  const params = new URLSearchParams();
  if (filters.search.trim()) params.set('q', filters.search);
  if (filters.kind !== 'all') params.set('kind', filters.kind);
  if (filters.category) params.set('category', filters.category);
  if (filters.tag) params.set('tag', filters.tag);
  if (filters.sort !== 'newest') params.set('sort', filters.sort);
  return params;
};

export const hasFilters = (filters: DiscoverFilters): boolean =>
  filters.search.trim() !== '' ||
  filters.kind !== 'all' ||
  filters.category !== '' ||
  filters.tag !== '';

/** `GET /rest/v1/discover` for one page of `filters`. */
export const discoverApiPath = (filters: DiscoverFilters, cursor: string | null): string => {
  const params = new URLSearchParams({
    kind: filters.kind,
    sort: filters.sort,
    limit: String(discoverPageSize),
  });
  if (filters.search.trim()) params.set('search', filters.search.trim());
  if (filters.category) params.set('category', filters.category);
  if (filters.tag) params.set('tag', filters.tag);
  if (cursor) params.set('cursor', cursor);
  return `/rest/v1/discover?${params.toString()}`;
};

export const readUseRequest = (params: URLSearchParams): UseRequest | null => {
  const value = params.get(useParam);
  if (!value) return null;
  const at = value.indexOf(':');
  const kind = value.slice(0, at);
  const id = value.slice(at + 1);
  return at > 0 && isCopyable(kind) && id ? { kind, id } : null;
};

/**
 * Where a guest who chose "Use" goes: sign in, then back to this directory with the same
 * filters and the item named, to be copied once they are signed in.
 */
export const signInToUse = (filters: DiscoverFilters, item: UseRequest): string => {
  const params = filtersToParams(filters);
  params.set(useParam, `${item.kind}:${item.id}`);
  return signInRedirect(`${discoverPath}?${params.toString()}`);
};

import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type {
  AdminPromptsResponse,
  AdminScenariosResponse,
  LibraryKind,
} from '@chorus/shared/api/library';
import { api } from '@/lib/api-client';

export type AdminLibraryFilter = {
  status: 'all' | 'published' | 'unpublished' | 'featured';
  search: string;
};

export type AdminLibraryResponse<K extends LibraryKind> = K extends 'prompts'
  ? AdminPromptsResponse
  : AdminScenariosResponse;

export const adminLibraryQueryKey = (kind: LibraryKind) => ['admin', 'library', kind] as const;

export const getAdminLibrary = <K extends LibraryKind>(
  kind: K,
  { status, search }: AdminLibraryFilter,
  signal?: AbortSignal,
) => {
  const params = new URLSearchParams({ status });
  if (search.trim()) params.set('search', search.trim());
  return api.get<AdminLibraryResponse<K>>(`/rest/v1/admin/${kind}?${params}`, signal);
};

export const adminLibraryQueryOptions = <K extends LibraryKind>(
  kind: K,
  filter: AdminLibraryFilter,
) =>
  queryOptions({
    queryKey: [...adminLibraryQueryKey(kind), filter],
    queryFn: ({ signal }) => getAdminLibrary(kind, filter, signal),
    placeholderData: keepPreviousData,
  });

export const useAdminLibrary = <K extends LibraryKind>(kind: K, filter: AdminLibraryFilter) =>
  useQuery(adminLibraryQueryOptions(kind, filter));

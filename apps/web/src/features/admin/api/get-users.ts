import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminUsersResponse } from '@chorus/shared/api/admin';
import { api } from '@/lib/api-client';

export type AdminUsersQuery = { search: string; limit: number; offset: number };

export const getAdminUsers = ({ search, limit, offset }: AdminUsersQuery, signal?: AbortSignal) => {
  const params = new URLSearchParams({ limit: String(limit), offset: String(offset) });
  if (search.trim()) params.set('search', search.trim());
  return api.get<AdminUsersResponse>(`/rest/v1/admin/users?${params}`, signal);
};

export const adminUsersQueryOptions = (query: AdminUsersQuery) =>
  queryOptions({
    queryKey: ['admin', 'users', query],
    queryFn: ({ signal }) => getAdminUsers(query, signal),
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  });

export const useAdminUsers = (query: AdminUsersQuery) => useQuery(adminUsersQueryOptions(query));

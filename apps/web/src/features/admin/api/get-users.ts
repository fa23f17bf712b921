import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminUsersResponse, adminUsersRoleFilter } from '@chorus/shared/api/admin';
import { api } from '@/lib/api-client';

export type AdminUsersQuery = {
  search: string;
  limit: number;
  offset: number;
  role?: (typeof adminUsersRoleFilter)[number];
};

export const adminUsersQueryKey = ['admin', 'users'] as const;

export const getAdminUsers = (
  { search, limit, offset, role }: AdminUsersQuery,
  signal?: AbortSignal,
) => {
  const params = new URLSearchParams({ limit: String(limit), offset: String(offset) });
  if (search.trim()) params.set('search', search.trim());
  if (role) params.set('role', role);
  return api.get<AdminUsersResponse>(`/rest/v1/admin/users?${params}`, signal);
};

export const adminUsersQueryOptions = (query: AdminUsersQuery) =>
  queryOptions({
    queryKey: [...adminUsersQueryKey, query],
    queryFn: ({ signal }) => getAdminUsers(query, signal),
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  });

export const useAdminUsers = (query: AdminUsersQuery) => useQuery(adminUsersQueryOptions(query));

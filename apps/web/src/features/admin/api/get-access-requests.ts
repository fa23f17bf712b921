import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type {
  AccessRequestStatus,
  AccessRequestsResponse,
} from '@chorus/shared/api/access-requests';
import { api } from '@/lib/api-client';

export type AccessRequestsQuery = { status?: AccessRequestStatus; limit: number; offset: number };

export const accessRequestsQueryKey = ['admin', 'access-requests'] as const;

export const getAccessRequests = (query: AccessRequestsQuery, signal?: AbortSignal) => {
  const params = new URLSearchParams({ limit: String(query.limit), offset: String(query.offset) });
  if (query.status) params.set('status', query.status);
  return api.get<AccessRequestsResponse>(`/rest/v1/admin/access-requests?${params}`, signal);
};

export const accessRequestsQueryOptions = (query: AccessRequestsQuery) =>
  queryOptions({
    queryKey: [...accessRequestsQueryKey, query],
    queryFn: ({ signal }) => getAccessRequests(query, signal),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

export const useAccessRequests = (query: AccessRequestsQuery) =>
  useQuery(accessRequestsQueryOptions(query));

import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminCustomAisResponse } from '@chorus/shared/api/custom-ais';
import { api } from '@/lib/api-client';

export type AdminCustomAiStatus = 'submitted' | 'published';

export const adminCustomAisQueryKey = ['admin', 'custom-ais'] as const;

export const getAdminCustomAis = (status: AdminCustomAiStatus, signal?: AbortSignal) =>
  api.get<AdminCustomAisResponse>(`/rest/v1/admin/custom-ais?status=${status}`, signal);

export const adminCustomAisQueryOptions = (status: AdminCustomAiStatus) =>
  queryOptions({
    queryKey: [...adminCustomAisQueryKey, status],
    queryFn: ({ signal }) => getAdminCustomAis(status, signal),
    placeholderData: keepPreviousData,
  });

/** Shared custom AIs waiting for review, or published in /discover. */
export const useAdminCustomAis = (status: AdminCustomAiStatus) =>
  useQuery(adminCustomAisQueryOptions(status));

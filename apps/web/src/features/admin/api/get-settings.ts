import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AppSettings } from '@chorus/shared/api/settings';
import { api } from '@/lib/api-client';

export const adminSettingsQueryKey = ['admin', 'settings'] as const;

export const getAdminSettings = (signal?: AbortSignal) =>
  api.get<AppSettings>('/rest/v1/admin/settings', signal);

export const adminSettingsQueryOptions = () =>
  queryOptions({
    queryKey: adminSettingsQueryKey,
    queryFn: ({ signal }) => getAdminSettings(signal),
    staleTime: 30_000,
  });

export const useAdminSettings = () => useQuery(adminSettingsQueryOptions());

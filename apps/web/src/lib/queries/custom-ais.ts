import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CustomAi } from '@chorus/shared/api/custom-ais';
import { api } from '@/lib/api-client';

/** Every custom-AI query sits under this key: a change to one refreshes them all. */
export const customAisQueryKey = ['custom-ais'] as const;

export const customAiPath = (id: string) => `/rest/v1/custom-ais/${encodeURIComponent(id)}`;

export const getCustomAis = (signal?: AbortSignal) =>
  api.get<{ custom_ais: CustomAi[] }>('/rest/v1/custom-ais', signal);

export const customAisQueryOptions = () =>
  queryOptions({
    queryKey: [...customAisQueryKey, 'list'],
    queryFn: ({ signal }) => getCustomAis(signal),
    staleTime: 30_000,
  });

/** The user's custom AIs, newest first: the page lists them, the chat's model picker offers them. */
export const useCustomAis = (enabled = true) => useQuery({ ...customAisQueryOptions(), enabled });

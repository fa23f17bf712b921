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

/** One custom AI: one of the user's, or a published one of someone else (`owned: false`). */
export const customAiQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...customAisQueryKey, 'one', id],
    queryFn: ({ signal }) => api.get<CustomAi>(customAiPath(id), signal),
    staleTime: 30_000,
  });

/**
 * The custom AI a chat talks to, found in the user's list or else (a published one of someone
 * else, opened from /discover) read on its own. `customAis` is the list, with that one added so
 * the model picker can name it. `gone` once neither has it: deleted, or no longer shared.
 */
export const useCustomAiForChat = (id: string | null) => {
  const list = useCustomAis();
  const listed = list.data?.custom_ais;
  const own = id ? listed?.find((ai) => ai.id === id) : undefined;
  const shared = useQuery({
    ...customAiQueryOptions(id ?? ''),
    enabled: Boolean(id && listed && !own),
  });
  const other = !own && id && shared.data?.id === id ? shared.data : undefined;
  const customAi = own ?? other;
  return {
    customAi,
    customAis: other && listed ? [...listed, other] : listed,
    gone: Boolean(id && listed && !customAi && !shared.isPending && !shared.isFetching),
  };
};

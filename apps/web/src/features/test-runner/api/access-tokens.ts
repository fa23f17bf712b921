import { useQuery } from '@tanstack/react-query';
import type {
  AccessToken,
  CreateAccessToken,
  CreatedAccessToken,
} from '@chorus/shared/api/test-runs';
import { api } from '@/lib/api-client';
import { testRunnerQueryKey, useInvalidating } from './test-sets';

const tokensKey = [...testRunnerQueryKey, 'access-tokens'] as const;

/** The user's personal access tokens: never the tokens themselves, only their first characters. */
export const useAccessTokens = () =>
  useQuery({
    queryKey: tokensKey,
    queryFn: ({ signal }) => api.get<{ items: AccessToken[] }>('/rest/v1/access-tokens', signal),
  });

/** The answer holds the whole token: the only time it is ever shown. */
export const useCreateAccessToken = () =>
  useInvalidating(
    (body: CreateAccessToken) => api.post<CreatedAccessToken>('/rest/v1/access-tokens', body),
    tokensKey,
  );

export const useRevokeAccessToken = () =>
  useInvalidating(
    (id: string) => api.delete<void>(`/rest/v1/access-tokens/${encodeURIComponent(id)}`),
    tokensKey,
  );

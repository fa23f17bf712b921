import { useMutation } from '@tanstack/react-query';
import type { TestApiKeyResult } from '@chorus/shared/api/keys';
import type { ProviderId } from '@chorus/shared/providers';
import { api } from '@/lib/api-client';

/** A typed key (`apiKey`), the caller's own saved key (`stored`), or Ollama with neither. */
export type TestApiKeyInput = { provider: ProviderId; apiKey?: string; stored?: boolean };

export const testApiKey = ({ provider, apiKey = '', stored }: TestApiKeyInput) =>
  api.post<TestApiKeyResult>(
    '/functions/v1/test-api-key',
    stored ? { provider, stored: true } : { provider, apiKey },
  );

/** Used by the keys page and the admin key page: the outcome shows on the tested row. */
export const useTestApiKey = () => useMutation({ mutationFn: testApiKey });

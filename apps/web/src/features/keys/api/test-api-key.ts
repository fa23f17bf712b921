import { useMutation } from '@tanstack/react-query';
import type { TestApiKeyResult } from '@chorus/shared/api/keys';
import type { ProviderId } from '@chorus/shared/providers';
import { api } from '@/lib/api-client';

export const testApiKey = (input: { provider: ProviderId; apiKey: string }) =>
  api.post<TestApiKeyResult>('/functions/v1/test-api-key', input);

export const useTestApiKey = () => useMutation({ mutationFn: testApiKey });

import { expect, type APIRequestContext } from '@playwright/test';
import type { ProviderId } from '../../packages/shared/src/providers.ts';
import { baseURL } from './env.ts';

/**
 * Saves the signed-in user's key for `provider` through the REST API, as the API keys page does,
 * for tests whose subject is not that page. The simulator accepts any key without "invalid" in it.
 */
export const saveKeyThroughApi = async (
  request: APIRequestContext,
  provider: ProviderId,
  apiKey: string,
) => {
  const res = await request.put(`/rest/v1/api-keys/${provider}`, {
    data: { api_key: apiKey, model: null },
    headers: { origin: baseURL() },
  });
  expect(res.status(), `saving the ${provider} key: ${await res.text()}`).toBe(200);
};

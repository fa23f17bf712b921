import type { AuthedEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { testApiKey } from '../../keys/test-api-key.ts';
import { testApiKeyRoute } from './test-api-key.routes.ts';

export const testApiKeyRouter = createRouter<AuthedEnv>().openapi(testApiKeyRoute, async (c) => {
  const { provider, apiKey } = c.req.valid('json');
  const result = await testApiKey({
    provider,
    apiKey,
    baseUrls: c.var.deps.config.providerBaseUrls,
  });
  return c.json(result, 200);
});

import { messageFor } from '@chorus/shared/error-catalogue';
import { providers } from '@chorus/shared/providers';
import { UserApiKeysRepository } from '../../../db/repositories/api-keys.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { testApiKey } from '../../keys/test-api-key.ts';
import { testApiKeyRoute } from './test-api-key.routes.ts';

export const testApiKeyRouter = createRouter<AuthedEnv>().openapi(testApiKeyRoute, async (c) => {
  const { provider, apiKey, stored } = c.req.valid('json');
  let key = apiKey;
  if (stored) {
    // Only the caller's own key: the repository is scoped to them, and a granted default or a
    // system key is never opened for a test.
    const repo = new UserApiKeysRepository(c.var.deps.database.db, c.var.user.id);
    const [row] = await repo.sealedKeys([provider]);
    if (!row) {
      throw new ApiError(
        404,
        'keys:not_found',
        messageFor('keys:not_found', { provider: providers[provider].name, toTest: true }),
      );
    }
    key = c.var.deps.box.open(row.api_key);
  }
  const result = await testApiKey({
    provider,
    apiKey: key,
    baseUrls: c.var.deps.config.providerBaseUrls,
  });
  return c.json(result, 200);
});

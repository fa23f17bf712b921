import { AccessTokensRepository, toAccessToken } from '../../../db/repositories/access-tokens.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isUuid } from '../../../http/uuid.ts';
import {
  createAccessTokenRoute,
  listAccessTokensRoute,
  revokeAccessTokenRoute,
} from './access-tokens.routes.ts';

const repo = (c: { var: AuthedEnv['Variables'] }) =>
  new AccessTokensRepository(c.var.deps.database.db, c.var.user.id);

export const accessTokensRouter = createRouter<AuthedEnv>()
  .openapi(listAccessTokensRoute, async (c) =>
    c.json({ items: (await repo(c).list()).map(toAccessToken) }, 200),
  )
  .openapi(createAccessTokenRoute, async (c) => {
    const made = await repo(c).create(c.req.valid('json'));
    if (made === 'too_many') throw new ApiError(409, 'access_tokens:too_many');
    return c.json(made, 201);
  })
  .openapi(revokeAccessTokenRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id) || !(await repo(c).revoke(id))) {
      throw new ApiError(404, 'access_tokens:not_found');
    }
    return c.body(null, 204);
  });

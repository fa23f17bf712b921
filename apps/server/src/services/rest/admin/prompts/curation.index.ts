import type { LibraryKind } from '@chorus/shared/api/library';
import { CurationRepository } from '../../../../db/repositories/library.ts';
import type { AuthedEnv } from '../../../../http/app-env.ts';
import { ApiError } from '../../../../http/errors.ts';
import { createRouter } from '../../../../http/openapi.ts';
import { curationRoutes } from './curation.routes.ts';
import { messageFor } from '@chorus/shared/error-catalogue';

const notFound = (kind: LibraryKind) =>
  new ApiError(
    404,
    'library:not_found',
    messageFor('library:not_found', { kind: kind === 'prompts' ? 'prompt' : 'scenario' }),
  );

/** Admin curation of one collection; `/admin/prompts` and `/admin/scenarios` both use it. */
export const curationRouter = (kind: LibraryKind) => {
  const routes = curationRoutes(kind);
  const repo = (c: { var: AuthedEnv['Variables'] }) =>
    new CurationRepository(c.var.deps.database.db, c.var.user.id, kind);
  return createRouter<AuthedEnv>()
    .openapi(routes.list, async (c) => c.json(await repo(c).list(c.req.valid('query')), 200))
    .openapi(routes.create, async (c) => {
      const created = await repo(c).create(c.req.valid('json'));
      c.var.deps.log.info({ adminId: c.var.user.id, kind, id: created.id }, 'curated entry added');
      return c.json(created, 201);
    })
    .openapi(routes.curate, async (c) => {
      const { id } = c.req.valid('param');
      const entry = await repo(c).curate(id, c.req.valid('json'));
      if (!entry) throw notFound(kind);
      return c.json(entry, 200);
    })
    .openapi(routes.remove, async (c) => {
      const { id } = c.req.valid('param');
      if (!(await repo(c).remove(id))) throw notFound(kind);
      return c.body(null, 204);
    });
};

export const adminPromptsRouter = curationRouter('prompts');

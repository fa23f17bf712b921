import type { AdminCustomAi } from '@chorus/shared/api/custom-ais';
import {
  CustomAiCurationRepository,
  type CuratedCustomAi,
} from '../../../../db/repositories/custom-ais.ts';
import type { AuthedEnv } from '../../../../http/app-env.ts';
import { ApiError } from '../../../../http/errors.ts';
import { createRouter } from '../../../../http/openapi.ts';
import { toCustomAi } from '../../custom-ais/custom-ais.index.ts';
import {
  listAdminCustomAisRoute,
  publishCustomAiRoute,
  rejectCustomAiRoute,
} from './custom-ais.routes.ts';

/** The curators read what the public would (its instructions and model), and who shared it. */
const toAdminCustomAi = (
  { row, authorEmail }: CuratedCustomAi,
  adminId: string,
): AdminCustomAi => ({
  ...toCustomAi(row, adminId),
  user_id: row.user_id,
  author_email: authorEmail,
  featured: row.featured,
  share_requested_at: row.share_requested_at?.toISOString() ?? null,
  published_at: row.published_at?.toISOString() ?? null,
});

export const adminCustomAisRouter = createRouter<AuthedEnv>()
  .openapi(listAdminCustomAisRoute, async (c) => {
    const { status } = c.req.valid('query');
    const adminId = c.var.user.id;
    const rows = await new CustomAiCurationRepository(c.var.deps.database.db, adminId).list(status);
    return c.json({ custom_ais: rows.map((r) => toAdminCustomAi(r, adminId)) }, 200);
  })
  .openapi(publishCustomAiRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { featured } = c.req.valid('json');
    const adminId = c.var.user.id;
    const curated = await new CustomAiCurationRepository(c.var.deps.database.db, adminId).publish(
      id,
      featured,
    );
    if (!curated) throw new ApiError(404, 'custom_ais:not_shared');
    return c.json(toAdminCustomAi(curated, adminId), 200);
  })
  .openapi(rejectCustomAiRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { note } = c.req.valid('json');
    const adminId = c.var.user.id;
    const curated = await new CustomAiCurationRepository(c.var.deps.database.db, adminId).reject(
      id,
      note,
    );
    if (!curated) throw new ApiError(404, 'custom_ais:not_shared');
    return c.json(toAdminCustomAi(curated, adminId), 200);
  });

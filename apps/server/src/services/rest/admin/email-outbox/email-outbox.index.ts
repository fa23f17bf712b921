import type { Context } from 'hono';
import { EmailOutboxRepository } from '../../../../db/repositories/email-outbox.ts';
import { optOutTemplates } from '../../../../email/transport.ts';
import { unsubscribedAmong } from '../../../../db/repositories/unsubscribes.ts';
import type { AuthedEnv } from '../../../../http/app-env.ts';
import { ApiError } from '../../../../http/errors.ts';
import { createRouter } from '../../../../http/openapi.ts';
import {
  getEmailOutboxRoute,
  listEmailOutboxRoute,
  resendEmailOutboxRoute,
} from './email-outbox.routes.ts';
import { messageFor } from '@chorus/shared/error-catalogue';

const notFound = () => new ApiError(404, 'email:not_found');

/** Only a super admin reads users' own content in their mail; other admins read it hidden. */
const outbox = (c: Context<AuthedEnv>) =>
  new EmailOutboxRepository(c.var.deps.database.db, c.var.role === 'super_admin');

export const adminEmailOutboxRouter = createRouter<AuthedEnv>()
  .openapi(listEmailOutboxRoute, async (c) =>
    c.json(await outbox(c).list(c.req.valid('query')), 200),
  )
  .openapi(getEmailOutboxRoute, async (c) => {
    const mail = await outbox(c).find(c.req.valid('param').id);
    if (!mail) throw notFound();
    return c.json(mail, 200);
  })
  .openapi(resendEmailOutboxRoute, async (c) => {
    const { database, mailer, log } = c.var.deps;
    const repo = outbox(c);
    const { id } = c.req.valid('param');
    const mail = await repo.find(id);
    if (!mail) throw notFound();
    if (mail.template && optOutTemplates.has(mail.template)) {
      const out = await unsubscribedAmong(database.db, mail.to);
      if (out.size > 0) {
        throw new ApiError(
          409,
          'email:unsubscribed',
          messageFor('email:unsubscribed', { recipients: [...out] }),
        );
      }
    }
    const outcome = await mailer.resend(id);
    if (outcome === 'erased') {
      throw new ApiError(409, 'email:one_time_link');
    }
    await repo.auditResend(c.var.user.id, mail, outcome ?? 'missing');
    log.info({ adminId: c.var.user.id, outboxId: id, outcome }, 'email resent by an admin');
    const after = await repo.find(id);
    if (!after) throw notFound();
    return c.json(after, 200);
  });

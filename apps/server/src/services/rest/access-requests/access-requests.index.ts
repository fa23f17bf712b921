import { peopleMessages } from '@chorus/shared/messages';
import { emailHasAccount, submitAccessRequest } from '../../../db/repositories/access-requests.ts';
import type { AppEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { createAccessRequestRoute } from './access-requests.routes.ts';

export const accessRequestsRouter = createRouter<AppEnv>().openapi(
  createAccessRequestRoute,
  async (c) => {
    const db = c.var.deps.database.db;
    const body = c.req.valid('json');
    // Someone who has an account needs no invitation; the answer stays the same either way.
    if (!(await emailHasAccount(db, body.email))) {
      const { created } = await submitAccessRequest(db, body);
      if (created) c.var.deps.log.info('access request received');
    }
    return c.json({ message: peopleMessages.accessRequestReceived }, 202);
  },
);

import { peopleMessages } from '@chorus/shared/messages';
import type { AppEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { queueAccessRequest } from '../../../jobs/account-requests.ts';
import { createAccessRequestRoute } from './access-requests.routes.ts';

export const accessRequestsRouter = createRouter<AppEnv>().openapi(
  createAccessRequestRoute,
  async (c) => {
    // Queued, so the answer takes the same time whether or not the address has an account.
    await queueAccessRequest(c.var.deps, c.req.valid('json'));
    return c.json({ message: peopleMessages.accessRequestReceived }, 202);
  },
);

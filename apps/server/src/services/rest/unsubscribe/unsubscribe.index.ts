import { recordUnsubscribe } from '../../../email/unsubscribes.ts';
import { createRouter } from '../../../http/openapi.ts';
import { unsubscribeRoute } from './unsubscribe.routes.ts';

export const unsubscribeRouter = createRouter().openapi(unsubscribeRoute, async (c) => {
  const { email } = c.req.valid('json');
  const address = await recordUnsubscribe(c.var.deps.database.db, email);
  c.var.deps.log.info('an address unsubscribed');
  return c.json({ email: address, unsubscribed: true as const }, 200);
});

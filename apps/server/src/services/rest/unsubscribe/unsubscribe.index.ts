import { recordUnsubscribe } from '../../../db/repositories/unsubscribes.ts';
import { createUnsubscribeTokens } from '../../../email/unsubscribe-token.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { unsubscribeRoute } from './unsubscribe.routes.ts';

export const unsubscribeRouter = createRouter().openapi(unsubscribeRoute, async (c) => {
  const { email, token } = c.req.valid('json');
  if (!createUnsubscribeTokens(c.var.deps.config.authSecret).verify(email, token)) {
    throw new ApiError(403, 'email:unsubscribe_link');
  }
  const address = await recordUnsubscribe(c.var.deps.database.db, email);
  c.var.deps.log.info('an address unsubscribed');
  return c.json({ email: address, unsubscribed: true as const }, 200);
});

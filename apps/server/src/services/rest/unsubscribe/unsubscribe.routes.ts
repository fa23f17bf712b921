import { createRoute } from '@hono/zod-openapi';
import { unsubscribeRequestSchema, unsubscribeResponseSchema } from '@chorus/shared/api/email';
import { limitEmailByIp } from '../../../email/rate-limit.ts';
import { errorResponse, jsonContent } from '../../../http/openapi.ts';

export const unsubscribeRoute = createRoute({
  method: 'post',
  path: '/unsubscribe',
  tags: ['E-mail'],
  summary: 'Opt an address out of welcome and notification e-mail (public)',
  description:
    'Idempotent, and the same answer for any address (it tells nobody whether an account exists). Password-reset mail always goes. Limited per client address.',
  middleware: [limitEmailByIp('unsubscribe')] as const,
  request: {
    body: { content: { 'application/json': { schema: unsubscribeRequestSchema } }, required: true },
  },
  responses: {
    200: jsonContent(unsubscribeResponseSchema, 'The address is unsubscribed'),
    400: errorResponse('No valid e-mail address'),
    429: errorResponse('Too many requests from this address'),
  },
});

import { createRoute } from '@hono/zod-openapi';
import { unsubscribeRequestSchema, unsubscribeResponseSchema } from '@chorus/shared/api/email';
import { rateLimitByIp } from '../../../http/rate-limit.ts';
import { errorResponse, jsonContent } from '../../../http/openapi.ts';

export const unsubscribeRoute = createRoute({
  'x-access': 'public',
  method: 'post',
  path: '/unsubscribe',
  tags: ['E-mail'],
  summary: 'Opt an address out of welcome and notification e-mail (public)',
  description:
    'Idempotent, and the same answer for any address (it tells nobody whether an account exists). Password-reset mail always goes. Limited per client address.',
  middleware: [rateLimitByIp('email_unsubscribe')] as const,
  request: {
    body: { content: { 'application/json': { schema: unsubscribeRequestSchema } }, required: true },
  },
  responses: {
    200: jsonContent(unsubscribeResponseSchema, 'The address is unsubscribed'),
    400: errorResponse('No valid e-mail address, or no token'),
    403: errorResponse('The token does not belong to the address'),
    429: errorResponse('Too many requests from this address'),
  },
});

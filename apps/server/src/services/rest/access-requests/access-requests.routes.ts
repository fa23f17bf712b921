import { createRoute } from '@hono/zod-openapi';
import {
  accessRequestReceivedSchema,
  createAccessRequestSchema,
} from '@chorus/shared/api/access-requests';
import { errorResponse, jsonContent } from '../../../http/openapi.ts';
import { rateLimitByIp } from '../../../http/rate-limit.ts';

export const createAccessRequestRoute = createRoute({
  'x-access': 'public',
  method: 'post',
  path: '/access-requests',
  tags: ['Access requests'],
  summary: 'Ask for access to a workspace whose sign-up is by request (public)',
  description:
    'Rate-limited per client address. Asking again while a request is pending changes nothing. The answer is the same whether or not the address already has an account.',
  middleware: [rateLimitByIp('access_request')] as const,
  request: {
    body: {
      content: { 'application/json': { schema: createAccessRequestSchema } },
      required: true,
    },
  },
  responses: {
    202: jsonContent(accessRequestReceivedSchema, 'Received'),
    400: errorResponse('Invalid e-mail or missing reason'),
    429: errorResponse('Too many requests from this address'),
  },
});

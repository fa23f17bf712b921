import { createRoute } from '@hono/zod-openapi';
import { contactRequestSchema, contactResponseSchema } from '@chorus/shared/api/email';
import { rateLimitByIp } from '../../../http/rate-limit.ts';
import { errorResponse, jsonContent } from '../../../http/openapi.ts';

export const contactRoute = createRoute({
  'x-access': 'public',
  method: 'post',
  path: '/contact',
  tags: ['E-mail'],
  summary: 'The help page’s contact form (public)',
  description:
    'Sends the message to the support address (SUPPORT_EMAIL) with Reply-To set to the sender. Open to guests, limited per client address.',
  middleware: [rateLimitByIp('email_contact')] as const,
  request: {
    body: { content: { 'application/json': { schema: contactRequestSchema } }, required: true },
  },
  responses: {
    200: jsonContent(contactResponseSchema, 'Sent, or queued for sending'),
    400: errorResponse('A missing or invalid field'),
    429: errorResponse('Too many messages from this address'),
    502: errorResponse('The mail server refused the message'),
  },
});

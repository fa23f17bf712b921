import { createRoute } from '@hono/zod-openapi';
import {
  emailOutboxIdParamSchema,
  emailOutboxItemSchema,
  emailOutboxListSchema,
  emailOutboxQuerySchema,
} from '@chorus/shared/api/email';
import { errorResponse, jsonContent } from '../../../../http/openapi.ts';
import { adminOnly, adminRefusals } from '../admin-route.ts';

export const listEmailOutboxRoute = createRoute({
  ...adminOnly,
  method: 'get',
  path: '/admin/email-outbox',
  summary: 'Every e-mail Chorus wrote, newest first, optionally by status (admins only)',
  request: { query: emailOutboxQuerySchema },
  responses: {
    200: jsonContent(emailOutboxListSchema, 'A page of outbox rows and the total count'),
    400: errorResponse('Invalid query'),
    ...adminRefusals,
  },
});

export const getEmailOutboxRoute = createRoute({
  ...adminOnly,
  method: 'get',
  path: '/admin/email-outbox/{id}',
  summary: 'One outbox row with its HTML and text parts (admins only)',
  description:
    'One-time links always read `[hidden]`. A mail that holds a user’s own content (a run’s prompt and reply, the names they chose, their words in a mail to themselves) reads `[hidden: user content]` in its subject and body, with `content_hidden: true`, for every admin but a super admin; the list hides it the same way.',
  request: { params: emailOutboxIdParamSchema },
  responses: {
    200: jsonContent(emailOutboxItemSchema, 'The e-mail'),
    400: errorResponse('Not an outbox id'),
    ...adminRefusals,
    404: errorResponse('No such e-mail'),
  },
});

export const resendEmailOutboxRoute = createRoute({
  ...adminOnly,
  method: 'post',
  path: '/admin/email-outbox/{id}/resend',
  summary: 'Send an outbox row again now; written to the audit log (admins only)',
  request: { params: emailOutboxIdParamSchema },
  responses: {
    200: jsonContent(emailOutboxItemSchema, 'The e-mail after the attempt'),
    400: errorResponse('Not an outbox id'),
    ...adminRefusals,
    404: errorResponse('No such e-mail'),
    409: errorResponse(
      'The recipient unsubscribed from this kind of e-mail, or it held a one-time link already delivered',
    ),
  },
});

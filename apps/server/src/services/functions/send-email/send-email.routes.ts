import { createRoute } from '@hono/zod-openapi';
import { sendEmailRequestSchema, sendEmailResponseSchema } from '@chorus/shared/api/email';
import { rateLimitByUserOrIp } from '../../../http/rate-limit.ts';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

export const sendEmailRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/send-email',
  tags: ['E-mail'],
  summary: 'Send an e-mail (spec §7)',
  description: [
    'Either `{to, subject, html, text, from, replyTo}`, or a template by `type`: `password_reset` with `resetLink` (on APP_URL) and `userName`, or a run notification (`test_run`, `run_started` with `runName`; `run_completed` with `responseText`). `to` is one address or a list (templates: one).',
    'Signed-in users may write only to their own address or to the support address; admins to anyone. No open relay.',
    'The From header is always MAIL_FROM, so nobody can send as someone else. A caller’s `from` (or `replyTo`, which wins) becomes the Reply-To, under the same rule as recipients.',
  ].join('\n\n'),
  security: sessionCookie,
  middleware: [requireUser, rateLimitByUserOrIp('email_send')] as const,
  request: {
    body: { content: { 'application/json': { schema: sendEmailRequestSchema } }, required: true },
  },
  responses: {
    200: jsonContent(sendEmailResponseSchema, 'Written to the outbox; sent, or pending'),
    400: errorResponse('Missing fields or an invalid address (the spec’s messages)'),
    401: errorResponse('Not signed in'),
    403: errorResponse('A recipient or reply address the caller may not use'),
    429: errorResponse('Too many e-mails in a short time'),
  },
});

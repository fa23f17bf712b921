import { createRoute } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import {
  auditLogEntrySchema,
  auditLogsQuerySchema,
  auditLogsResponseSchema,
  createAuditLogSchema,
} from '@chorus/shared/api/audit-logs';
import { messageFor } from '@chorus/shared/error-catalogue';
import { isAdminRole } from '@chorus/shared/roles';
import type { AuthedEnv } from '../../../../http/app-env.ts';
import { ApiError } from '../../../../http/errors.ts';
import { errorResponse, jsonContent, sessionCookie } from '../../../../http/openapi.ts';
import { adminOnly, adminRefusals } from '../admin-route.ts';

/** Spec §6: a non-admin's write is refused with this exact sentence, before the body is read. */
const requireAdminToLog = createMiddleware<AuthedEnv>(async (c, next) => {
  if (!c.var.user) throw new ApiError(401, 'auth:required');
  if (!isAdminRole(c.var.role)) {
    throw new ApiError(
      403,
      'auth:forbidden',
      messageFor('auth:forbidden', { action: 'log admin action' }),
    );
  }
  await next();
});

export const listAuditLogsRoute = createRoute({
  method: 'get',
  path: '/admin/audit-logs',
  summary: 'The audit log of admin actions, newest first, filterable (admins only)',
  ...adminOnly,
  request: { query: auditLogsQuerySchema },
  responses: {
    200: jsonContent(auditLogsResponseSchema, 'A page of entries and the total count'),
    400: errorResponse('Invalid filter or page'),
    ...adminRefusals,
  },
});

export const createAuditLogRoute = createRoute({
  'x-access': 'admin',
  method: 'post',
  path: '/admin/audit-logs',
  tags: ['Admin'],
  summary: 'Write an entry to the audit log as the signed-in admin (spec §7)',
  description:
    "Anyone who is not an admin is refused with 403 'Not authorized to log admin action' (spec §6). The entry is stored with `posted_by_admin: true` under the admin's own id, so it never reads like one Chorus wrote when an admin changed something.",
  security: sessionCookie,
  middleware: [requireAdminToLog] as const,
  request: {
    body: { content: { 'application/json': { schema: createAuditLogSchema } }, required: true },
  },
  responses: {
    201: jsonContent(auditLogEntrySchema, 'The entry as stored'),
    400: errorResponse('Malformed entry'),
    401: errorResponse('Not signed in'),
    403: errorResponse('Not authorized to log admin action'),
  },
});

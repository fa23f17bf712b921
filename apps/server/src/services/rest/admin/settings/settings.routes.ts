import { createRoute } from '@hono/zod-openapi';
import { appSettingsSchema, putAppSettingsSchema } from '@chorus/shared/api/settings';
import { errorResponse, jsonContent, sessionCookie } from '../../../../http/openapi.ts';
import { requireRole } from '../../../../http/session.ts';

const refusals = {
  401: errorResponse('Not signed in'),
  403: errorResponse('Not a super admin'),
};

export const getSettingsRoute = createRoute({
  'x-access': 'super_admin',
  method: 'get',
  path: '/admin/settings',
  tags: ['Admin'],
  summary:
    'Workspace settings: sign-up mode, the sign-up notice and the allowed private hosts (super admins only)',
  security: sessionCookie,
  middleware: [requireRole('super_admin')] as const,
  responses: {
    200: jsonContent(appSettingsSchema, 'The current settings'),
    ...refusals,
  },
});

export const putSettingsRoute = createRoute({
  'x-access': 'super_admin',
  method: 'put',
  path: '/admin/settings',
  tags: ['Admin'],
  summary: 'Change workspace settings; each changed key is written to the audit log',
  description:
    '`signup_mode` `request` makes sign-up need an invitation from an approved access request; `open` lets anyone sign up. The notice is shown on the sign-in and request-access pages. `outbound_allow_hosts` lists private hosts (host names, addresses or CIDR ranges) that web fetch, HTTP tools and MCP servers may reach anyway, such as an intranet MCP server; empty by default. Cloud metadata addresses stay refused.',
  security: sessionCookie,
  middleware: [requireRole('super_admin')] as const,
  request: {
    body: { content: { 'application/json': { schema: putAppSettingsSchema } }, required: true },
  },
  responses: {
    200: jsonContent(appSettingsSchema, 'The settings after the change'),
    400: errorResponse(
      'Unknown mode, notice too long, an allowed host that is not a host name, address or range, or nothing to change',
    ),
    ...refusals,
  },
});

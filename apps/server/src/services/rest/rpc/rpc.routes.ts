import { createRoute } from '@hono/zod-openapi';
import { roleCheckRequestSchema, roleCheckResponseSchema } from '@chorus/shared/api/rpc';
import { jsonContent } from '../../../http/openapi.ts';

const roleCheck = (name: 'is_admin' | 'is_super_admin', role: string) =>
  createRoute({
    'x-access': 'public',
    method: 'post',
    path: `/rpc/${name}`,
    tags: ['Roles'],
    summary: `Whether a user is ${role}`,
    description:
      'Answers a JSON boolean. Any failure answers `false`: no session, a malformed body, an unknown id, or asking about another user without being an admin.',
    request: {
      body: {
        content: { 'application/json': { schema: roleCheckRequestSchema } },
        required: false,
      },
    },
    responses: { 200: jsonContent(roleCheckResponseSchema, 'true or false') },
  });

export const isAdminRoute = roleCheck('is_admin', 'an admin or super admin');
export const isSuperAdminRoute = roleCheck('is_super_admin', 'a super admin');

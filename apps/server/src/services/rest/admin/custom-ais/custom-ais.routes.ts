import { createRoute, z } from '@hono/zod-openapi';
import {
  adminCustomAiSchema,
  adminCustomAisQuerySchema,
  adminCustomAisResponseSchema,
  publishCustomAiSchema,
  rejectCustomAiSchema,
} from '@chorus/shared/api/custom-ais';
import { errorResponse, jsonContent } from '../../../../http/openapi.ts';
import { adminOnly, adminRefusals } from '../admin-route.ts';

const idParams = z.object({ id: z.uuid('Not an id') });
const json = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});

export const listAdminCustomAisRoute = createRoute({
  ...adminOnly,
  method: 'get',
  path: '/admin/custom-ais',
  summary: 'Custom AIs waiting for review, or published in /discover (admins only)',
  description:
    '`status=submitted` (the default): oldest request first; `status=published`: featured, then newest.',
  request: { query: adminCustomAisQuerySchema },
  responses: {
    200: jsonContent(adminCustomAisResponseSchema, 'The custom AIs, with their authors'),
    400: errorResponse('Invalid query'),
    ...adminRefusals,
  },
});

export const publishCustomAiRoute = createRoute({
  ...adminOnly,
  method: 'post',
  path: '/admin/custom-ais/{id}/publish',
  summary: 'Publish a shared custom AI in /discover, featured or not; written to the audit log',
  request: { params: idParams, ...json(publishCustomAiSchema) },
  responses: {
    200: jsonContent(adminCustomAiSchema, 'The custom AI, published'),
    400: errorResponse('Invalid input'),
    ...adminRefusals,
    404: errorResponse('Not waiting for review nor published (`custom_ais:not_shared`)'),
  },
});

export const rejectCustomAiRoute = createRoute({
  ...adminOnly,
  method: 'post',
  path: '/admin/custom-ais/{id}/reject',
  summary:
    'Send a shared custom AI back to its owner with a note (and out of /discover); written to the audit log',
  request: { params: idParams, ...json(rejectCustomAiSchema) },
  responses: {
    200: jsonContent(adminCustomAiSchema, 'The custom AI, not published'),
    400: errorResponse('Invalid input'),
    ...adminRefusals,
    404: errorResponse('Not waiting for review nor published (`custom_ais:not_shared`)'),
  },
});

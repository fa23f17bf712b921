import { createRoute } from '@hono/zod-openapi';
import { adminKeyAvailabilitySchema, providerRequestSchema } from '@chorus/shared/api/keys';
import { errorResponse, jsonContent, sessionCookie } from '../../http/openapi.ts';
import { requireUser } from '../../http/session.ts';

/** `get-default-api-key` and `get-system-api-key` (spec §7): availability and a masked hint. */
export const keyHintRoute = <P extends string>(path: P, summary: string) =>
  createRoute({
    'x-access': 'user',
    method: 'post',
    path,
    tags: ['Keys'],
    summary,
    description:
      '`api_key` is the masked hint (such as `sk-…a1b2`), never the key. A disabled provider answers `available: false`.',
    security: sessionCookie,
    middleware: [requireUser] as const,
    request: {
      body: { content: { 'application/json': { schema: providerRequestSchema } }, required: true },
    },
    responses: {
      200: jsonContent(adminKeyAvailabilitySchema, 'Availability and masked hint'),
      400: errorResponse('Unknown provider'),
      401: errorResponse('Not signed in'),
    },
  });

import { createRoute } from '@hono/zod-openapi';
import { aiProxyRequestSchema, aiProxyResponseSchema } from '@chorus/shared/api/conversations';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

export const aiApiProxyRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/ai-api-proxy',
  tags: ['Chat'],
  summary: 'One non-streaming model call (spec §7)',
  description:
    'Uses the key resolved for the signed-in user (own → default → system). An explicit `apiKey` is accepted except for OpenAI, Anthropic and Gemini, whose direct calls are not allowed (spec §5). `model` falls back to the provider default.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: {
    body: { content: { 'application/json': { schema: aiProxyRequestSchema } }, required: true },
  },
  responses: {
    200: jsonContent(aiProxyResponseSchema, 'The model’s answer'),
    400: errorResponse('Invalid input, a disallowed direct call, or no key available'),
    401: errorResponse('Not signed in'),
    403: errorResponse(
      'Refused by the plan (`quota:exceeded`, `quota:provider_not_allowed`, `quota:model_not_allowed`)',
    ),
    502: errorResponse('The provider failed'),
    504: errorResponse('The provider did not answer within `timeout`'),
  },
});

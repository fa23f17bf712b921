import { createRoute } from '@hono/zod-openapi';
import { trendsAskSchema } from '@chorus/shared/api/trends';
import { errorResponse, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

export const trendsAskRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/trends-ask',
  tags: ['Library'],
  summary: 'Ask a model about the trends; the answer streams back as plain text',
  description:
    'The question goes to a model with the caller’s own key, plan and daily quota (one prompt). The model is given the spec’s sample trend and scenario lists (stated as sample figures) and this instance’s real aggregates (`GET /rest/v1/trends`) as quoted data. `provider` defaults to the user’s default provider when a key serves it, else the first enabled provider with a stored key (their own, a default granted to them, or the system key), else OpenAI; `model` to the default model stored with the default provider, else the provider’s default.\n\n' +
    'The answer is `text/plain; charset=utf-8`, sent as it arrives. A provider failure before the first text is a JSON error (502 `provider:failed`, 504 `provider:timeout`); one after it ends the text early. Closing the connection stops the provider call.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: {
    body: { content: { 'application/json': { schema: trendsAskSchema } }, required: true },
  },
  responses: {
    200: {
      description: 'The answer as it streams (text/plain)',
      content: { 'text/plain': { schema: { type: 'string' } } },
    },
    400: errorResponse('Invalid input, or no key for the provider (`keys:missing`)'),
    401: errorResponse('Not signed in'),
    403: errorResponse(
      'Refused by the plan (`quota:exceeded`, `quota:provider_not_allowed`, `quota:model_not_allowed`)',
    ),
    429: errorResponse('Too many requests (`rate_limit:exceeded`)'),
    502: errorResponse('The provider failed before answering (`provider:failed`)'),
    504: errorResponse('The provider did not answer in time (`provider:timeout`)'),
  },
});

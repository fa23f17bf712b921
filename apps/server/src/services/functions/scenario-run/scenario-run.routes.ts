import { createRoute } from '@hono/zod-openapi';
import { scenarioRunRequestSchema, scenarioRunResponseSchema } from '@chorus/shared/api/scenarios';
import { errorResponse, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

export const scenarioRunRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/scenario-run',
  tags: ['Scenarios'],
  summary: 'Send one prompt to up to eight models at once and stream their answers side by side',
  description:
    'Runs a saved scenario (`scenario_id`; fields given beside it override the saved ones, variables value by value) or a setup given inline. Every model is called with the caller’s own keys, plan and daily quota; each counts one prompt. A model that cannot run (no key: `keys:missing`; over the quota: `quota:exceeded`; a model its provider does not offer: `provider:unknown_model`; a provider failure) fails in its own column while the others go on. The run is stored as it goes and can be read later from `/rest/v1/scenario-runs/{runId}`.\n\n' +
    'Streamed (the default) as NDJSON, one JSON object per line: `{"type":"start","run_id","targets":[{provider,model}]}`, then per column `{"type":"first_token","target","ttft_ms"}`, `{"type":"delta","target","text"}`… and `{"type":"result","target","result"}`, interleaved, and last `{"type":"end","run_id"}`. With `"stream": false`, one JSON answer once every column has ended.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: {
    body: {
      content: { 'application/json': { schema: scenarioRunRequestSchema } },
      required: true,
    },
  },
  responses: {
    200: {
      description: 'The run: NDJSON events (application/x-ndjson), or with `stream: false` JSON',
      content: {
        'application/x-ndjson': { schema: { type: 'string' } },
        'application/json': { schema: scenarioRunResponseSchema },
      },
    },
    400: errorResponse(
      'Invalid input, a variable with no value (`prompts:missing_variable`), or no models to compare (`scenarios:no_targets`)',
    ),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such scenario of the user (`scenarios:not_found`)'),
    429: errorResponse('Too many requests (`rate_limit:exceeded`)'),
  },
});

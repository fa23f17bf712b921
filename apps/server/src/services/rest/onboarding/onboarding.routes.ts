import { createRoute } from '@hono/zod-openapi';
import { onboardingSchema, updateOnboardingSchema } from '@chorus/shared/api/onboarding';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const signedIn = {
  'x-access': 'user' as const,
  tags: ['Onboarding'],
  security: sessionCookie,
  middleware: [requireUser] as [typeof requireUser],
};

const description =
  'Steps in order, each `done` by the user’s own data: `key` (a key for an enabled provider: their own, a default granted to them, or the system key; Ollama without a key does not count), `chat` (a reply stored in one of their conversations that is not an error), `prompt` (a prompt of their own) and `scenario` (a scenario run). Steps of areas this instance does not have yet (knowledge base, agents, scheduled runs) are left out; `completed` and `total` count the steps returned.';

export const getOnboardingRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/onboarding',
  summary: 'The signed-in user’s getting-started checklist',
  description,
  responses: {
    200: jsonContent(onboardingSchema, 'The checklist'),
    401: errorResponse('Not signed in'),
  },
});

export const updateOnboardingRoute = createRoute({
  ...signedIn,
  method: 'patch',
  path: '/onboarding',
  summary: 'Hide the getting-started checklist, or show it again',
  request: {
    body: {
      content: { 'application/json': { schema: updateOnboardingSchema } },
      required: true,
    },
  },
  responses: {
    200: jsonContent(onboardingSchema, 'The checklist as it is now'),
    400: errorResponse('Invalid input'),
    401: errorResponse('Not signed in'),
  },
});

import { createRoute } from '@hono/zod-openapi';
import { signupModeResponseSchema } from '@chorus/shared/api/settings';
import { jsonContent } from '../../../http/openapi.ts';

export const getSignupModeRoute = createRoute({
  'x-access': 'public',
  method: 'get',
  path: '/signup-mode',
  tags: ['Auth'],
  summary: 'Whether anyone may sign up (`open`) or only with an invitation (`request`); public',
  responses: {
    200: jsonContent(signupModeResponseSchema, 'The mode and the notice to show beside it'),
  },
});

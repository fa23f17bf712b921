import { createRoute } from '@hono/zod-openapi';
import { enabledProvidersSchema } from '@chorus/shared/api/keys';
import { jsonContent } from '../../../http/openapi.ts';

export const getEnabledProvidersRoute = createRoute({
  // Public: which providers an instance offers is no secret, and the home page shows it to guests.
  'x-access': 'public',
  method: 'post',
  path: '/get-enabled-providers',
  tags: ['Keys'],
  summary: 'The providers an admin has not disabled, in catalogue order',
  description:
    'No sign-in needed. Cached on the server for 60 s; an admin change takes effect at once.',
  responses: {
    200: jsonContent(enabledProvidersSchema, 'Enabled providers'),
  },
});

import { keyHintRoute } from '../../keys/key-hint-route.ts';

export const getSystemApiKeyRoute = keyHintRoute(
  '/get-system-api-key',
  'Whether a system key serves the provider, and its hint',
);

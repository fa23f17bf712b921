import { keyHintRoute } from '../../keys/key-hint-route.ts';

export const getDefaultApiKeyRoute = keyHintRoute(
  '/get-default-api-key',
  'Whether an admin default key granted to the user serves the provider, and its hint',
);

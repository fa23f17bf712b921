import { api } from '@/lib/api-client';

/** A path no route answers: the server says 404, so the request fails on purpose. */
export const missingResourcePath = '/rest/v1/error-telemetry-test/missing';

export const requestMissingResource = () => api.get<never>(missingResourcePath);

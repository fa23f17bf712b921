import { createRoute } from '@hono/zod-openapi';
import { ollamaModelsSchema } from '@chorus/shared/api/keys';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

export const ollamaModelsRoute = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/ollama-models',
  tags: ['Chat'],
  summary: 'The models installed on the Ollama server (its /api/tags), cached for a minute',
  description:
    "`source: server` lists what the server at OLLAMA_BASE_URL has installed; when it cannot be reached the catalogue's models come back with `source: catalogue`. The list is the server's, the same for everyone; no user's key is used.",
  security: sessionCookie,
  middleware: [requireUser] as const,
  responses: {
    200: jsonContent(ollamaModelsSchema, "The server's models, or the catalogue's"),
    401: errorResponse('Not signed in'),
  },
});

import { createRoute, z } from '@hono/zod-openapi';
import { openRouterModelsSchema, type OpenRouterModel } from '@chorus/shared/api/conversations';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter, errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const CACHE_MS = 10 * 60_000;
let cache: { at: number; baseUrl: string; models: OpenRouterModel[] } | undefined;

const upstreamSchema = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      name: z.string().optional(),
      description: z.string().optional(),
      context_length: z.number().nullable().optional(),
    }),
  ),
});

export const openRouterModelsRoute = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/openrouter-models',
  tags: ['Chat'],
  summary: "OpenRouter's live model list (cached 10 minutes)",
  security: sessionCookie,
  middleware: [requireUser] as const,
  responses: {
    200: jsonContent(openRouterModelsSchema, 'Models by id and name'),
    401: errorResponse('Not signed in'),
    502: errorResponse('OpenRouter could not be reached'),
  },
});

/** The catalogue is global, not per user, so one cached copy serves everyone. */
export const openRouterModelsRouter = createRouter<AuthedEnv>().openapi(
  openRouterModelsRoute,
  async (c) => {
    const baseUrl = c.var.deps.config.providerBaseUrls.openrouter;
    if (cache && cache.baseUrl === baseUrl && Date.now() - cache.at < CACHE_MS) {
      return c.json({ models: cache.models }, 200);
    }
    try {
      const res = await fetch(`${baseUrl}/models`, { signal: AbortSignal.timeout(10_000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const parsed = upstreamSchema.parse(await res.json());
      const models = parsed.data.map((m) => ({
        id: m.id,
        name: m.name ?? m.id,
        ...(m.description ? { description: m.description } : {}),
        context_length: m.context_length ?? null,
      }));
      cache = { at: Date.now(), baseUrl, models };
      return c.json({ models }, 200);
    } catch (error) {
      c.var.deps.log.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'openrouter model list failed',
      );
      throw new ApiError(502, 'openrouter:unavailable');
    }
  },
);

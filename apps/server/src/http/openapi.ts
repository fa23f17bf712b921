import type { z } from '@hono/zod-openapi';
import { OpenAPIHono } from '@hono/zod-openapi';
import { apiErrorSchema } from '@chorus/shared/api/errors';
import type { AppEnv } from './app-env.ts';
import { validationHook } from './errors.ts';

/** A router whose zod route definitions also feed the OpenAPI document. */
export const createRouter = <E extends AppEnv = AppEnv>() =>
  new OpenAPIHono<E>({ strict: false, defaultHook: validationHook });

export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

export const errorResponse = (description: string) => jsonContent(apiErrorSchema, description);

export const sessionCookie = [{ sessionCookie: [] }];

/** Routes a CI pipeline may call: the session cookie, or a personal access token (issue 20). */
export const sessionOrToken: Record<string, string[]>[] = [
  { sessionCookie: [] },
  { accessToken: [] },
];

import { createRoute, z } from '@hono/zod-openapi';
import {
  adminLibraryQuerySchema,
  adminPromptSchema,
  adminPromptsResponseSchema,
  adminScenarioSchema,
  adminScenariosResponseSchema,
  createLibraryPromptSchema,
  createLibraryScenarioSchema,
  curationPatchSchema,
  type LibraryKind,
} from '@chorus/shared/api/library';
import { errorResponse, jsonContent, sessionCookie } from '../../../../http/openapi.ts';
import { requireRole } from '../../../../http/session.ts';

const tags = ['Admin'];
const refusals = {
  401: errorResponse('Not signed in'),
  403: errorResponse('Not an admin'),
};
const idParams = z.object({ id: z.uuid('Not an id') });

const schemasOf = {
  prompts: {
    label: 'prompt library',
    item: adminPromptSchema,
    list: adminPromptsResponseSchema,
    create: createLibraryPromptSchema,
  },
  scenarios: {
    label: 'scenarios cookbook',
    item: adminScenarioSchema,
    list: adminScenariosResponseSchema,
    create: createLibraryScenarioSchema,
  },
} as const;

/** The four curation routes of one collection (`prompts` or `scenarios`). */
export const curationRoutes = <K extends LibraryKind>(kind: K) => {
  const s = schemasOf[kind];
  return {
    list: createRoute({
      method: 'get',
      path: `/admin/${kind}`,
      tags,
      summary: `Entries of the ${s.label} that authors shared or admins published (admins only)`,
      security: sessionCookie,
      middleware: [requireRole('admin')] as const,
      request: { query: adminLibraryQuerySchema },
      responses: {
        200: jsonContent(s.list as (typeof schemasOf)[K]['list'], 'A page of entries'),
        400: errorResponse('Invalid query'),
        ...refusals,
      },
    }),
    create: createRoute({
      method: 'post',
      path: `/admin/${kind}`,
      tags,
      summary: `Add a curated entry to the ${s.label}; written to the audit log`,
      security: sessionCookie,
      middleware: [requireRole('admin')] as const,
      request: {
        body: {
          content: { 'application/json': { schema: s.create as (typeof schemasOf)[K]['create'] } },
          required: true,
        },
      },
      responses: {
        201: jsonContent(s.item as (typeof schemasOf)[K]['item'], 'The new entry'),
        400: errorResponse('Invalid input'),
        ...refusals,
      },
    }),
    curate: createRoute({
      method: 'patch',
      path: `/admin/${kind}/{id}`,
      tags,
      summary: `Publish, unpublish or feature an entry of the ${s.label}; written to the audit log`,
      description: 'Featuring also publishes; unpublishing also unfeatures.',
      security: sessionCookie,
      middleware: [requireRole('admin')] as const,
      request: {
        params: idParams,
        body: { content: { 'application/json': { schema: curationPatchSchema } }, required: true },
      },
      responses: {
        200: jsonContent(s.item as (typeof schemasOf)[K]['item'], 'The entry'),
        400: errorResponse('Invalid input'),
        ...refusals,
        404: errorResponse('No such shared or published entry'),
      },
    }),
    remove: createRoute({
      method: 'delete',
      path: `/admin/${kind}/{id}`,
      tags,
      summary: `Delete an entry of the ${s.label}; written to the audit log`,
      security: sessionCookie,
      middleware: [requireRole('admin')] as const,
      request: { params: idParams },
      responses: {
        204: { description: 'Deleted' },
        400: errorResponse('Malformed id'),
        ...refusals,
        404: errorResponse('No such shared or published entry'),
      },
    }),
  };
};

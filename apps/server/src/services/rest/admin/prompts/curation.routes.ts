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
import { errorResponse, jsonContent } from '../../../../http/openapi.ts';
import { adminOnly, adminRefusals } from '../admin-route.ts';

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
      summary: `Entries of the ${s.label} that authors shared or admins published (admins only)`,
      ...adminOnly,
      request: { query: adminLibraryQuerySchema },
      responses: {
        200: jsonContent(s.list as (typeof schemasOf)[K]['list'], 'A page of entries'),
        400: errorResponse('Invalid query'),
        ...adminRefusals,
      },
    }),
    create: createRoute({
      method: 'post',
      path: `/admin/${kind}`,
      summary: `Add a curated entry to the ${s.label}; written to the audit log`,
      ...adminOnly,
      request: {
        body: {
          content: { 'application/json': { schema: s.create as (typeof schemasOf)[K]['create'] } },
          required: true,
        },
      },
      responses: {
        201: jsonContent(s.item as (typeof schemasOf)[K]['item'], 'The new entry'),
        400: errorResponse('Invalid input'),
        ...adminRefusals,
      },
    }),
    curate: createRoute({
      method: 'patch',
      path: `/admin/${kind}/{id}`,
      summary: `Publish, unpublish or feature an entry of the ${s.label}; written to the audit log`,
      description: 'Featuring also publishes; unpublishing also unfeatures.',
      ...adminOnly,
      request: {
        params: idParams,
        body: { content: { 'application/json': { schema: curationPatchSchema } }, required: true },
      },
      responses: {
        200: jsonContent(s.item as (typeof schemasOf)[K]['item'], 'The entry'),
        400: errorResponse('Invalid input'),
        ...adminRefusals,
        404: errorResponse('No such shared or published entry'),
      },
    }),
    remove: createRoute({
      method: 'delete',
      path: `/admin/${kind}/{id}`,
      summary: `Delete an entry of the ${s.label}; written to the audit log`,
      ...adminOnly,
      request: { params: idParams },
      responses: {
        204: { description: 'Deleted' },
        400: errorResponse('Malformed id'),
        ...adminRefusals,
        404: errorResponse('No such shared or published entry'),
      },
    }),
  };
};

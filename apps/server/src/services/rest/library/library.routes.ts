import { createRoute } from '@hono/zod-openapi';
import {
  libraryPromptsResponseSchema,
  libraryScenariosResponseSchema,
} from '@chorus/shared/api/library';
import { jsonContent } from '../../../http/openapi.ts';

export const libraryPromptsRoute = createRoute({
  'x-access': 'public',
  method: 'get',
  path: '/library/prompts',
  tags: ['Library'],
  summary: 'The public prompt library: published prompts, featured first (no sign-in needed)',
  responses: { 200: jsonContent(libraryPromptsResponseSchema, 'Published prompts') },
});

export const libraryScenariosRoute = createRoute({
  'x-access': 'public',
  method: 'get',
  path: '/library/scenarios',
  tags: ['Library'],
  summary: 'The scenarios cookbook: published scenarios, featured first (no sign-in needed)',
  responses: { 200: jsonContent(libraryScenariosResponseSchema, 'Published scenarios') },
});

import { createRoute, z } from '@hono/zod-openapi';
import {
  createFileLinkSchema,
  fileLinkSchema,
  filePageSchema,
  fileSchema,
  listFilesQuerySchema,
  storageUsageSchema,
  uploadFileQuerySchema,
} from '@chorus/shared/api/files';
import { acceptedFileTypeList } from '@chorus/shared/limits';
import { storageMessages } from '@chorus/shared/messages';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const tags = ['Storage'];
const idParam = z.object({ id: z.string().max(100) });
const binary = { type: 'string', format: 'binary' } as const;

/**
 * Plain OpenAPI schemas, not zod: a zod schema under `application/json` would make the router
 * parse (and buffer) the upload as JSON. The handler streams `c.req.raw.body` instead.
 */
const uploadBody = Object.fromEntries(
  acceptedFileTypeList.map((type) => [type, { schema: binary }]),
);

export const uploadFileRoute = createRoute({
  method: 'post',
  path: '/files',
  tags,
  summary: 'Upload a file: the request body is the file, streamed to storage',
  description: `The body is the file's bytes (not multipart), its type in \`Content-Type\` and its name in \`X-File-Name\` (percent-encoded UTF-8). Accepted types: ${storageMessages.acceptedTypes}; the first bytes must agree with the type. The plan's per-file limit and storage quota are enforced while the bytes stream: a file past either is refused with 413 and nothing is kept. \`conversation_id\` attaches the file to one of your conversations; deleting the conversation deletes it.`,
  'x-access': 'user',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: {
    query: uploadFileQuerySchema,
    headers: z.object({
      'x-file-name': z
        .string({ error: storageMessages.nameRequired })
        .min(1, storageMessages.nameRequired)
        .max(2000, storageMessages.nameRequired),
    }),
    body: { content: uploadBody, required: true },
  },
  responses: {
    201: jsonContent(fileSchema, 'The stored file'),
    400: errorResponse('No name, an empty file, or invalid parameters'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such conversation'),
    413: errorResponse('Larger than the plan allows for one file, or past the storage quota'),
    415: errorResponse('A type that is not accepted, or contents that do not match it'),
    503: errorResponse('Storage cannot be reached; nothing was stored'),
  },
});

export const listFilesRoute = createRoute({
  method: 'get',
  path: '/files',
  tags,
  summary: 'Your files, newest first, one page at a time',
  'x-access': 'user',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { query: listFilesQuerySchema },
  responses: {
    200: jsonContent(filePageSchema, 'A page; pass `next_cursor` as `cursor` for the next'),
    400: errorResponse('Invalid query or cursor'),
    401: errorResponse('Not signed in'),
  },
});

export const storageUsageRoute = createRoute({
  method: 'get',
  path: '/usage',
  tags,
  summary: 'How much you store, and what your plan allows',
  'x-access': 'user',
  security: sessionCookie,
  middleware: [requireUser] as const,
  responses: {
    200: jsonContent(storageUsageSchema, 'Bytes used, the limits of your plan, accepted types'),
    401: errorResponse('Not signed in'),
  },
});

export const getFileRoute = createRoute({
  method: 'get',
  path: '/files/{id}',
  tags,
  summary: 'One of your files',
  'x-access': 'user',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { params: idParam },
  responses: {
    200: jsonContent(fileSchema, 'The file'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such file'),
  },
});

export const deleteFileRoute = createRoute({
  method: 'delete',
  path: '/files/{id}',
  tags,
  summary: 'Delete one of your files: its bytes, then its record',
  'x-access': 'user',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { params: idParam },
  responses: {
    204: { description: 'Deleted' },
    401: errorResponse('Not signed in'),
    404: errorResponse('No such file'),
    503: errorResponse('Storage cannot be reached; the file was kept'),
  },
});

export const createFileLinkRoute = createRoute({
  method: 'post',
  path: '/files/{id}/link',
  tags,
  summary: 'A signed link that downloads the file without a session, for a few minutes',
  description:
    'The link expires after `expires_in` seconds (5 minutes unless asked, at most 1 hour). Anyone holding it can download the file until then.',
  'x-access': 'user',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: createFileLinkSchema } }, required: false },
  },
  responses: {
    200: jsonContent(fileLinkSchema, 'The link and when it expires'),
    400: errorResponse('Invalid input'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such file'),
  },
});

export const downloadObjectRoute = createRoute({
  method: 'get',
  path: '/object/{id}',
  tags,
  summary: 'Download through a signed link (from POST /storage/v1/files/{id}/link)',
  // No session: the link's signature is the permission.
  'x-access': 'public',
  description:
    'Streams the bytes with their type, as an attachment, with `X-Content-Type-Options: nosniff` and a sandboxing Content-Security-Policy so that no uploaded document can run in this origin. Honours a single `Range: bytes=` range.',
  request: {
    params: idParam,
    query: z.object({ exp: z.string().max(20).optional(), sig: z.string().max(100).optional() }),
  },
  responses: {
    200: { description: 'The file', content: { 'application/octet-stream': { schema: binary } } },
    206: {
      description: 'The asked range',
      content: { 'application/octet-stream': { schema: binary } },
    },
    403: errorResponse('The link is not valid, or has expired'),
    404: errorResponse('No such file'),
    416: errorResponse('The range lies outside the file'),
    503: errorResponse('Storage cannot be reached'),
  },
});

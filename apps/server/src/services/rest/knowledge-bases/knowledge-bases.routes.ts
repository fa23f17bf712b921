import { createRoute, z } from '@hono/zod-openapi';
import {
  createKnowledgeBaseSchema,
  knowledgeBaseListSchema,
  knowledgeBaseSchema,
  knowledgeChunkSchema,
  knowledgeDocumentListSchema,
  knowledgeDocumentSchema,
  knowledgeLimits,
  knowledgeTypesLabel,
  updateKnowledgeBaseSchema,
  uploadDocumentsResultSchema,
} from '@chorus/shared/api/knowledge';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const tags = ['Knowledge base'];
const idParam = z.object({ id: z.string().max(100) });
const documentParams = z.object({ id: z.string().max(100), documentId: z.string().max(100) });
const chunkParams = z.object({ id: z.string().max(100), chunkId: z.string().max(100) });
const json = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});
const signedIn = {
  'x-access': 'user' as const,
  tags,
  security: sessionCookie,
  middleware: [requireUser] as [typeof requireUser],
};

export const listKnowledgeBasesRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/knowledge-bases',
  summary: 'Your knowledge bases, newest first, with their counts and search mode',
  responses: {
    200: jsonContent(knowledgeBaseListSchema, 'Your knowledge bases'),
    401: errorResponse('Not signed in'),
  },
});

export const createKnowledgeBaseRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/knowledge-bases',
  summary: 'Create a knowledge base',
  description:
    'With an embedding provider and model, documents are embedded (on your key and quota) and searched by meaning and full text; with neither, by full text alone.',
  request: json(createKnowledgeBaseSchema),
  responses: {
    201: jsonContent(knowledgeBaseSchema, 'The new knowledge base'),
    400: errorResponse('Invalid fields, or an embedding model the provider does not have'),
    401: errorResponse('Not signed in'),
    409: errorResponse('As many knowledge bases as one may keep'),
  },
});

export const getKnowledgeBaseRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/knowledge-bases/{id}',
  summary: 'One of your knowledge bases',
  request: { params: idParam },
  responses: {
    200: jsonContent(knowledgeBaseSchema, 'The knowledge base'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such knowledge base of yours'),
  },
});

export const updateKnowledgeBaseRoute = createRoute({
  ...signedIn,
  method: 'patch',
  path: '/knowledge-bases/{id}',
  summary: 'Rename, describe, or change the embedding model (re-embeds as a job)',
  description:
    'A new embedding model re-embeds every document in the background; search keeps using the current vectors until the new ones are all there (`reembedding` shows progress).',
  request: { params: idParam, ...json(updateKnowledgeBaseSchema) },
  responses: {
    200: jsonContent(knowledgeBaseSchema, 'The knowledge base'),
    400: errorResponse('Invalid fields'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such knowledge base of yours'),
  },
});

export const deleteKnowledgeBaseRoute = createRoute({
  ...signedIn,
  method: 'delete',
  path: '/knowledge-bases/{id}',
  summary: 'Delete a knowledge base, its documents, their files, chunks and vectors',
  request: { params: idParam },
  responses: {
    204: { description: 'Deleted' },
    401: errorResponse('Not signed in'),
    404: errorResponse('No such knowledge base of yours'),
    503: errorResponse('Storage cannot be reached; nothing was deleted'),
  },
});

export const listDocumentsRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/knowledge-bases/{id}/documents',
  summary: 'The documents of a knowledge base, newest first, with their status and progress',
  request: { params: idParam },
  responses: {
    200: jsonContent(knowledgeDocumentListSchema, 'The documents'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such knowledge base of yours'),
  },
});

/** A plain OpenAPI body: the handler streams the multipart request itself. */
export const uploadDocumentsRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/knowledge-bases/{id}/documents',
  summary: 'Upload documents (multipart, field `files`, several at once)',
  description: `Accepted: ${knowledgeTypesLabel}; at most ${knowledgeLimits.filesPerUpload} files, each within your plan's file size and storage quota, PDFs of at most ${knowledgeLimits.maxPages} pages. Each file is answered on its own: queued, duplicate (the same bytes are in the base already), or refused with its reason. When every file is refused, the answer is the first refusal's error.`,
  request: {
    params: idParam,
    body: {
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { files: { type: 'array', items: { type: 'string', format: 'binary' } } },
          },
        },
      },
      required: true,
    },
  },
  responses: {
    200: jsonContent(uploadDocumentsResultSchema, 'What became of each file'),
    400: errorResponse('Not multipart, or no files'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such knowledge base of yours'),
    413: errorResponse(
      'Too many files, a file too large, past the storage quota, or too many pages',
    ),
    415: errorResponse('A type a knowledge base does not read'),
    503: errorResponse('Storage cannot be reached; nothing was stored'),
  },
});

export const deleteDocumentRoute = createRoute({
  ...signedIn,
  method: 'delete',
  path: '/knowledge-bases/{id}/documents/{documentId}',
  summary: 'Delete a document: its file, chunks and vectors go with it',
  request: { params: documentParams },
  responses: {
    204: { description: 'Deleted' },
    401: errorResponse('Not signed in'),
    404: errorResponse('No such document'),
    503: errorResponse('Storage cannot be reached; the document was kept'),
  },
});

export const retryDocumentRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/knowledge-bases/{id}/documents/{documentId}/retry',
  summary: 'Read a failed document again',
  request: { params: documentParams },
  responses: {
    200: jsonContent(knowledgeDocumentSchema, 'The document, queued again'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such failed document'),
  },
});

export const getChunkRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/knowledge-bases/{id}/chunks/{chunkId}',
  summary: 'One passage of a document (what a citation opens)',
  request: { params: chunkParams },
  responses: {
    200: jsonContent(knowledgeChunkSchema, 'The passage'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such passage'),
  },
});

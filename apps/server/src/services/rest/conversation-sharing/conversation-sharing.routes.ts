import { createRoute, z } from '@hono/zod-openapi';
import {
  conversationExportSchema,
  exportConversationQuerySchema,
  shareCreatedSchema,
  sharedConversationSchema,
  shareStatusSchema,
} from '@chorus/shared/api/conversation-sharing';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { rateLimitByIp } from '../../../http/rate-limit.ts';
import { requireUser } from '../../../http/session.ts';

const tags = ['Conversations'];
const idParam = z.object({ id: z.string().max(100) });

export const exportConversationRoute = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/conversations/{id}/export',
  tags,
  summary: 'Download a conversation as Markdown or JSON',
  description:
    'An attachment named after the title, with every current message oldest first (answers replaced by a regenerate are left out; a failed reply keeps its error). `format=json` answers version 1 of the `chorus.conversation` format.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { params: idParam, query: exportConversationQuerySchema },
  responses: {
    200: {
      description: 'The conversation as a file',
      content: {
        'text/markdown': { schema: { type: 'string' } },
        'application/json': { schema: conversationExportSchema },
      },
    },
    400: errorResponse('Unknown format'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such conversation'),
  },
});

export const createShareRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/conversations/{id}/share',
  tags,
  summary: 'Create a read-only link to the conversation as it is now (replaces the active one)',
  description:
    'The link shows the messages written so far, never later ones. The token is answered only here: the server keeps its SHA-256 alone. A link created before stops working.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { params: idParam },
  responses: {
    201: jsonContent(shareCreatedSchema, 'The link, shown this once'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such conversation'),
    409: errorResponse('No finished message to share yet'),
  },
});

export const shareStatusRoute = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/conversations/{id}/share',
  tags,
  summary: 'Whether the conversation has an active share link, since when, and what it shows',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { params: idParam },
  responses: {
    200: jsonContent(shareStatusSchema, 'The active link, without its token'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such conversation'),
  },
});

export const revokeShareRoute = createRoute({
  'x-access': 'user',
  method: 'delete',
  path: '/conversations/{id}/share',
  tags,
  summary: 'Stop sharing: the active link stops working at once',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { params: idParam },
  responses: {
    204: { description: 'No link of the conversation works any more' },
    401: errorResponse('Not signed in'),
    404: errorResponse('No such conversation'),
  },
});

export const sharedConversationRoute = createRoute({
  'x-access': 'public',
  method: 'get',
  path: '/shared/{token}',
  tags,
  summary: 'A shared conversation, read-only (public; limited per client address)',
  description:
    'The title and the shared messages (role, text, provider, model, time), nothing about the person who shared them. A revoked, replaced or unknown link answers 404.',
  middleware: [rateLimitByIp('shared_chat_view')] as const,
  request: { params: z.object({ token: z.string().max(200) }) },
  responses: {
    200: jsonContent(sharedConversationSchema, 'The shared conversation'),
    404: errorResponse('The link does not work (any more)'),
    429: errorResponse('Too many shared chats opened from this address'),
  },
});

import { createRoute, z } from '@hono/zod-openapi';
import {
  conversationPageSchema,
  conversationSchema,
  createConversationSchema,
  createMessageSchema,
  listConversationsQuerySchema,
  latestMessagesQuerySchema,
  listMessagesQuerySchema,
  messagePageSchema,
  messageSchema,
  updateConversationSchema,
} from '@chorus/shared/api/conversations';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { rateLimitConversationCreate } from '../../../http/rate-limit.ts';
import { requireUser } from '../../../http/session.ts';

const tags = ['Conversations'];
const idParam = z.object({ id: z.string().max(100) });
const json = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});

export const listConversationsRoute = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/conversations',
  tags,
  summary:
    'The signed-in user’s conversations, pinned first, then newest first, one page at a time',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { query: listConversationsQuerySchema },
  responses: {
    200: jsonContent(conversationPageSchema, 'A page; pass `next_cursor` as `cursor` for the next'),
    400: errorResponse('Invalid query or cursor'),
    401: errorResponse('Authentication required - please sign in again'),
  },
});

export const createConversationRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/conversations',
  tags,
  summary:
    "Start a conversation ('New Conversation' without a title, 'New Chat' + time when empty)",
  security: sessionCookie,
  middleware: [requireUser, rateLimitConversationCreate] as const,
  request: json(createConversationSchema),
  responses: {
    201: jsonContent(conversationSchema, 'The new conversation'),
    400: errorResponse('Invalid input'),
    401: errorResponse('Not signed in'),
    429: errorResponse('Too many conversations created in a minute'),
  },
});

export const updateConversationRoute = createRoute({
  'x-access': 'user',
  method: 'patch',
  path: '/conversations/{id}',
  tags,
  summary: 'Rename, pin or unpin a conversation',
  description:
    'Send `title`, `pinned` or both. Pinned conversations head the list, most recently pinned first; pinning one already pinned keeps its place.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { params: idParam, ...json(updateConversationSchema) },
  responses: {
    200: jsonContent(conversationSchema, 'The conversation as it is now'),
    400: errorResponse('Invalid input'),
    401: errorResponse('Authentication required'),
    404: errorResponse('No such conversation'),
  },
});

export const deleteConversationRoute = createRoute({
  'x-access': 'user',
  method: 'delete',
  path: '/conversations/{id}',
  tags,
  summary: 'Delete a conversation with its messages (all or nothing)',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { params: idParam },
  responses: {
    204: { description: 'Deleted' },
    401: errorResponse('Not signed in'),
    404: errorResponse('No such conversation'),
  },
});

export const listMessagesRoute = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/conversations/{id}/messages',
  tags,
  summary: 'Messages of a conversation in the order written (pages of at most 200)',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { params: idParam, query: listMessagesQuerySchema },
  responses: {
    200: jsonContent(z.array(messageSchema), 'A page of messages'),
    400: errorResponse('Invalid query'),
    401: errorResponse('Authentication required'),
    404: errorResponse('No such conversation'),
  },
});

export const latestMessagesRoute = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/conversations/{id}/messages/latest',
  tags,
  summary: 'The newest messages of a conversation, then older pages (at most 200 each)',
  description:
    'Opening a chat shows its newest messages first. Each page is in write order; pass its `older_cursor` as `before` for the page written before it.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { params: idParam, query: latestMessagesQuerySchema },
  responses: {
    200: jsonContent(messagePageSchema, 'A page of messages and the cursor to the one before'),
    400: errorResponse('Invalid query or cursor'),
    401: errorResponse('Authentication required'),
    404: errorResponse('No such conversation'),
  },
});

export const createMessageRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/conversations/{id}/messages',
  tags,
  summary: 'Add a message to a conversation',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { params: idParam, ...json(createMessageSchema) },
  responses: {
    201: jsonContent(messageSchema, 'The stored message'),
    400: errorResponse('Invalid input'),
    401: errorResponse('Authentication required'),
    404: errorResponse('No such conversation'),
  },
});

export const selectMessageVersionRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/messages/{id}/select',
  tags,
  summary: 'Make a version of an answer the current one',
  description:
    'A regenerate keeps the earlier answers as versions. The selected version is shown, sent as ' +
    'context with the next message, exported and shared; the others stay as versions.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { params: idParam },
  responses: {
    200: jsonContent(messageSchema, 'The selected version, now current'),
    401: errorResponse('Authentication required'),
    404: errorResponse('No such answer'),
  },
});

import { createRoute, z } from '@hono/zod-openapi';
import {
  createWidgetSchema,
  updateWidgetSchema,
  widgetConversationSchema,
  widgetListSchema,
  widgetSchema,
  widgetSessionListSchema,
  widgetSessionsQuerySchema,
  widgetUsageQuerySchema,
  widgetUsageSchema,
  widgetVisitorSchema,
  widgetWithSecretSchema,
} from '@chorus/shared/api/widgets';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const idParam = z.object({ id: z.string().max(100) });
const conversationParams = z.object({
  id: z.string().max(100),
  conversationId: z.string().max(100),
});
const visitorParams = z.object({ id: z.string().max(100), visitorId: z.string().max(100) });
const json = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});
const signedIn = {
  'x-access': 'user' as const,
  tags: ['Widgets'],
  security: sessionCookie,
  middleware: [requireUser] as [typeof requireUser],
};
const notSignedIn = errorResponse('Not signed in');
const notYours = errorResponse('No such widget of yours (`widgets:not_found`)');
const invalid = errorResponse(
  'Invalid fields (`bad_request:validation`): an origin with a path or a wildcard other than a leading `*.`, a daily budget above the monthly one, and so on; or text that cannot be stored (`request:invalid_text`)',
);
const badTarget = errorResponse(
  'The agent or custom AI is not one of yours (`widgets:target_not_found`), or no such widget of yours (`widgets:not_found`)',
);
const badTool = errorResponse(
  'An allowed tool is not one of the agent’s tools, or it needs approval (`widgets:unknown_tool`); a custom AI has no tools',
);

export const listWidgetsRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/widgets',
  summary: 'Your widgets, newest first, with their usage today and this month',
  responses: {
    200: jsonContent(widgetListSchema, 'Your widgets'),
    401: notSignedIn,
  },
});

export const createWidgetRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/widgets',
  summary: 'Make a widget from one of your agents or custom AIs',
  description:
    'The answer holds the signing secret for visitor tokens (`secret`): it is shown this once, then only its first characters (`secret_hint`). Origins are kept normalised (lower case, no default port, each once); an empty list means no site may embed the widget. Allowed tools are keys of the agent’s tools whose approval is `never`.',
  request: json(createWidgetSchema),
  responses: {
    201: jsonContent(widgetWithSecretSchema, 'The new widget, with its secret shown once'),
    400: invalid,
    401: notSignedIn,
    404: errorResponse('The agent or custom AI is not one of yours (`widgets:target_not_found`)'),
    409: errorResponse('As many widgets as one may keep (`widgets:too_many`)'),
    422: badTool,
  },
});

export const getWidgetRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/widgets/{id}',
  summary: 'One of your widgets',
  description:
    'The secret is never in it, only `secret_hint`. When its agent or custom AI was deleted, `target` is `{ kind: "agent", id: "", name: null }` and the widget answers visitors that it is unavailable until another target is set.',
  request: { params: idParam },
  responses: {
    200: jsonContent(widgetSchema, 'The widget'),
    401: notSignedIn,
    404: notYours,
  },
});

export const updateWidgetRoute = createRoute({
  ...signedIn,
  method: 'patch',
  path: '/widgets/{id}',
  summary: 'Change a widget',
  description:
    'Only the fields sent change; inside `appearance` and `budget` too. A new target without `allowed_tools` keeps the allowed tools the new agent has without approval and drops the others.',
  request: { params: idParam, ...json(updateWidgetSchema) },
  responses: {
    200: jsonContent(widgetSchema, 'The widget'),
    400: invalid,
    401: notSignedIn,
    404: badTarget,
    422: badTool,
  },
});

export const deleteWidgetRoute = createRoute({
  ...signedIn,
  method: 'delete',
  path: '/widgets/{id}',
  summary: 'Remove a widget: it stops at once',
  description:
    'Its visitors, their sessions, conversations and usage go with it; the snippet then shows the “unavailable” message.',
  request: { params: idParam },
  responses: {
    204: { description: 'Removed' },
    401: notSignedIn,
    404: notYours,
  },
});

export const rotateWidgetSecretRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/widgets/{id}/secret',
  summary: 'Replace the signing secret for visitor tokens',
  description:
    'The new secret is in the answer, shown this once; tokens signed with the old one are refused from now on.',
  request: { params: idParam },
  responses: {
    200: jsonContent(widgetWithSecretSchema, 'The widget, with its new secret shown once'),
    401: notSignedIn,
    404: notYours,
  },
});

export const listWidgetSessionsRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/widgets/{id}/sessions',
  summary: 'The conversations of a widget’s visitors, most recently active first',
  description:
    '`q` finds conversations with a message holding every word of it (each as the start of a word); `snippet` is then a line of the matching message. One page at a time: pass `next_cursor` as `cursor`.',
  request: { params: idParam, query: widgetSessionsQuerySchema },
  responses: {
    200: jsonContent(widgetSessionListSchema, 'A page of conversations'),
    400: errorResponse(
      'Invalid query, or a cursor this server did not write (`widgets:bad_cursor`)',
    ),
    401: notSignedIn,
    404: notYours,
  },
});

export const getWidgetSessionRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/widgets/{id}/sessions/{conversationId}',
  summary: 'One conversation of a widget’s visitor, with its messages in order',
  request: { params: conversationParams },
  responses: {
    200: jsonContent(widgetConversationSchema, 'The conversation'),
    401: notSignedIn,
    404: errorResponse(
      'No such widget of yours (`widgets:not_found`), or no such conversation of it (`widgets:conversation_not_found`)',
    ),
  },
});

const visitorNotFound = errorResponse(
  'No such widget of yours (`widgets:not_found`), or no such visitor of it (`widgets:visitor_not_found`)',
);

export const blockWidgetVisitorRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/widgets/{id}/visitors/{visitorId}/block',
  summary: 'Block a visitor of a widget',
  description:
    'Every session of theirs is refused at once, however old; a blocked visitor cannot start another or send a message until unblocked. For 24 hours no new anonymous visitor is let in from the network address the blocked one last came from (kept as a keyed hash, never the address), which also turns away others sharing that address. Blocking again changes nothing.',
  request: { params: visitorParams },
  responses: {
    200: jsonContent(widgetVisitorSchema, 'The visitor'),
    401: notSignedIn,
    404: visitorNotFound,
  },
});

export const unblockWidgetVisitorRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/widgets/{id}/visitors/{visitorId}/unblock',
  summary: 'Let a blocked visitor of a widget chat again',
  request: { params: visitorParams },
  responses: {
    200: jsonContent(widgetVisitorSchema, 'The visitor'),
    401: notSignedIn,
    404: visitorNotFound,
  },
});

export const widgetUsageRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/widgets/{id}/usage',
  summary: 'A widget’s use per day',
  description:
    'One row per UTC day of the last `days` days, oldest first, today last, days without use included: messages, tokens, and the visitors who wrote that day.',
  request: { params: idParam, query: widgetUsageQuerySchema },
  responses: {
    200: jsonContent(widgetUsageSchema, 'The days'),
    400: errorResponse('Invalid query'),
    401: notSignedIn,
    404: notYours,
  },
});

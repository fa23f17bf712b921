import { createRoute, z } from '@hono/zod-openapi';
import {
  publicWidgetConfigSchema,
  startVisitorSessionSchema,
  visitorSessionSchema,
  widgetChatSchema,
  widgetConversationSchema,
} from '@chorus/shared/api/widgets';
import { errorResponse, jsonContent } from '../http/openapi.ts';

const tags = ['Widget (public)'];
const widgetParam = z.object({ publicId: z.string().max(100) });
/** The iframe's bearer session (POST session answers it); never a cookie. */
export const widgetSession = [{ widgetSession: [] }];

const embedderHeader = z.object({
  'x-chorus-embedder': z
    .string()
    .max(2_000)
    .optional()
    .openapi({ description: 'The origin of the page the iframe sits in.' }),
});

export const widgetConfigRoute = createRoute({
  'x-access': 'public',
  method: 'get',
  path: '/{publicId}/config',
  tags,
  summary: 'What the loader needs to draw a widget (public)',
  description:
    'Title, colour, greeting and position. Answers `Access-Control-Allow-Origin` only to an origin on the widget’s list (or the app’s own), with `Vary: Origin`. A widget that is unknown, switched off or removed answers 404 `widgets:unavailable`.',
  request: { params: widgetParam },
  responses: {
    200: jsonContent(publicWidgetConfigSchema, 'The widget’s public settings'),
    404: errorResponse('No such widget, or it is switched off'),
  },
});

export const widgetSessionRoute = createRoute({
  'x-access': 'public',
  method: 'post',
  path: '/{publicId}/session',
  tags,
  summary: 'Start or resume a visitor session (public; the iframe’s first call)',
  description:
    'The server mints the session (32 random bytes; only its SHA-256 is kept) and the visitor: a `session` from an earlier answer resumes its visitor, a `visitor_token` (HS256 JWT signed with the widget’s secret: `widget`, `visitor_id`, `name`, `exp` at most 24 hours ahead) names a signed visitor, whose conversations follow them across devices. The page the iframe sits in (`X-Chorus-Embedder`) must be on the widget’s allowed origins, or be the app itself. No cookie is read or set.',
  request: {
    params: widgetParam,
    headers: embedderHeader,
    body: {
      content: { 'application/json': { schema: startVisitorSessionSchema } },
      required: true,
    },
  },
  responses: {
    200: jsonContent(visitorSessionSchema, 'The session, the visitor and their conversations'),
    400: errorResponse('A malformed request'),
    401: errorResponse(
      'A visitor token that is not valid (`widgets:bad_visitor_token`), or none where one is required (`widgets:signed_visitor_required`)',
    ),
    403: errorResponse('The site is not allowed, or the visitor is blocked'),
    404: errorResponse('No such widget, or it is switched off'),
    413: errorResponse('The request is too large'),
    429: errorResponse('Too many sessions started from this address'),
  },
});

export const widgetConversationRoute = createRoute({
  'x-access': 'public',
  method: 'get',
  path: '/{publicId}/conversations/{id}',
  tags,
  summary: 'One of the visitor’s own conversations with its messages (public, bearer session)',
  description:
    'Only a conversation of the session’s visitor with this widget; any other answers 404 `widgets:conversation_not_found`.',
  security: widgetSession,
  request: {
    params: widgetParam.extend({ id: z.string().max(100) }),
    headers: embedderHeader,
  },
  responses: {
    200: jsonContent(widgetConversationSchema, 'The conversation'),
    401: errorResponse('No valid session of this widget'),
    403: errorResponse('The site is not allowed, or the visitor is blocked'),
    404: errorResponse('No such conversation of this visitor, or no such widget'),
  },
});

export const widgetChatRoute = createRoute({
  'x-access': 'public',
  method: 'post',
  path: '/{publicId}/chat',
  tags,
  summary: 'Send a visitor’s message; the reply streams (public, bearer session)',
  description:
    'Server-sent events, one JSON `WidgetStreamEvent` per `data:` line: `start` (conversation and message ids), `sources` (knowledge cited), `delta`, then `done` or `error` (its message is for the visitor). Checks before the stream, each a JSON error: the widget and its agent or custom AI (404 `widgets:unavailable`), the session (401), the site (403), a blocked visitor (403), the rate limits per visitor, widget and address (429 with Retry-After), the daily and monthly token budgets (403 `widgets:budget_exhausted` once spent, and the owner gets one e-mail per period; 429 `widgets:busy` with Retry-After while the room left is held by replies in flight — each reply holds its maximum until it ends, so a budget is passed by one reply at most), the owner’s keys and quota (403 `widgets:unavailable`). Replies run on the owner’s keys and quota.',
  security: widgetSession,
  request: {
    params: widgetParam,
    headers: embedderHeader,
    body: { content: { 'application/json': { schema: widgetChatSchema } }, required: true },
  },
  responses: {
    200: {
      description: 'The reply as server-sent events',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    },
    400: errorResponse('A malformed request'),
    401: errorResponse('No valid session of this widget'),
    403: errorResponse(
      'The site is not allowed, the visitor is blocked, or the widget is over its budget',
    ),
    404: errorResponse('No such widget or conversation'),
    413: errorResponse('The request is too large'),
    429: errorResponse('Too many messages, or the budget’s room is held by replies in flight'),
  },
});

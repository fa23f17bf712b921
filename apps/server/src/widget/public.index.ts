import { bodyLimit } from 'hono/body-limit';
import { messageFor } from '@chorus/shared/error-catalogue';
import type { WidgetConversationBrief, WidgetMessage } from '@chorus/shared/api/widgets';
import type { AppEnv } from '../http/app-env.ts';
import { clientIp } from '../http/client-ip.ts';
import { ApiError, errorBody } from '../http/errors.ts';
import { createRouter } from '../http/openapi.ts';
import { isUuid } from '../http/uuid.ts';
import { refuseInvalidText } from '../http/valid-text.ts';
import { replyMaximum, reserveBudget } from './budget.ts';
import { originOf } from './origins.ts';
import {
  widgetChatRoute,
  widgetConfigRoute,
  widgetConversationRoute,
  widgetSessionRoute,
} from './public.routes.ts';
import { spendMessage, spendSessionStart } from './rate-limits.ts';
import { streamReply, visitorSources } from './reply.ts';
import { visitorAddressHash } from './visitor-address.ts';
import {
  checkEmbedder,
  checkNotBlocked,
  embedderAllowed,
  liveWidget,
  publicConfig,
  sessionVisitor,
  startSession,
  widgetTarget,
} from './session.ts';
import {
  lastMessages,
  releaseHold,
  slideSession,
  visitorConversation,
  visitorConversations,
  type VisitorRow,
  type WidgetMessageRow,
  type WidgetRow,
} from './store.ts';

/** Messages a visitor's conversation shows at most (the newest). */
const SHOWN_MESSAGES = 200;

const conversationNotFound = () => new ApiError(404, 'widgets:conversation_not_found');

const visitorOut = (v: VisitorRow) => ({
  id: v.id,
  external_id: v.external_id,
  name: v.name,
  signed: v.signed,
  blocked: v.blocked_at !== null,
  created_at: v.created_at.toISOString(),
  last_seen_at: v.last_seen_at.toISOString(),
});

// A reply its server was cut off from is failed by the sweep within a minute (ADR 018).
const messageOut = (widget: WidgetRow, m: WidgetMessageRow): WidgetMessage => ({
  id: m.id,
  role: m.role,
  content: m.content,
  sources: visitorSources(widget, m.sources as WidgetMessage['sources']),
  status: m.status,
  created_at: m.created_at.toISOString(),
});

const snippetOf = (messages: WidgetMessageRow[]) =>
  (messages.at(-1)?.content ?? '').replace(/\s+/g, ' ').trim().slice(0, 200);

/**
 * The public widget API (`/widget/v1`, issue 21), used by the embed iframe. No app session
 * middleware runs here and no cookie is read or set: a visitor is known only by the bearer
 * session this API minted. Every request reads the widget afresh, so switching it off or
 * removing it stops it at once.
 */
export const widgetPublicRouter = createRouter<AppEnv>();

widgetPublicRouter.use(
  '*',
  async (c, next) => {
    await next();
    // A visitor's answers are theirs alone, and never carry a cookie of the app.
    c.res.headers.delete('set-cookie');
    if (!c.res.headers.has('cache-control')) c.res.headers.set('cache-control', 'no-store');
  },
  bodyLimit({
    maxSize: 64 * 1024,
    onError: (c) =>
      c.json(
        errorBody(
          messageFor('request:too_large', {
            subject: 'The request body',
            limit: '64 KB',
            fix: 'Send a shorter message',
          }),
          'request:too_large',
        ),
        413,
      ),
  }),
  refuseInvalidText({ jsonBody: true }),
);

widgetPublicRouter.openAPIRegistry.registerComponent('securitySchemes', 'widgetSession', {
  type: 'http',
  scheme: 'bearer',
  description: 'A widget visitor session, answered by POST /widget/v1/{publicId}/session.',
});

widgetPublicRouter
  .openapi(widgetConfigRoute, async (c) => {
    const { deps } = c.var;
    const widget = await liveWidget(deps, c.req.valid('param').publicId);
    c.header('Vary', 'Origin');
    const origin = c.req.header('origin');
    if (origin !== undefined && embedderAllowed(deps, widget, origin)) {
      c.header('Access-Control-Allow-Origin', originOf(origin) ?? 'null');
    }
    return c.json(publicConfig(widget), 200);
  })
  .openapi(widgetSessionRoute, async (c) => {
    const { deps } = c.var;
    const widget = await liveWidget(deps, c.req.valid('param').publicId);
    await widgetTarget(deps, widget);
    checkEmbedder(c, widget);
    await spendSessionStart(deps, clientIp(c, deps.config.trustProxy));
    const { visitor, token } = await startSession(
      deps,
      widget,
      c.req.valid('json'),
      clientIp(c, deps.config.trustProxy),
    );
    const conversations = await visitorConversations(deps.database.db, widget.id, visitor.id);
    return c.json(
      {
        session: token,
        visitor: { name: visitor.name, signed: visitor.signed },
        config: publicConfig(widget),
        conversations: conversations.map((conv) => ({
          id: conv.id,
          title: conv.title,
          updated_at: conv.updated_at.toISOString(),
        })),
      },
      200,
    );
  })
  .openapi(widgetConversationRoute, async (c) => {
    const { deps } = c.var;
    const { publicId, id } = c.req.valid('param');
    const widget = await liveWidget(deps, publicId);
    const { visitor } = await sessionVisitor(c, widget);
    checkEmbedder(c, widget);
    checkNotBlocked(visitor);
    if (!isUuid(id)) throw conversationNotFound();
    const db = deps.database.db;
    const conversation = await visitorConversation(db, widget.id, visitor.id, id);
    if (!conversation) throw conversationNotFound();
    const messages = await lastMessages(db, conversation.id, SHOWN_MESSAGES);
    const brief: WidgetConversationBrief = {
      id: conversation.id,
      visitor: visitorOut(visitor),
      title: conversation.title,
      message_count: conversation.message_count,
      snippet: snippetOf(messages),
      input_tokens: conversation.input_tokens,
      output_tokens: conversation.output_tokens,
      created_at: conversation.created_at.toISOString(),
      updated_at: conversation.updated_at.toISOString(),
    };
    return c.json({ ...brief, messages: messages.map((m) => messageOut(widget, m)) }, 200);
  })
  .openapi(widgetChatRoute, async (c) => {
    const { deps } = c.var;
    const body = c.req.valid('json');
    const widget = await liveWidget(deps, c.req.valid('param').publicId);
    const { visitor, token } = await sessionVisitor(c, widget);
    const target = await widgetTarget(deps, widget);
    checkEmbedder(c, widget);
    checkNotBlocked(visitor);
    await spendMessage(deps, {
      widgetId: widget.id,
      visitorId: visitor.id,
      perHour: widget.messages_per_visitor_hour,
      ip: clientIp(c, deps.config.trustProxy),
    });
    const db = deps.database.db;
    const hold = await reserveBudget(
      deps,
      widget,
      replyMaximum(widget, target, { message: body.message, conversationId: body.conversation_id }),
    );
    try {
      if (
        body.conversation_id !== null &&
        !(await visitorConversation(db, widget.id, visitor.id, body.conversation_id))
      ) {
        throw conversationNotFound();
      }
      await slideSession(
        db,
        token,
        visitor,
        visitorAddressHash(deps.config.authSecret, widget.id, clientIp(c, deps.config.trustProxy)),
      );
      return (await streamReply(deps, {
        widget,
        visitor,
        target,
        conversationId: body.conversation_id,
        message: body.message,
        hold,
        signal: c.req.raw.signal,
      })) as never;
    } catch (error) {
      // The reply never started: its hold goes back whole (a stale one would be released anyway).
      await releaseHold(db, hold).catch((err: unknown) =>
        deps.log.warn({ err, widgetId: widget.id }, 'a widget budget hold could not be released'),
      );
      throw error;
    }
  });

/** Any other path under /widget/v1: a JSON 404, not the web app's page. */
widgetPublicRouter.all('*', (c) =>
  c.json(
    errorBody(
      messageFor('http:not_found', { endpoint: `${c.req.method} ${c.req.path}` }),
      'http:not_found',
    ),
    404,
  ),
);

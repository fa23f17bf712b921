import { randomBytes, randomInt } from 'node:crypto';
import { messageFor } from '@chorus/shared/error-catalogue';
import { searchWords } from '@chorus/shared/message-search';
import {
  widgetLimits,
  widgetPositions,
  type Widget,
  type WidgetAppearance,
  type WidgetConversationBrief,
  type WidgetMessage,
  type WidgetVisitor,
  type WidgetWithSecret,
} from '@chorus/shared/api/widgets';
import {
  WidgetsRepository,
  type WidgetConversationBriefRow,
  type WidgetFields,
  type WidgetMessageRow,
  type WidgetSessionsCursor,
  type WidgetTarget,
  type WidgetView,
  type WidgetVisitorRow,
} from '../../../db/repositories/widgets.ts';
import type { AuthedEnv, Deps } from '../../../http/app-env.ts';
import { ApiError, errorBody } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isUuid } from '../../../http/uuid.ts';
import { withinUserLimit } from '../../../quota/user-limits.ts';
import { normaliseOrigin } from '../../../widget/origins.ts';
import { checkToolArguments } from '../../../widget/tool-arguments.ts';
import {
  blockWidgetVisitorRoute,
  createWidgetRoute,
  deleteWidgetRoute,
  getWidgetRoute,
  getWidgetSessionRoute,
  listWidgetSessionsRoute,
  listWidgetsRoute,
  rotateWidgetSecretRoute,
  unblockWidgetVisitorRoute,
  updateWidgetRoute,
  widgetUsageRoute,
} from './widgets.routes.ts';

const widgetNotFound = () => new ApiError(404, 'widgets:not_found');

// --- Identifiers and secrets

const base62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `wgt_` and 20 random letters and digits (`widgetPublicIdPattern`): about 119 bits. */
const newPublicId = (): string =>
  `wgt_${Array.from({ length: 20 }, () => base62[randomInt(base62.length)]).join('')}`;

/** The HS256 key the host site's server signs visitor tokens with: 256 random bits. */
const newSecret = (deps: Deps) => {
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  return { secret, secret_sealed: deps.box.seal(secret), secret_hint: `${secret.slice(0, 10)}…` };
};

// --- Allowed origins

/** A 400 like the one zod's refusals get, one sentence per field. */
const refusalOf = (issues: { path: string; message: string }[]) =>
  errorBody(messageFor('bad_request:validation', { issues }), 'bad_request:validation');

/** The normalised, deduplicated origins; or the 400 naming each bad one. */
const originsOf = (
  given: string[],
): { origins: string[] } | { refusal: ReturnType<typeof refusalOf> } => {
  const issues: { path: string; message: string }[] = [];
  const origins: string[] = [];
  given.forEach((origin, i) => {
    const checked = normaliseOrigin(origin);
    if (checked.problem !== undefined) {
      issues.push({ path: `allowed_origins.${i}`, message: checked.problem });
    } else if (!origins.includes(checked.origin)) {
      origins.push(checked.origin);
    }
  });
  return issues.length ? { refusal: refusalOf(issues) } : { origins };
};

// --- Target and tools

/** The agent's tools a visitor's reply may use: those that never wait for approval. */
const toolsWithoutApproval = (target: WidgetTarget | null): Set<string> =>
  new Set(
    target?.kind === 'agent'
      ? target.tools.filter((t) => t.approval === 'never').map((t) => t.tool)
      : [],
  );

const checkTools = (target: WidgetTarget | null, tools: readonly string[]) => {
  const allowed = toolsWithoutApproval(target);
  if (tools.some((tool) => !allowed.has(tool))) throw new ApiError(422, 'widgets:unknown_tool');
};

// --- Answers

/**
 * A widget whose agent or custom AI was deleted has neither id any more (the foreign keys set
 * them null) and nothing says which it was: its target reads `{ kind: 'agent', id: '',
 * name: null }`, and the owner picks another.
 */
const targetOf = (row: WidgetView): Widget['target'] =>
  row.agent_id
    ? { kind: 'agent', id: row.agent_id, name: row.target_name }
    : row.custom_ai_id
      ? { kind: 'custom_ai', id: row.custom_ai_id, name: row.target_name }
      : { kind: 'agent', id: '', name: null };

const appearanceOf = (stored: Record<string, unknown>): WidgetAppearance => {
  const s = stored as Partial<WidgetAppearance>;
  return {
    title: typeof s.title === 'string' ? s.title : '',
    color: typeof s.color === 'string' ? s.color : '#4f46e5',
    greeting: typeof s.greeting === 'string' ? s.greeting : '',
    position: widgetPositions.includes(s.position as never)
      ? (s.position as WidgetAppearance['position'])
      : 'bottom-right',
  };
};

/** The tag the owner pastes into their site. */
const widgetSnippet = (appUrl: string, publicId: string) =>
  `<script src="${appUrl}/embed.js" data-widget="${publicId}" async></script>`;

const toWidget = (row: WidgetView, appUrl: string): Widget => ({
  id: row.id,
  public_id: row.public_id,
  name: row.name,
  target: targetOf(row),
  allowed_origins: row.allowed_origins,
  appearance: appearanceOf(row.appearance),
  budget: {
    messages_per_visitor_hour: row.messages_per_visitor_hour,
    daily_tokens: row.daily_tokens,
    monthly_tokens: row.monthly_tokens,
    max_reply_tokens: row.max_reply_tokens,
  },
  require_signed_visitors: row.require_signed_visitors,
  allowed_tools: row.allowed_tools,
  tool_arguments: row.tool_arguments,
  show_sources: row.show_sources,
  enabled: row.enabled,
  secret_hint: row.secret_hint,
  usage: {
    tokens_today: row.tokens_today,
    tokens_this_month: row.tokens_this_month,
    messages_today: row.messages_today,
  },
  snippet: widgetSnippet(appUrl, row.public_id),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const toVisitor = (row: WidgetVisitorRow): WidgetVisitor => ({
  id: row.id,
  external_id: row.external_id,
  name: row.name,
  signed: row.signed,
  blocked: row.blocked_at !== null,
  created_at: row.created_at.toISOString(),
  last_seen_at: row.last_seen_at.toISOString(),
});

const lineLength = 160;

/**
 * One line of a message for the list: its whitespace collapsed, around the first word searched
 * for when there is one, else from its start.
 */
const snippetOf = (text: string | null, words: readonly string[] = []): string => {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  if (flat.length <= lineLength) return flat;
  const lower = flat.toLowerCase();
  const at = words
    .map((w) => lower.indexOf(w))
    .filter((i) => i >= 0)
    .reduce((a, b) => Math.min(a, b), Infinity);
  const start = Number.isFinite(at) ? Math.max(0, Math.min(at - 40, flat.length - lineLength)) : 0;
  const end = start + lineLength;
  return `${start > 0 ? '…' : ''}${flat.slice(start, end).trim()}${end < flat.length ? '…' : ''}`;
};

const toBrief = (
  row: WidgetConversationBriefRow,
  words: readonly string[] = [],
): WidgetConversationBrief => ({
  id: row.id,
  visitor: toVisitor(row.visitor),
  title: row.title,
  message_count: row.message_count,
  snippet: snippetOf(row.line, words),
  input_tokens: row.input_tokens,
  output_tokens: row.output_tokens,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const toSources = (stored: unknown[]): WidgetMessage['sources'] =>
  stored.flatMap((s) => {
    if (!s || typeof s !== 'object') return [];
    const source = s as { document?: unknown; position?: unknown; text?: unknown };
    return [
      {
        document: typeof source.document === 'string' ? source.document : '',
        position: typeof source.position === 'string' ? source.position : null,
        text: typeof source.text === 'string' ? source.text : '',
      },
    ];
  });

const toMessage = (row: WidgetMessageRow): WidgetMessage => ({
  id: row.id,
  role: row.role,
  content: row.content,
  sources: toSources(row.sources),
  status: row.status,
  created_at: row.created_at.toISOString(),
});

// --- Cursors of the session list: `updated_at` to the microsecond, then the id

const positionPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const encodeSessionsCursor = (row: WidgetSessionsCursor) =>
  Buffer.from(`${row.position}|${row.id}`).toString('base64url');

/** Null for anything this server did not write. */
const decodeSessionsCursor = (cursor: string): WidgetSessionsCursor | null => {
  const [position = '', id = '', ...rest] = Buffer.from(cursor, 'base64url')
    .toString('utf8')
    .split('|');
  if (rest.length || !positionPattern.test(position) || !isUuid(id)) return null;
  // A date that does not exist (Feb 30, hour 24) or year 0 would make PostgreSQL fail the query.
  const ms = `${position.slice(0, 23)}Z`;
  const at = new Date(ms);
  if (Number.isNaN(at.getTime()) || at.getTime() < 0 || at.toISOString() !== ms) return null;
  return { position, id };
};

// --- Changes

/** The keys a JSON body gave inside `field`, so a change of one budget value keeps the others. */
const givenKeys = (body: unknown, field: string): Set<string> => {
  const inner = body && typeof body === 'object' ? (body as Record<string, unknown>)[field] : null;
  return new Set(inner && typeof inner === 'object' ? Object.keys(inner) : []);
};

const pick = <T extends object>(given: T, keys: Set<string>): Partial<T> =>
  Object.fromEntries(Object.entries(given).filter(([k]) => keys.has(k))) as Partial<T>;

export const widgetsRouter = createRouter<AuthedEnv>()
  .openapi(listWidgetsRoute, async (c) => {
    const { deps, user } = c.var;
    const rows = await new WidgetsRepository(deps.database.db, user.id).list();
    return c.json({ items: rows.map((row) => toWidget(row, deps.config.appUrl)) }, 200);
  })
  .openapi(createWidgetRoute, async (c) => {
    const { deps, user } = c.var;
    const body = c.req.valid('json');
    const checked = originsOf(body.allowed_origins);
    if ('refusal' in checked) return c.json(checked.refusal, 400);
    const repo = new WidgetsRepository(deps.database.db, user.id);
    const target = await repo.target(body.target);
    if (!target) throw new ApiError(404, 'widgets:target_not_found');
    checkTools(target, body.allowed_tools);
    const toolArguments = await checkToolArguments(
      deps,
      user.id,
      body.allowed_tools,
      body.tool_arguments,
    );
    const { secret, ...sealed } = newSecret(deps);
    // Counted and stored under the user's lock: two saves at once cannot both take the last place.
    const row = await withinUserLimit(deps.database.db, 'widgets', user.id, async (tx) => {
      const own = new WidgetsRepository(tx, user.id);
      if ((await own.count()) >= widgetLimits.perUser) throw new ApiError(409, 'widgets:too_many');
      return own.create({
        public_id: newPublicId(),
        name: body.name,
        agent_id: body.target.agent_id,
        custom_ai_id: body.target.custom_ai_id,
        allowed_origins: checked.origins,
        appearance: body.appearance,
        ...body.budget,
        require_signed_visitors: body.require_signed_visitors,
        allowed_tools: [...new Set(body.allowed_tools)],
        tool_arguments: toolArguments,
        show_sources: body.show_sources,
        enabled: body.enabled,
        ...sealed,
      });
    });
    const view = await repo.view(row.id);
    if (!view) throw widgetNotFound();
    const answer: WidgetWithSecret = { ...toWidget(view, deps.config.appUrl), secret };
    return c.json(answer, 201);
  })
  .openapi(getWidgetRoute, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw widgetNotFound();
    const row = await new WidgetsRepository(deps.database.db, user.id).view(id);
    if (!row) throw widgetNotFound();
    return c.json(toWidget(row, deps.config.appUrl), 200);
  })
  .openapi(updateWidgetRoute, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw widgetNotFound();
    const patch = c.req.valid('json');
    const raw: unknown = await c.req.json().catch(() => null);
    const repo = new WidgetsRepository(deps.database.db, user.id);
    const current = await repo.get(id);
    if (!current) throw widgetNotFound();
    const changes: Partial<WidgetFields> = {};

    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.allowed_origins !== undefined) {
      const checked = originsOf(patch.allowed_origins);
      if ('refusal' in checked) return c.json(checked.refusal, 400);
      changes.allowed_origins = checked.origins;
    }
    if (patch.appearance !== undefined) {
      changes.appearance = {
        ...appearanceOf(current.appearance),
        ...pick(patch.appearance, givenKeys(raw, 'appearance')),
      };
    }
    if (patch.budget !== undefined) {
      const budget = {
        messages_per_visitor_hour: current.messages_per_visitor_hour,
        daily_tokens: current.daily_tokens,
        monthly_tokens: current.monthly_tokens,
        max_reply_tokens: current.max_reply_tokens,
        ...pick(patch.budget, givenKeys(raw, 'budget')),
      };
      if (budget.daily_tokens > budget.monthly_tokens) {
        return c.json(
          refusalOf([
            { path: 'budget', message: 'The daily budget cannot be above the monthly one' },
          ]),
          400,
        );
      }
      Object.assign(changes, budget);
    }
    if (patch.require_signed_visitors !== undefined) {
      changes.require_signed_visitors = patch.require_signed_visitors;
    }
    if (patch.enabled !== undefined) changes.enabled = patch.enabled;
    if (patch.show_sources !== undefined) changes.show_sources = patch.show_sources;

    if (
      patch.target !== undefined ||
      patch.allowed_tools !== undefined ||
      patch.tool_arguments !== undefined
    ) {
      const target = patch.target
        ? await repo.target(patch.target)
        : await repo.target({ agent_id: current.agent_id, custom_ai_id: current.custom_ai_id });
      if (patch.target) {
        if (!target) throw new ApiError(404, 'widgets:target_not_found');
        changes.agent_id = patch.target.agent_id;
        changes.custom_ai_id = patch.target.custom_ai_id;
      }
      if (patch.allowed_tools !== undefined) {
        checkTools(target, patch.allowed_tools);
        changes.allowed_tools = [...new Set(patch.allowed_tools)];
      } else {
        const allowed = toolsWithoutApproval(target);
        changes.allowed_tools = current.allowed_tools.filter((tool) => allowed.has(tool));
      }
      // Rules of tools no longer allowed are dropped; new ones are checked.
      changes.tool_arguments = await checkToolArguments(
        deps,
        user.id,
        changes.allowed_tools,
        patch.tool_arguments ?? current.tool_arguments,
      );
    }

    if (!(await repo.update(id, changes))) throw widgetNotFound();
    const row = await repo.view(id);
    if (!row) throw widgetNotFound();
    return c.json(toWidget(row, deps.config.appUrl), 200);
  })
  .openapi(deleteWidgetRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw widgetNotFound();
    const repo = new WidgetsRepository(c.var.deps.database.db, c.var.user.id);
    if (!(await repo.remove(id))) throw widgetNotFound();
    return c.body(null, 204);
  })
  .openapi(rotateWidgetSecretRoute, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw widgetNotFound();
    const repo = new WidgetsRepository(deps.database.db, user.id);
    const { secret, ...sealed } = newSecret(deps);
    if (!(await repo.update(id, sealed))) throw widgetNotFound();
    const row = await repo.view(id);
    if (!row) throw widgetNotFound();
    const answer: WidgetWithSecret = { ...toWidget(row, deps.config.appUrl), secret };
    return c.json(answer, 200);
  })
  .openapi(listWidgetSessionsRoute, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    const { q, limit, cursor } = c.req.valid('query');
    if (!isUuid(id)) throw widgetNotFound();
    const after = cursor === undefined ? undefined : decodeSessionsCursor(cursor);
    if (after === null) throw new ApiError(400, 'widgets:bad_cursor');
    const repo = new WidgetsRepository(deps.database.db, user.id);
    if (!(await repo.get(id))) throw widgetNotFound();
    const words = q ? searchWords(q) : [];
    // A query of no letters or digits finds nothing rather than everything.
    if (q && words.length === 0) return c.json({ items: [], next_cursor: null }, 200);
    const rows = await repo.conversations(id, { limit: limit + 1, after, words });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return c.json(
      {
        items: page.map((row) => toBrief(row, words)),
        next_cursor: rows.length > limit && last ? encodeSessionsCursor(last) : null,
      },
      200,
    );
  })
  .openapi(getWidgetSessionRoute, async (c) => {
    const { deps, user } = c.var;
    const { id, conversationId } = c.req.valid('param');
    if (!isUuid(id)) throw widgetNotFound();
    const repo = new WidgetsRepository(deps.database.db, user.id);
    if (!(await repo.get(id))) throw widgetNotFound();
    const found = isUuid(conversationId) ? await repo.conversation(id, conversationId) : null;
    if (!found) throw new ApiError(404, 'widgets:conversation_not_found');
    return c.json({ ...toBrief(found.brief), messages: found.messages.map(toMessage) }, 200);
  })
  .openapi(blockWidgetVisitorRoute, async (c) => {
    const { deps, user } = c.var;
    const { id, visitorId } = c.req.valid('param');
    if (!isUuid(id)) throw widgetNotFound();
    const repo = new WidgetsRepository(deps.database.db, user.id);
    if (!(await repo.get(id))) throw widgetNotFound();
    const visitor = isUuid(visitorId) ? await repo.block(id, visitorId, true) : null;
    if (!visitor) throw new ApiError(404, 'widgets:visitor_not_found');
    return c.json(toVisitor(visitor), 200);
  })
  .openapi(unblockWidgetVisitorRoute, async (c) => {
    const { deps, user } = c.var;
    const { id, visitorId } = c.req.valid('param');
    if (!isUuid(id)) throw widgetNotFound();
    const repo = new WidgetsRepository(deps.database.db, user.id);
    if (!(await repo.get(id))) throw widgetNotFound();
    const visitor = isUuid(visitorId) ? await repo.block(id, visitorId, false) : null;
    if (!visitor) throw new ApiError(404, 'widgets:visitor_not_found');
    return c.json(toVisitor(visitor), 200);
  })
  .openapi(widgetUsageRoute, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    const { days } = c.req.valid('query');
    if (!isUuid(id)) throw widgetNotFound();
    const repo = new WidgetsRepository(deps.database.db, user.id);
    if (!(await repo.get(id))) throw widgetNotFound();
    return c.json({ days: await repo.usage(id, days) }, 200);
  });

import type { Context } from 'hono';
import {
  widgetPositions,
  widgetPublicIdPattern,
  widgetUnavailableMessage,
  type PublicWidgetConfig,
} from '@chorus/shared/api/widgets';
import { AgentsRepository, type AgentRow } from '../db/repositories/agents.ts';
import { CustomAisRepository, type CustomAiRow } from '../db/repositories/custom-ais.ts';
import type { AppEnv, Deps } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';
import { originAllowed, originOf } from './origins.ts';
import {
  addressBlocked,
  createAnonymousVisitor,
  findWidget,
  mintSession,
  slideSession,
  upsertSignedVisitor,
  visitorOfSession,
  type VisitorRow,
  type WidgetRow,
} from './store.ts';
import { BLOCKED_ADDRESS_HOURS, visitorAddressHash } from './visitor-address.ts';
import { verifyVisitorToken } from './visitor-token.ts';

/** Unknown, switched off or removed, or its agent or custom AI is gone: all read alike. */
const unavailable = () => new ApiError(404, 'widgets:unavailable', widgetUnavailableMessage);

/** The widget as stored now, if it exists and is switched on. */
export const liveWidget = async (deps: Deps, publicId: string): Promise<WidgetRow> => {
  const widget = widgetPublicIdPattern.test(publicId)
    ? await findWidget(deps.database.db, publicId)
    : null;
  if (!widget || !widget.enabled) throw unavailable();
  return widget;
};

export type WidgetTarget =
  { kind: 'agent'; agent: AgentRow } | { kind: 'custom_ai'; customAi: CustomAiRow };

/** The owner's agent or custom AI the widget answers with; unavailable when it was deleted. */
export const widgetTarget = async (deps: Deps, widget: WidgetRow): Promise<WidgetTarget> => {
  if (widget.agent_id) {
    const agent = await new AgentsRepository(deps.database.db, widget.user_id).get(widget.agent_id);
    if (agent) return { kind: 'agent', agent };
  } else if (widget.custom_ai_id) {
    const customAi = await new CustomAisRepository(deps.database.db, widget.user_id).get(
      widget.custom_ai_id,
    );
    if (customAi) return { kind: 'custom_ai', customAi };
  }
  throw unavailable();
};

/** What the loader and the iframe need to draw the widget; nothing about its owner. */
export const publicConfig = (widget: WidgetRow): PublicWidgetConfig => {
  const a = widget.appearance;
  const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
  const color = text(a.color, '#4f46e5');
  const position = text(a.position, 'bottom-right');
  return {
    public_id: widget.public_id,
    title: text(a.title, widget.name),
    color: /^#[0-9a-fA-F]{6}$/.test(color) ? color : '#4f46e5',
    greeting: text(a.greeting, ''),
    position: (widgetPositions as readonly string[]).includes(position)
      ? (position as PublicWidgetConfig['position'])
      : 'bottom-right',
    require_signed_visitors: widget.require_signed_visitors,
  };
};

/** The app's own origins: the owner's preview runs there. */
const ownOrigins = (deps: Deps) =>
  new Set(deps.config.trustedOrigins.map((o) => originOf(o)).filter((o) => o !== null));

/** Whether a browser origin may show the widget: on its list, or the app itself. */
export const embedderAllowed = (deps: Deps, widget: WidgetRow, origin: string | undefined) => {
  const normal = originOf(origin);
  return (
    normal !== null &&
    (ownOrigins(deps).has(normal) || originAllowed(widget.allowed_origins, normal))
  );
};

/**
 * The browser courtesy check (the real guard is the embed page's `frame-ancestors`): the page
 * the iframe says it sits in (`X-Chorus-Embedder`), and the request's `Origin` when it is not
 * the app's own (a call made from another site's page), must both be allowed.
 */
export const checkEmbedder = (c: Context<AppEnv>, widget: WidgetRow): void => {
  const { deps } = c.var;
  const claims = [c.req.header('x-chorus-embedder')];
  const origin = c.req.header('origin');
  const own = ownOrigins(deps);
  if (origin !== undefined && !own.has(originOf(origin) ?? '')) claims.push(origin);
  if (!claims.every((claim) => embedderAllowed(deps, widget, claim))) {
    throw new ApiError(403, 'widgets:origin_not_allowed');
  }
};

export const checkNotBlocked = (visitor: VisitorRow): void => {
  if (visitor.blocked_at !== null) throw new ApiError(403, 'widgets:visitor_blocked');
};

/** The bearer session of the iframe's request, resolved to its visitor of this widget. */
export const sessionVisitor = async (
  c: Context<AppEnv>,
  widget: WidgetRow,
): Promise<{ visitor: VisitorRow; token: string }> => {
  const header = c.req.header('authorization') ?? '';
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  const visitor = await visitorOfSession(c.var.deps.database.db, widget.id, token);
  if (!visitor || !token) throw new ApiError(401, 'widgets:session_invalid');
  return { visitor, token };
};

/**
 * Starts or resumes a visitor session (POST session). A valid visitor token names the visitor
 * (made on first sight; a session of another visitor is not resumed for them); otherwise the
 * iframe's stored session resumes its visitor, and failing that a new anonymous visitor is made.
 * Ids are always the server's: a session the client makes up is simply not found.
 *
 * A block sticks: a blocked visitor's session, however old, is refused rather than replaced, and
 * for `BLOCKED_ADDRESS_HOURS` no new anonymous visitor is made from the network the blocked one
 * came from (someone who clears their storage and comes back). The cost: others behind the same
 * address (an office, a mobile carrier's shared address) cannot start a new anonymous chat for
 * that while; their existing sessions and signed visitors are not affected.
 */
export const startSession = async (
  deps: Deps,
  widget: WidgetRow,
  given: { session?: string | undefined; visitor_token?: string | undefined },
  clientAddress: string,
): Promise<{ visitor: VisitorRow; token: string }> => {
  const db = deps.database.db;
  const addressHash = visitorAddressHash(deps.config.authSecret, widget.id, clientAddress);
  const current = given.session ? await visitorOfSession(db, widget.id, given.session) : null;
  let visitor: VisitorRow;
  if (given.visitor_token !== undefined) {
    let secret: string | null = null;
    try {
      secret = deps.box.open(widget.secret_sealed);
    } catch (error) {
      // Sealed under another server secret: no token can be checked until the owner rotates it.
      deps.log.warn(
        { widgetId: widget.id, err: error instanceof Error ? error.message : String(error) },
        'a widget secret cannot be opened',
      );
    }
    const signed =
      secret === null
        ? null
        : await verifyVisitorToken(given.visitor_token, secret, widget.public_id);
    if (!signed) throw new ApiError(401, 'widgets:bad_visitor_token');
    visitor = await upsertSignedVisitor(db, widget.id, signed.visitorId, signed.name);
  } else if (current) {
    visitor = current;
  } else {
    if (widget.require_signed_visitors) throw new ApiError(401, 'widgets:signed_visitor_required');
    if (
      addressHash !== null &&
      (await addressBlocked(db, widget.id, addressHash, BLOCKED_ADDRESS_HOURS))
    ) {
      throw new ApiError(403, 'widgets:visitor_blocked');
    }
    visitor = await createAnonymousVisitor(db, widget.id, addressHash);
  }
  if (widget.require_signed_visitors && !visitor.signed) {
    throw new ApiError(401, 'widgets:signed_visitor_required');
  }
  checkNotBlocked(visitor);
  if (current && given.session && current.id === visitor.id) {
    await slideSession(db, given.session, visitor, addressHash);
    return { visitor, token: given.session };
  }
  return { visitor, token: await mintSession(db, widget.id, visitor.id) };
};

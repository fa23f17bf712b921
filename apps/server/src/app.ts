import { randomUUID } from 'node:crypto';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import { messageFor } from '@chorus/shared/error-catalogue';
import type { AppEnv, AuthedEnv, Deps } from './http/app-env.ts';
import { clientIp } from './http/client-ip.ts';
import { errorBody, errorHandler } from './http/errors.ts';
import {
  answeringDatabaseUnavailable,
  databaseFault,
  healthCheck,
  livenessCheck,
} from './http/health.ts';
import { createRouter } from './http/openapi.ts';
import { rateLimit, rateLimitData } from './http/rate-limit.ts';
import { loadSession } from './http/session.ts';
import { mountWebApp, type WebAssets } from './http/static.ts';
import { AUTH_BASE_PATH, CLIENT_IP_HEADER } from './services/auth/auth.ts';
import { requireTrustedOrigin } from './http/origin-check.ts';
import { refuseInvalidText } from './http/valid-text.ts';
import { getSession } from './services/auth/get-session.ts';
import { throttleSignInPerAccount } from './services/auth/sign-in-throttle.ts';
import { z } from 'zod';
import { inviteFrom, refuseUninvited } from './services/rest/signup-mode/signup-policy.ts';
import { queuePasswordReset } from './jobs/account-requests.ts';
import { refreshSession } from './services/auth/refresh-session.ts';
import { copySystemApiKeysRouter } from './services/functions/copy-system-api-keys/copy-system-api-keys.index.ts';
import { adminUsersRouter } from './services/rest/admin/users/users.index.ts';
import { adminApiKeysRouter } from './services/rest/admin/api-keys/api-keys.index.ts';
import { adminAuditLogsRouter } from './services/rest/admin/audit-logs/audit-logs.index.ts';
import { adminAccessRequestsRouter } from './services/rest/admin/access-requests/access-requests.index.ts';
import { adminSettingsRouter } from './services/rest/admin/settings/settings.index.ts';
import { adminOverviewRouter } from './services/rest/admin/overview/overview.index.ts';
import { accessRequestsRouter } from './services/rest/access-requests/access-requests.index.ts';
import { signupModeRouter } from './services/rest/signup-mode/signup-mode.index.ts';
import { getDefaultApiKeyRouter } from './services/functions/get-default-api-key/get-default-api-key.index.ts';
import { getEnabledProvidersRouter } from './services/functions/get-enabled-providers/get-enabled-providers.index.ts';
import { getSystemApiKeyRouter } from './services/functions/get-system-api-key/get-system-api-key.index.ts';
import { apiKeysRouter } from './services/rest/api-keys/api-keys.index.ts';
import { testApiKeyRouter } from './services/functions/test-api-key/test-api-key.index.ts';
import { aiApiProxyRouter } from './services/functions/ai-api-proxy/ai-api-proxy.index.ts';
import { openRouterModelsRouter } from './services/functions/openrouter-models/openrouter-models.index.ts';
import { ollamaModelsRouter } from './services/functions/ollama-models/ollama-models.index.ts';
import { chatRouter } from './services/functions/chat/chat.index.ts';
import { agentRunsRouter } from './services/functions/agent-runs/agent-runs.index.ts';
import { conversationsRouter } from './services/rest/conversations/conversations.index.ts';
import { conversationSharingRouter } from './services/rest/conversation-sharing/conversation-sharing.index.ts';
import { messageSearchRouter } from './services/rest/message-search/message-search.index.ts';
import { profileRouter } from './services/rest/profile/profile.index.ts';
import { rpcRouter } from './services/rest/rpc/rpc.index.ts';
import { sendEmailRouter } from './services/functions/send-email/send-email.index.ts';
import { contactRouter } from './services/functions/contact/contact.index.ts';
import { unsubscribeRouter } from './services/rest/unsubscribe/unsubscribe.index.ts';
import { adminEmailOutboxRouter } from './services/rest/admin/email-outbox/email-outbox.index.ts';
import { adminPricingPlansRouter } from './services/rest/admin/pricing-plans/pricing-plans.index.ts';
import { adminUsageStatisticsRouter } from './services/rest/admin/usage-statistics/usage-statistics.index.ts';
import { adminAnalyticsRouter } from './services/rest/admin/analytics/analytics.index.ts';
import { adminPromptsRouter } from './services/rest/admin/prompts/curation.index.ts';
import { adminCustomAisRouter } from './services/rest/admin/custom-ais/custom-ais.index.ts';
import { adminScenariosRouter } from './services/rest/admin/scenarios/scenarios.index.ts';
import { libraryRouter } from './services/rest/library/library.index.ts';
import { scenariosRouter } from './services/rest/scenarios/scenarios.index.ts';
import { scenarioRunsRouter } from './services/rest/scenario-runs/scenario-runs.index.ts';
import { testCasesRouter } from './services/rest/test-cases/test-cases.index.ts';
import { testRunsRouter } from './services/rest/test-runs/test-runs.index.ts';
import { testRunRouter } from './services/functions/test-run/test-run.index.ts';
import { testSetsRouter } from './services/rest/test-sets/test-sets.index.ts';
import { accessTokensRouter } from './services/rest/access-tokens/access-tokens.index.ts';
import { scenarioRunRouter } from './services/functions/scenario-run/scenario-run.index.ts';
import { workflowRunRouter } from './services/functions/workflow-run/workflow-run.index.ts';
import { promptsRouter } from './services/rest/prompts/prompts.index.ts';
import { customAisRouter } from './services/rest/custom-ais/custom-ais.index.ts';
import { schedulesRouter } from './services/rest/schedules/schedules.index.ts';
import { workflowsRouter } from './services/rest/workflows/workflows.index.ts';
import { widgetsRouter } from './services/rest/widgets/widgets.index.ts';
import { mcpServersRouter } from './services/rest/mcp-servers/mcp-servers.index.ts';
import { toolsRouter } from './services/rest/tools/tools.index.ts';
import { agentsRouter } from './services/rest/agents/agents.index.ts';
import { knowledgeBasesRouter } from './services/rest/knowledge-bases/knowledge-bases.index.ts';
import { knowledgeSearchRouter } from './services/functions/knowledge-search/knowledge-search.index.ts';
import { onboardingRouter } from './services/rest/onboarding/onboarding.index.ts';
import { discoverRouter } from './services/rest/discover/discover.index.ts';
import { trendsRouter } from './services/rest/trends/trends.index.ts';
import { trendsAskRouter } from './services/functions/trends-ask/trends-ask.index.ts';
import { createCheckoutSessionRouter } from './services/functions/create-checkout-session/create-checkout-session.index.ts';
import { stripeWebhookRouter } from './services/functions/stripe-webhook/stripe-webhook.index.ts';
import { clientErrorsRouter } from './services/rest/client-errors/client-errors.index.ts';
import { adminJobsRouter } from './services/rest/admin/jobs/jobs.index.ts';
import { adminClientErrorsRouter } from './services/rest/admin/client-errors/client-errors.index.ts';
import { filesRouter, objectRouter } from './services/storage/files/files.index.ts';
import { mountWidgetPages } from './widget/embed-page.ts';
import { widgetPublicRouter } from './widget/public.index.ts';

/** Where the API answers; everything else is the web app and its files. */
const apiPrefixes = ['/rest/', '/functions/', '/auth/', '/storage/'];

const noSuchEndpoint = (c: Context) =>
  messageFor('http:not_found', { endpoint: `${c.req.method} ${c.req.path}` });

/** Auth calls that count against the `auth` window: the ones that try credentials or send mail. */
const limitedAuthPaths = new Set([
  'sign-in/email',
  'sign-up/email',
  'request-password-reset',
  'reset-password',
  'change-password',
]);

/** better-auth's own answer to a reset request, word for word, whatever the address. */
const RESET_REQUESTED = 'If this email exists in our system, check your email for the reset link';

/** better-auth's body for a reset request; `redirectTo` is unused, the link is built on APP_URL. */
const resetRequestSchema = z.object({ email: z.email(), redirectTo: z.string().optional() });

/**
 * Routes whose every request goes through the model-call seam, which spends the `data` window
 * in the same database round trip as the plan and quota check (ARCHITECTURE §11 fast path).
 */
const modelCallPaths = new Set([
  '/functions/v1/chat',
  '/functions/v1/ai-api-proxy',
  '/functions/v1/trends-ask',
]);

/** An agent run going on after an approval: a model call, like the paths above. */
const agentApprovalPath = /^\/functions\/v1\/agent-runs\/[^/]+\/approvals$/;

/**
 * better-auth echoes session tokens in JSON bodies (for bearer clients, which Chorus has none
 * of): at the top level, in `session`, and in each session of `list-sessions`. A token must live
 * only in the httpOnly cookie, so every one is taken out of every body.
 */
const stripTokens = (body: unknown): void => {
  if (Array.isArray(body)) {
    for (const item of body) stripTokens(item);
    return;
  }
  if (!body || typeof body !== 'object') return;
  const b = body as { token?: unknown; session?: unknown };
  delete b.token;
  if (b.session && typeof b.session === 'object') stripTokens(b.session);
};

const withoutSessionToken = async (res: Response): Promise<Response> => {
  if (!res.headers.get('content-type')?.includes('application/json')) return res;
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, res);
  }
  stripTokens(body);
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(body), {
    status: res.status,
    statusText: res.statusText,
    headers,
  });
};

export const createApp = (deps: Deps, web: WebAssets | null = null) => {
  const { config, log } = deps;
  const app = new Hono<AppEnv>();
  app.onError(answeringDatabaseUnavailable(errorHandler(log)));

  app.use('*', async (c, next) => {
    c.set('deps', deps);
    // A proxy's id is kept when it looks like one, so one request can be followed across hops.
    const given = c.req.header('x-request-id');
    const requestId = given && /^[\w.-]{8,64}$/.test(given) ? given : randomUUID();
    c.set('requestId', requestId);
    const started = performance.now();
    await next();
    try {
      c.res.headers.set('x-request-id', requestId);
      // Answers of the API are personal: no shared or browser cache keeps them unless they say so.
      if (
        apiPrefixes.some((p) => c.req.path.startsWith(p)) &&
        !c.res.headers.has('cache-control')
      ) {
        c.res.headers.set('cache-control', 'no-store');
      }
    } catch {
      // An immutable response (one better-auth made): it goes out without the header.
    }
    log.debug(
      {
        requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: +(performance.now() - started).toFixed(1),
      },
      'request',
    );
  });
  // The widget's iframe page and loader set their own headers (frame-ancestors: its origins).
  mountWidgetPages(app, web);
  app.use(
    '*',
    secureHeaders({
      // Over plain http (a local install) the header means nothing and would pin browsers to https.
      strictTransportSecurity: config.appUrl.startsWith('https://')
        ? 'max-age=31536000; includeSubDomains'
        : false,
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(web?.inlineScriptHashes ?? [])],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
      crossOriginEmbedderPolicy: false,
      // A response that sets its own policy keeps it (stored files are sandboxed, ADR 013).
      overwrite: false,
    }),
  );

  // Probes (README, "Health"): /livez the process, /readyz (and /healthz) database and feed.
  app.get('/healthz', healthCheck);
  app.get('/readyz', healthCheck);
  app.get('/livez', livenessCheck);

  const apiBodyLimit = bodyLimit({
    maxSize: 1024 * 1024,
    onError: (c) =>
      c.json(
        errorBody(
          messageFor('request:too_large', {
            subject: 'The request body',
            limit: '1 MB',
            fix: 'Send less at once',
          }),
          'request:too_large',
        ),
        413,
      ),
  });

  // A test-case import carries a file's text: up to 2,000,000 characters (issue 20), JSON-escaped.
  const caseImport = /^\/rest\/v1\/test-sets\/[^/]+\/cases\/import$/;
  const importBodyLimit = bodyLimit({
    maxSize: 8 * 1024 * 1024,
    onError: (c) =>
      c.json(
        errorBody(
          messageFor('request:too_large', {
            subject: 'The request body',
            limit: '8 MB',
            fix: 'Import the file in parts',
          }),
          'request:too_large',
        ),
        413,
      ),
  });
  const restBodyLimit: MiddlewareHandler = (c, next) =>
    c.req.method === 'POST' && caseImport.test(c.req.path)
      ? importBodyLimit(c, next)
      : apiBodyLimit(c, next);

  const jsonText = refuseInvalidText({ jsonBody: true });

  // --- /auth/v1: better-auth behind our client-IP decision and the `auth` rate limit.
  app.use(`${AUTH_BASE_PATH}/*`, apiBodyLimit, jsonText, async (c, next) => {
    const headers = new Headers(c.req.raw.headers);
    headers.set(CLIENT_IP_HEADER, clientIp(c, config.trustProxy));
    c.req.raw = new Request(c.req.raw, { headers });
    await next();
  });
  const authLimit = rateLimit('auth', (c) => clientIp(c, config.trustProxy));
  app.post(`${AUTH_BASE_PATH}/*`, (c, next) => {
    const action = c.req.path.slice(AUTH_BASE_PATH.length + 1);
    return limitedAuthPaths.has(action) ? authLimit(c, next) : next();
  });
  // Ours, not better-auth's: the web's session manager forcing a sliding refresh.
  app.post(`${AUTH_BASE_PATH}/sign-in/email`, throttleSignInPerAccount);
  // With sign-up by request, the same refusal for any uninvited address, account or not.
  app.post(`${AUTH_BASE_PATH}/sign-up/email`, async (c, next) => {
    const body = (await c.req.raw
      .clone()
      .json()
      .catch(() => null)) as { email?: unknown } | null;
    const refusal = await refuseUninvited(
      deps.database.db,
      body?.email,
      inviteFrom(body, c.req.query()),
    );
    if (refusal) return c.json({ code: 'SIGNUP_BY_REQUEST', message: refusal }, 403);
    return next();
  });
  // A reset request is queued and answered at once, the same for every address (account-requests.ts).
  app.post(`${AUTH_BASE_PATH}/request-password-reset`, async (c, next) => {
    const parsed = resetRequestSchema.safeParse(
      await c.req.raw
        .clone()
        .json()
        .catch(() => null),
    );
    // A malformed body gets better-auth's own refusal, which says nothing about any account.
    if (!parsed.success) return next();
    await queuePasswordReset(deps, { email: parsed.data.email });
    return c.json({ status: true, message: RESET_REQUESTED }, 200);
  });
  // State-changing calls that act with a session come from our own pages only (issue 13).
  const sameOrigin = requireTrustedOrigin(config.trustedOrigins);
  app.post(`${AUTH_BASE_PATH}/refresh-session`, sameOrigin, refreshSession);
  app.get(`${AUTH_BASE_PATH}/get-session`, getSession);
  app.on(['GET', 'POST'], `${AUTH_BASE_PATH}/*`, async (c) => {
    const res = await deps.auth.handler(c.req.raw);
    // better-auth answers a failed database read with a bare 500: a 503 when the database is
    // what failed (the error handler words it).
    if (res.status >= 500) {
      const fault = await databaseFault(deps);
      if (fault) throw fault;
    }
    return withoutSessionToken(res);
  });

  // --- /rest/v1, /functions/v1 and /storage/v1: zod-described routes, one OpenAPI document.
  // Uploads are not held to the 1 MB body limit: they stream, within their plan's own limits.
  const api = createRouter();
  // A knowledge base's documents upload streams too (multipart, several files).
  const documentUpload = /^\/rest\/v1\/knowledge-bases\/[^/]+\/documents$/;
  const unlessUpload =
    (middleware: MiddlewareHandler): MiddlewareHandler =>
    (c, next) =>
      c.req.method === 'POST' && documentUpload.test(c.req.path) ? next() : middleware(c, next);
  api.use(
    '/rest/v1/*',
    sameOrigin,
    unlessUpload(restBodyLimit),
    unlessUpload(jsonText),
    loadSession,
    rateLimitData,
  );
  api.use('/functions/v1/*', sameOrigin, apiBodyLimit, jsonText, loadSession, (c, next) =>
    modelCallPaths.has(c.req.path) || agentApprovalPath.test(c.req.path)
      ? next()
      : rateLimitData(c, next),
  );
  api.use(
    '/storage/v1/*',
    sameOrigin,
    refuseInvalidText({ jsonBody: false }),
    loadSession,
    rateLimitData,
  );
  api.openAPIRegistry.registerComponent('securitySchemes', 'sessionCookie', {
    type: 'apiKey',
    in: 'cookie',
    name: 'chorus.session_token',
    description: 'The httpOnly session cookie set by /auth/v1/sign-in/email.',
  });
  api.openAPIRegistry.registerComponent('securitySchemes', 'accessToken', {
    type: 'http',
    scheme: 'bearer',
    description:
      'A personal access token (`chorus_pat_…`, made at POST /rest/v1/access-tokens), for CI: test runs and the list of test sets only.',
  });
  const rest = createRouter<AuthedEnv>()
    .route('/', profileRouter)
    .route('/', rpcRouter)
    .route('/', adminUsersRouter)
    .route('/', adminApiKeysRouter)
    .route('/', adminEmailOutboxRouter)
    .route('/', adminJobsRouter)
    .route('/', unsubscribeRouter)
    .route('/', adminAuditLogsRouter)
    .route('/', adminAccessRequestsRouter)
    .route('/', adminSettingsRouter)
    .route('/', adminOverviewRouter)
    .route('/', accessRequestsRouter)
    .route('/', signupModeRouter)
    .route('/', adminPricingPlansRouter)
    .route('/', adminUsageStatisticsRouter)
    .route('/', adminAnalyticsRouter)
    .route('/', adminPromptsRouter)
    .route('/', adminCustomAisRouter)
    .route('/', adminScenariosRouter)
    .route('/', libraryRouter)
    .route('/', scenariosRouter)
    .route('/', scenarioRunsRouter)
    .route('/', testCasesRouter)
    .route('/', testSetsRouter)
    .route('/', testRunsRouter)
    .route('/', accessTokensRouter)
    .route('/', promptsRouter)
    .route('/', knowledgeBasesRouter)
    .route('/', customAisRouter)
    .route('/', schedulesRouter)
    .route('/', workflowsRouter)
    .route('/', widgetsRouter)
    .route('/', mcpServersRouter)
    .route('/', toolsRouter)
    .route('/', agentsRouter)
    .route('/', onboardingRouter)
    .route('/', discoverRouter)
    .route('/', trendsRouter)
    .route('/', clientErrorsRouter)
    .route('/', adminClientErrorsRouter)
    .route('/', apiKeysRouter)
    .route('/', messageSearchRouter)
    .route('/', conversationsRouter)
    .route('/', conversationSharingRouter);
  const functions = createRouter<AuthedEnv>()
    .route('/', copySystemApiKeysRouter)
    .route('/', sendEmailRouter)
    .route('/', contactRouter)
    .route('/', getDefaultApiKeyRouter)
    .route('/', getSystemApiKeyRouter)
    .route('/', getEnabledProvidersRouter)
    .route('/', testApiKeyRouter)
    .route('/', chatRouter)
    .route('/', agentRunsRouter)
    .route('/', aiApiProxyRouter)
    .route('/', scenarioRunRouter)
    .route('/', workflowRunRouter)
    .route('/', testRunRouter)
    .route('/', trendsAskRouter)
    .route('/', knowledgeSearchRouter)
    .route('/', openRouterModelsRouter)
    .route('/', ollamaModelsRouter)
    .route('/', createCheckoutSessionRouter)
    .route('/', stripeWebhookRouter);
  const storage = createRouter<AuthedEnv>().route('/', filesRouter).route('/', objectRouter);
  api.route('/rest/v1', rest).route('/functions/v1', functions).route('/storage/v1', storage);
  // The embedded chat's public API: no session middleware, no cookies (issue 21).
  api.route('/widget/v1', widgetPublicRouter);
  api.doc31('/rest/v1/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Chorus API',
      version: '1.0.0',
      description:
        'Data (/rest/v1), functions (/functions/v1) and files (/storage/v1) of Chorus. Authentication is better-auth at /auth/v1 (sign-up/email, sign-in/email, sign-out, get-session, request-password-reset, reset-password, change-password), plus POST /auth/v1/refresh-session, which slides the session to 7 days from now and answers like get-session (limited to 5 a minute per user).',
    },
  });
  app.route('/', api);

  for (const prefix of ['/rest/v1', '/functions/v1', '/storage/v1', '/realtime/v1']) {
    app.all(`${prefix}/*`, (c) => c.json(errorBody(noSuchEndpoint(c), 'http:not_found'), 404));
  }

  // A shared chat's page is for the people given its link, not for search engines.
  app.use('/share/*', async (c, next) => {
    await next();
    c.res.headers.set('x-robots-tag', 'noindex, nofollow');
  });
  if (web) mountWebApp(app, web);
  app.notFound((c) => c.json(errorBody(noSuchEndpoint(c), 'http:not_found'), 404));
  return app;
};

export type App = ReturnType<typeof createApp>;

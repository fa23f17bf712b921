import { randomUUID } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api';
import { peopleMessages } from '@chorus/shared/messages';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { passwordRules } from '@chorus/shared/limits';
import { weakPasswordReason } from './password-strength.ts';
import { installScopedAuthStorage } from './scoped-storage.ts';
import { SESSION_COOKIE_CACHE_SECONDS } from './session-cache.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { ProfilesRepository } from '../../db/repositories/profiles.ts';
import { claimFirstUser, findAccess } from '../../db/repositories/roles.ts';
import { SettingsRepository } from '../../db/repositories/settings.ts';
import { decideSignUp, inviteFrom } from '../rest/signup-mode/signup-policy.ts';
import { accounts, sessions, users, verifications } from '../../db/schema/index.ts';
import { emailIdentity } from '../../email/identity.ts';
import { passwordResetEmail } from '../../email/templates/password-reset.tsx';
import type { Mailer } from '../../email/transport.ts';
import { sendWelcomeEmail } from '../../email/welcome.ts';
import type { Logger } from '../../logger.ts';

/** The header our own middleware sets to the client IP it decided on (see client-ip.ts). */
export const CLIENT_IP_HEADER = 'x-chorus-client-ip';

export const AUTH_BASE_PATH = '/auth/v1';

export const AUTH_COOKIE_PREFIX = 'chorus';

/** Longer names would only fill screens and mails; better-auth sets no limit of its own. */
const NAME_MAX_LENGTH = 100;

/** The endpoints where a password is chosen, and the body field that holds it. */
const passwordFields: Record<string, string> = {
  '/sign-up/email': 'password',
  '/reset-password': 'newPassword',
  '/change-password': 'newPassword',
};

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/**
 * The name and e-mail address of whoever is choosing a password, which it must not be made of:
 * from the sign-up form, the account a reset link belongs to, or the signed-in account.
 */
const personOf = async (ctx: HookContext, body: Record<string, unknown>): Promise<string[]> => {
  const text = (...values: unknown[]) => values.filter((v): v is string => typeof v === 'string');
  if (ctx.path === '/sign-up/email') return text(body.email, body.name);
  if (ctx.path === '/reset-password') {
    const token = text(body.token, (ctx.query as { token?: unknown } | undefined)?.token)[0];
    if (!token) return [];
    const verification = await ctx.context.internalAdapter.findVerificationValue(
      `reset-password:${token}`,
    );
    if (!verification) return [];
    const user = await ctx.context.internalAdapter.findUserById(verification.value);
    return user ? text(user.email, user.name) : [];
  }
  const session = await getSessionFromCtx(ctx);
  return session ? text(session.user.email, session.user.name) : [];
};

/** Cookies carry `Secure` (and the `__Secure-` prefix) when the app is served over https. */
export const secureCookies = (config: Pick<Config, 'appUrl'>) =>
  config.appUrl.startsWith('https://');

/** Everything a new account gets: profile on the Free plan, settings, and the first-user claim. */
export const provisionUser = async (
  db: Db,
  user: { id: string; email: string; name: string | null },
): Promise<void> => {
  await new ProfilesRepository(db, user.id).ensure({ email: user.email, name: user.name });
  // Spec §4: after sign-up the default provider is gemini.
  await new SettingsRepository(db, user.id).upsert({ default_ai_provider: 'gemini' });
  await claimFirstUser(db, user.id);
};

export const createAuth = (deps: {
  db: Db;
  config: Config;
  mailer: Mailer;
  log: Logger;
  /** Told of every session that ends (sign-out, revocation, password reset). */
  onSessionEnded: (session: { id: string; userId: string }) => Promise<void>;
}) => {
  const { db, config, mailer, log } = deps;
  installScopedAuthStorage();
  return betterAuth({
    appName: 'Chorus',
    baseURL: config.appUrl,
    basePath: AUTH_BASE_PATH,
    secret: config.authSecret,
    trustedOrigins: config.trustedOrigins,
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: passwordRules.minLength,
      maxPasswordLength: passwordRules.maxLength,
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      // Links point at APP_URL, the public host (spec §2), and land on the web's reset page.
      sendResetPassword: async ({ user, token }) => {
        const resetLink = `${config.appUrl}/reset-password?token=${encodeURIComponent(token)}`;
        await mailer.send({
          ...(await passwordResetEmail({
            identity: emailIdentity(config),
            to: user.email,
            userName: user.name,
            resetLink,
          })),
          // Whoever reads the outbox (an admin) sees the mail without the link that resets.
          secrets: [token],
        });
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
      // The session rides in a signed cookie, so most requests skip the session query; a
      // sign-out or revocation reaches every instance at once, or within 5 s (http/session.ts).
      cookieCache: { enabled: true, maxAge: SESSION_COOKIE_CACHE_SECONDS, strategy: 'compact' },
    },
    // Chorus applies its own per-category limits (rate-limit.ts) with state in the database.
    rateLimit: { enabled: false },
    advanced: {
      // UUIDs made here: the `uuid` option would leave the id to a database default.
      database: { generateId: () => randomUUID() },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      cookiePrefix: AUTH_COOKIE_PREFIX,
      useSecureCookies: secureCookies(config),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
    databaseHooks: {
      // Sign-up by request (app_settings.signup_mode): an invitation of an approved request.
      user: {
        create: {
          before: async (user, ctx) => {
            const decision = await decideSignUp(db, user.email, inviteFrom(ctx?.body, ctx?.query));
            if (!decision.allowed) {
              throw new APIError('FORBIDDEN', {
                message: decision.message,
                code: 'SIGNUP_BY_REQUEST',
              });
            }
          },
          after: async (user) => {
            try {
              await provisionUser(db, user);
            } catch (error) {
              // The profile is re-created on first read; the sign-up itself stands.
              log.error({ err: error, userId: user.id }, 'provisioning a new user failed');
            }
            // Not awaited: a slow or failing mail server never holds up or fails a sign-up.
            sendWelcomeEmail({ config, mailer }, user);
          },
        },
      },
      session: {
        // Every instance stops trusting the session's signed cookie cache at once.
        delete: {
          after: async (session) => {
            await deps.onSessionEnded(session);
          },
        },
        // A suspended account cannot sign in (its sessions were ended when it was suspended).
        create: {
          before: async (session) => {
            if ((await findAccess(db, session.userId))?.suspended) {
              throw new APIError('FORBIDDEN', {
                message: peopleMessages.accountSuspended,
                code: 'ACCOUNT_SUSPENDED',
              });
            }
          },
        },
      },
    },
    hooks: {
      // A password that is easy to guess is refused wherever one is chosen (issue 13, point 7).
      before: createAuthMiddleware(async (ctx) => {
        const body = (ctx.body ?? {}) as Record<string, unknown>;
        if (
          (ctx.path === '/sign-up/email' || ctx.path === '/update-user') &&
          typeof body.name === 'string' &&
          body.name.length > NAME_MAX_LENGTH
        ) {
          throw new APIError('BAD_REQUEST', {
            message: peopleMessages.nameTooLong(NAME_MAX_LENGTH),
            code: 'NAME_TOO_LONG',
          });
        }
        const field = passwordFields[ctx.path];
        if (!field) return;
        const password = body[field];
        if (typeof password !== 'string') return;
        const reason = weakPasswordReason(password, await personOf(ctx, body));
        if (reason)
          throw new APIError('BAD_REQUEST', { message: reason, code: 'PASSWORD_TOO_WEAK' });
      }),
    },
    // Without this, better-auth prints errors raised before an endpoint runs (a body that is not
    // JSON) with console.error, past our structured logger and LOG_LEVEL.
    onAPIError: {
      onError: (error) => log.debug({ source: 'better-auth', err: error }, 'auth request refused'),
    },
    logger: {
      level: 'warn',
      log: (level, message, ...args) => {
        // Errors go to the logger whole: its serializer keeps what is safe of them.
        const detail = args;
        if (level === 'error') log.error({ source: 'better-auth', detail }, message);
        else if (level === 'warn') log.warn({ source: 'better-auth', detail }, message);
      },
    },
  });
};

export type Auth = ReturnType<typeof createAuth>;

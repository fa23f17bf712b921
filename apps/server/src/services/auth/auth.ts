import { randomUUID } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { APIError } from 'better-auth/api';
import { peopleMessages } from '@chorus/shared/messages';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { passwordRules } from '@chorus/shared/limits';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { ProfilesRepository } from '../../db/repositories/profiles.ts';
import { claimFirstUser } from '../../db/repositories/roles.ts';
import { SettingsRepository } from '../../db/repositories/settings.ts';
import { isSuspended } from '../../db/repositories/admin-users.ts';
import { decideSignUp, inviteFrom } from '../rest/signup-mode/signup-policy.ts';
import { accounts, sessions, users, verifications } from '../../db/schema.ts';
import { emailIdentity } from '../../email/identity.ts';
import { passwordResetEmail } from '../../email/templates/password-reset.tsx';
import type { Mailer } from '../../email/transport.ts';
import { sendWelcomeEmail } from '../../email/welcome.ts';
import type { Logger } from '../../logger.ts';

/** The header our own middleware sets to the client IP it decided on (see client-ip.ts). */
export const CLIENT_IP_HEADER = 'x-chorus-client-ip';

export const AUTH_BASE_PATH = '/auth/v1';

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

export const createAuth = (deps: { db: Db; config: Config; mailer: Mailer; log: Logger }) => {
  const { db, config, mailer, log } = deps;
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
        await mailer.send(
          await passwordResetEmail({
            identity: emailIdentity(config),
            to: user.email,
            userName: user.name,
            resetLink,
          }),
        );
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
    },
    // Chorus applies its own per-category limits (rate-limit.ts) with state in the database.
    rateLimit: { enabled: false },
    advanced: {
      // UUIDs made here: the `uuid` option would leave the id to a database default.
      database: { generateId: () => randomUUID() },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      cookiePrefix: 'chorus',
      useSecureCookies: config.appUrl.startsWith('https://'),
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
      // A suspended account cannot sign in (its sessions were ended when it was suspended).
      session: {
        create: {
          before: async (session) => {
            if (await isSuspended(db, session.userId)) {
              throw new APIError('FORBIDDEN', {
                message: peopleMessages.accountSuspended,
                code: 'ACCOUNT_SUSPENDED',
              });
            }
          },
        },
      },
    },
    // Without this, better-auth prints errors raised before an endpoint runs (a body that is not
    // JSON) with console.error, past our structured logger and LOG_LEVEL.
    onAPIError: {
      onError: (error) => log.debug({ source: 'better-auth', err: error }, 'auth request refused'),
    },
    logger: {
      level: 'warn',
      log: (level, message, ...args) => {
        const detail = args.map((a) => (a instanceof Error ? a.message : a));
        if (level === 'error') log.error({ source: 'better-auth', detail }, message);
        else if (level === 'warn') log.warn({ source: 'better-auth', detail }, message);
      },
    },
  });
};

export type Auth = ReturnType<typeof createAuth>;

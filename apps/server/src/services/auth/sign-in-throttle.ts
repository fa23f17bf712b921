import { sql } from 'drizzle-orm';
import type { Context, Next } from 'hono';
import { messages } from '@chorus/shared/messages';
import { rowsOf, type Db } from '../../db/client.ts';
import type { AppEnv } from '../../http/app-env.ts';

/** Failures are remembered this long after the last one. */
const MEMORY_MS = 15 * 60_000;
/** Failures before any wait: a person mistyping is never slowed. */
const FREE_FAILURES = 5;
/** The longest wait, so that someone failing on purpose can only slow the owner, never lock them out. */
const MAX_WAIT_MS = 60_000;

/** The wait after the n-th failure in a row: none for the first five, then 1 s doubling to 60 s. */
export const waitAfterFailures = (failures: number): number =>
  failures <= FREE_FAILURES ? 0 : Math.min(1000 * 2 ** (failures - FREE_FAILURES - 1), MAX_WAIT_MS);

const keyOf = (email: string) => `signin-fail:${email.trim().toLowerCase()}`;

/**
 * Failed sign-ins per account, beside the per-address `auth` limit (issue 13, point 7): many
 * addresses guessing one account's password slow down together. Kept in `rate_limits`, which
 * every instance shares: points = failures in a row, expire = last failure + 15 minutes.
 */
const waitFor = async (db: Db, email: string, now: number): Promise<number> => {
  const [row] = rowsOf<{ points: number; expire: number | string }>(
    await db.execute(sql`select points, expire from rate_limits where key = ${keyOf(email)}`),
  );
  if (!row || Number(row.expire) <= now) return 0;
  const lastFailure = Number(row.expire) - MEMORY_MS;
  return Math.max(0, lastFailure + waitAfterFailures(Number(row.points)) - now);
};

const recordFailure = (db: Db, email: string, now: number) =>
  db.execute(sql`
    insert into rate_limits as r (key, points, expire) values (${keyOf(email)}, 1, ${now + MEMORY_MS})
    on conflict (key) do update set
      points = case when r.expire <= ${now} then 1 else r.points + 1 end,
      expire = ${now + MEMORY_MS}`);

const forget = (db: Db, email: string) =>
  db.execute(sql`delete from rate_limits where key = ${keyOf(email)}`);

/** `POST /auth/v1/sign-in/email`: waits out an account's failures, then counts the outcome. */
export const throttleSignInPerAccount = async (c: Context<AppEnv>, next: Next) => {
  const body = (await c.req.raw
    .clone()
    .json()
    .catch(() => null)) as { email?: unknown } | null;
  const email = typeof body?.email === 'string' && body.email.includes('@') ? body.email : null;
  if (!email) return next();
  const { db } = c.var.deps.database;
  const wait = await waitFor(db, email, Date.now());
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    c.header('Retry-After', String(seconds));
    return c.json(
      {
        code: 'TOO_MANY_FAILED_SIGN_INS',
        message: messages.rateLimit.operation('Sign-in to this account', seconds),
      },
      429,
    );
  }
  await next();
  if (c.res.status === 401) await recordFailure(db, email, Date.now());
  else if (c.res.ok) await forget(db, email);
};

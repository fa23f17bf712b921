import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { DestinationStream } from 'pino';
import { startProviderSim } from '@chorus/provider-sim';
import { createApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { emailOutbox } from '../db/schema/index.ts';
import { createDeps } from '../deps.ts';
import { defaultEmailRetryPolicy, type EmailRetryPolicy } from '../jobs/email-retry.ts';
import { jobList } from '../jobs/job-list.ts';
import type { JobDefinition } from '../jobs/queue.ts';
import type { Deps } from '../http/app-env.ts';
import type { WebAssets } from '../http/static.ts';
import { createLogger } from '../logger.ts';
import { openTestDatabase } from './database.ts';

export const TEST_APP_URL = 'http://localhost:8080';

/** The `data` budget of a test app unless its env says otherwise: far beyond any one test. */
export const HARNESS_DATA_POINTS = 100_000;

export type TestResponse<T = unknown> = { status: number; body: T; headers: Headers };

let ipCounter = 0;
/** Each client its own address (TEST-NET-2), so auth rate limits never couple tests. */
const nextIp = () => {
  ipCounter += 1;
  return `198.51.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
};

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;

/** The real app over a real database, driven in-process through `app.request`. */
export const startTestApp = async (
  opts: {
    env?: Record<string, string>;
    database?: Database;
    /** Where log lines go (with LOG_LEVEL in env), for tests that read them. */
    logStream?: DestinationStream;
    /** Start the provider simulator and point every provider at it (`t.sim`). */
    providerSim?: boolean;
    /**
     * Start the job queue (pg-boss) with the server's job list: `retry` shortens the e-mail
     * backoff, and `extra` adds jobs of the test's own.
     */
    jobs?: boolean | { retry?: Partial<EmailRetryPolicy>; extra?: JobDefinition<Deps>[] };
    /** A built web app to serve beside the API (see `loadWebAssets`). */
    web?: WebAssets;
  } = {},
) => {
  const sim = opts.providerSim ? await startProviderSim({ port: 0 }) : undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-test-'));
  const database = opts.database ?? (await openTestDatabase());
  const config: Config = loadConfig({
    DATA_DIR: dataDir,
    APP_URL: TEST_APP_URL,
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    // Sweeps drive hundreds of calls as one user; a test about the data limit sets its own.
    RATE_LIMIT_DATA_POINTS: String(HARNESS_DATA_POINTS),
    ...(sim && providerEnv(sim.baseUrls)),
    ...opts.env,
  });
  const deps: Deps = createDeps(config, database, createLogger(config.logLevel, opts.logStream), {
    jobs: { pollingIntervalSeconds: 0.5, cronIntervalSeconds: 1 },
  });
  await deps.instance.start();
  const app = createApp(deps, opts.web);
  if (opts.jobs) {
    const { retry, extra = [] } = typeof opts.jobs === 'object' ? opts.jobs : {};
    const emailRetry = { ...defaultEmailRetryPolicy, ...retry };
    await deps.jobs.start([...jobList({ emailRetry }), ...extra], deps);
  }

  const client = (ip = nextIp()) => {
    const cookies = new Map<string, string>();
    /** Sends as this client (its address and cookies); the raw Response, body unread. */
    const send = async (
      method: string,
      url: string,
      init: { body?: RequestInit['body']; headers?: Record<string, string> } = {},
    ): Promise<Response> => {
      const res = await app.request(url, {
        method,
        headers: {
          origin: TEST_APP_URL,
          'x-forwarded-for': ip,
          ...(cookies.size > 0 && {
            cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          }),
          ...init.headers,
        },
        body: init.body,
        ...(init.body instanceof ReadableStream && { duplex: 'half' }),
      } as RequestInit);
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eqAt = pair!.indexOf('=');
        const name = pair!.slice(0, eqAt).trim();
        const value = pair!.slice(eqAt + 1).trim();
        if (value === '' || /max-age=0/i.test(line)) cookies.delete(name);
        else cookies.set(name, value);
      }
      return res;
    };
    const request = async <T = unknown>(
      method: string,
      url: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ): Promise<TestResponse<T>> => {
      const res = await send(method, url, {
        headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
        body:
          body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text === '' ? null : JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, body: parsed as T, headers: res.headers };
    };
    return {
      ip,
      cookies,
      send,
      request,
      get: <T = unknown>(url: string) => request<T>('GET', url),
      post: <T = unknown>(url: string, body?: unknown) => request<T>('POST', url, body ?? {}),
      patch: <T = unknown>(url: string, body: unknown) => request<T>('PATCH', url, body),
      del: <T = unknown>(url: string) => request<T>('DELETE', url),
      signUp: (email: string, password = 'correct-horse-1', name = 'Test User') =>
        request<{ user: { id: string; email: string } }>('POST', '/auth/v1/sign-up/email', {
          email,
          password,
          name,
        }),
      signIn: (email: string, password = 'correct-horse-1') =>
        request<{ user: { id: string } }>('POST', '/auth/v1/sign-in/email', { email, password }),
    };
  };

  /** A signed-up, signed-in client. */
  const user = async (email: string, password = 'correct-horse-1', name = 'Test User') => {
    const c = client();
    const res = await c.signUp(email, password, name);
    if (res.status !== 200)
      throw new Error(`sign-up of ${email} failed: ${JSON.stringify(res.body)}`);
    return Object.assign(c, { id: res.body.user.id, email });
  };

  /**
   * The outbox rows to exactly `address`, oldest first; only `template`'s when given. Mail being
   * written beside an answer (a welcome, a reset request without a job queue) is waited for.
   */
  const outboxFor = async (address: string, template?: string) => {
    await deps.mailer.settled();
    return database.db
      .select()
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.to, [address]),
          template === undefined ? undefined : eq(emailOutbox.template, template),
        ),
      )
      .orderBy(emailOutbox.created_at);
  };

  /** Those mails as their recipient gets them (the outbox itself hides one-time links). */
  const deliveredTo = async (address: string, template?: string) =>
    (await outboxFor(address, template)).map((row) => ({ ...row, ...deps.mailer.delivered(row) }));

  return {
    app,
    deps,
    db: database.db,
    database,
    config,
    /** The provider simulator, when started with `providerSim: true`. */
    sim: sim!,
    client,
    user,
    outboxFor,
    deliveredTo,
    async close() {
      // Saves still retrying belong to a database the test is done with.
      deps.saves.giveUp();
      await deps.mailer.settled();
      deps.mailer.useRetries(null);
      await deps.jobs.stop();
      deps.mailer.close();
      await deps.realtime.close();
      await deps.invalidation.close();
      await deps.storage.close();
      await deps.instance.stop();
      await sim?.close();
      if (!opts.database) await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/** The `*_BASE_URL` variables that point every provider at a running provider simulator. */
export const providerEnv = (baseUrls: Record<string, string>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(baseUrls).map(([id, url]) => [`${id.toUpperCase()}_BASE_URL`, url]),
  );

/**
 * Test runner (issue 20): one run of 200 cases × 4 targets × 3 repeats (2,400 model calls)
 * through the built server and its `test-run` job, against the provider simulator, on PGlite and
 * on PostgreSQL; with the simulator answering at once and with 200 ms a call.
 *
 *   npm run build -w @chorus/server && npx tsx bench/test-runner.ts [--db pglite|postgres|both]
 *       [--delays 0,200] [--cases 200] [--targets 4] [--repeats 3] [--direct 25]
 *   npx tsx bench/test-runner.ts --quick      # smoke: 20 cases × 2 targets × 1 repeat
 *
 * PostgreSQL: the database of BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/chorus_bench_test_runner) is dropped and made anew, and
 * dropped at the end. PGlite: a temporary DATA_DIR.
 *
 * The simulator runs as its own process (as a provider is), so neither the server nor this
 * client shares its event loop. Each scenario starts the server, makes a set of cases (imported
 * as JSON), starts one run with `POST /functions/v1/test-run` and polls
 * `GET /functions/v1/test-run/{id}` every 250 ms until it ends; then stops the server and reads
 * the run's results from the database. Beside it, in this process and with the server stopped:
 * - the direct call: the same request (system prompt + case message) through the AI SDK and the
 *   server's own provider registry, one at a time, per target;
 * - the floor: every call of the run made directly with the run's concurrency (4 per provider),
 *   no database, no scheduler, no assertions;
 * - the scheduler alone: its lanes with tasks that do nothing;
 * - the database alone: the run's results written again in the engine's batches of 25.
 * The scheduler overhead per call is the lane time a call of the run took beyond the direct
 * call: (run wall time × lanes − Σ direct call time) / calls, lanes = providers × 4.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { generateText } from 'ai';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { testRunLimits, type TestRunStatusBody } from '@chorus/shared/api/test-runs';
import type { ProviderId } from '@chorus/shared/providers';
import { getLanguageModel } from '../apps/server/src/ai/registry.ts';
import { openDatabase, rowsOf } from '../apps/server/src/db/client.ts';
import {
  TestRunsRepository,
  type NewTestResult,
} from '../apps/server/src/db/repositories/test-runs.ts';
import { testResults, testRuns } from '../apps/server/src/db/schema/index.ts';
import { createProviderScheduler } from '../apps/server/src/test-runner/scheduler.ts';
import { freePort, percentile, repoRoot, signUp, startServer } from './lib.ts';

const arg = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const quick = process.argv.includes('--quick');
const caseCount = Number(arg('cases')) || (quick ? 20 : 200);
const targetCount = Math.min(4, Number(arg('targets')) || (quick ? 2 : 4));
const repeats = Number(arg('repeats')) || (quick ? 1 : 3);
const delays = (arg('delays') ?? '0,200').split(',').map(Number);
/** Direct calls one at a time, per target, for the baseline. */
const directPerTarget = Number(arg('direct')) || (quick ? 5 : 25);
const which = arg('db') ?? 'both';
const postgresUrl =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/chorus_bench_test_runner';

const PER_PROVIDER = testRunLimits.concurrencyPerProvider;
const BATCH_SIZE = 25; // the engine's (engine.ts)
const SYSTEM = 'Answer in one line.';
const targets = (
  [
    { provider: 'openai', model: 'gpt-5-mini', key: 'sk-bench-openai-00000000000000' },
    { provider: 'anthropic', model: 'claude-haiku-4-5', key: 'sk-ant-bench-000000000000000' },
    { provider: 'gemini', model: 'gemini-1.5-flash', key: 'bench-gemini-0000000000000000' },
    { provider: 'mistral', model: 'mistral-small-latest', key: 'bench-mistral-000000000000000' },
  ] as const satisfies readonly { provider: ProviderId; model: string; key: string }[]
).slice(0, targetCount);

const log = (message: string) => console.error(`[bench:test-runner] ${message}`);
const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;
const mean = (xs: number[]) =>
  xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
const load = () => loadavg().map((n) => round2(n));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** CPU time a process has used so far, ms (Linux: /proc/<pid>/stat, user + system). */
const cpuMsOf = (pid: number | undefined) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
};

/**
 * A case's message: the simulator answers `tok1 … tok11` and, asked for `delayMs`, waits a tenth
 * of it between each of the 11 words (a non-streamed reply comes whole, after 10 gaps).
 */
const messageOf = (i: number, delayMs: number) =>
  `Case ${i + 1}: summarise ticket ${1000 + i} in one line [sim:tokens 11] [sim:delay-ms ${Math.round(delayMs / 10)}]`;

/** Cheap built-in assertions; every fourth case also asks for JSON, which the reply is not. */
const casesFor = (delayMs: number) =>
  Array.from({ length: caseCount }, (_, i) => ({
    name: `Case ${i + 1}`,
    input: messageOf(i, delayMs),
    assertions: [
      { type: 'contains', values: ['tok1'], mode: 'any', ignore_case: true },
      { type: 'regex', pattern: '^tok1( tok\\d+)+$', flags: '' },
      { type: 'length', min: 10, max: 2000 },
      { type: 'not_contains', values: ['error'], ignore_case: true },
      ...(i % 4 === 3 ? [{ type: 'is_json' }] : []),
    ],
  }));
const expectedPassRate = (caseCount - Math.floor(caseCount / 4)) / caseCount;

// ---------------------------------------------------------------------------------------------
// The provider simulator, in a process of its own

const startSim = async () => {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'tools/provider-sim/src/main.ts')],
    {
      cwd: repoRoot,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SIM_CHUNK_DELAY_MS: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the simulator exited (${code})`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Any non-empty API key works')) resolve();
    });
  });
  child.removeAllListeners('exit');
  child.stdout!.resume();
  /** `OPENAI_BASE_URL` → its URL, as the simulator printed them. */
  const env = Object.fromEntries(
    [...out.matchAll(/^export (\w+_BASE_URL)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!]),
  );
  const baseUrls = Object.fromEntries(
    Object.entries(env).map(([name, url]) => [name.replace(/_BASE_URL$/, '').toLowerCase(), url]),
  ) as Record<ProviderId, string>;
  return { child, env, baseUrls };
};

const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

// ---------------------------------------------------------------------------------------------
// Without Chorus: the direct call, the floor, the scheduler alone

type Target = (typeof targets)[number];

const directCall = async (baseUrls: Record<ProviderId, string>, t: Target, message: string) => {
  const t0 = performance.now();
  const { text } = await generateText({
    model: getLanguageModel({ provider: t.provider, model: t.model, apiKey: t.key, baseUrls }),
    system: SYSTEM,
    messages: [{ role: 'user', content: message }],
    maxRetries: 0,
  });
  if (!text.startsWith('tok1')) throw new Error(`unexpected reply from ${t.provider}: ${text}`);
  return performance.now() - t0;
};

/** One call after another, per target: the time of a call with nothing else going on. */
const measureDirect = async (baseUrls: Record<ProviderId, string>, delayMs: number) => {
  const perTarget: Record<string, { mean_ms: number; p50_ms: number; p95_ms: number }> = {};
  for (const t of targets) {
    for (let i = 0; i < 3; i++) await directCall(baseUrls, t, messageOf(i, delayMs));
    const ms: number[] = [];
    for (let i = 0; i < directPerTarget; i++) {
      ms.push(await directCall(baseUrls, t, messageOf(i, delayMs)));
    }
    perTarget[t.provider] = {
      mean_ms: round2(mean(ms)),
      p50_ms: percentile(ms, 50),
      p95_ms: percentile(ms, 95),
    };
  }
  return perTarget;
};

/** Every call of the run, made directly with the run's concurrency per provider. */
const measureFloor = async (
  baseUrls: Record<ProviderId, string>,
  delayMs: number,
  simPid: number | undefined,
) => {
  const cpu0 = process.cpuUsage();
  const sim0 = cpuMsOf(simPid);
  const t0 = performance.now();
  await Promise.all(
    targets.map(async (t) => {
      const queue: string[] = [];
      for (let i = 0; i < caseCount; i++) {
        for (let r = 0; r < repeats; r++) queue.push(messageOf(i, delayMs));
      }
      await Promise.all(
        Array.from({ length: PER_PROVIDER }, async () => {
          for (let m = queue.shift(); m !== undefined; m = queue.shift()) {
            await directCall(baseUrls, t, m);
          }
        }),
      );
    }),
  );
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { ms, clientCpuMs: (cpu.user + cpu.system) / 1000, simCpuMs: cpuMsOf(simPid) - sim0 };
};

/** The scheduler's own bookkeeping: its lanes with tasks that do nothing. */
const measureScheduler = async () => {
  const calls = caseCount * targets.length * repeats;
  const once = async () => {
    const scheduler = createProviderScheduler({
      concurrency: PER_PROVIDER,
      signal: new AbortController().signal,
    });
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: calls }, (_, i) =>
        scheduler.run(targets[i % targets.length]!.provider, () => Promise.resolve(i)),
      ),
    );
    return performance.now() - t0;
  };
  for (let i = 0; i < 5; i++) await once();
  const ms: number[] = [];
  for (let i = 0; i < 20; i++) ms.push(await once());
  return { calls, us_per_call: round2((percentile(ms, 50) * 1000) / calls) };
};

// ---------------------------------------------------------------------------------------------
// Through Chorus

type Kind = 'pglite' | 'postgres';

const withPostgresAdmin = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
  const url = new URL(postgresUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
};
const postgresName = () => new URL(postgresUrl).pathname.slice(1);

/** Transactions committed in the bench database so far (PostgreSQL's statistics). */
const committed = async () => {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'select xact_commit::text as n from pg_stat_database where datname = current_database()',
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
};

type Session = Awaited<ReturnType<typeof signUp>>;

const ended = (s: TestRunStatusBody) => !['queued', 'running'].includes(s.status);

/** Reads the run's results and writes them again, in the engine's batches, into a run of its own. */
const analyse = async (kind: Kind, dataDir: string, run: TestRunStatusBody, userId: string) => {
  const database = openDatabase({
    databaseUrl: kind === 'postgres' ? postgresUrl : undefined,
    dataDir,
  });
  try {
    const rows = await database.db.select().from(testResults).where(eq(testResults.run_id, run.id));
    const batches = new Map<number, number>();
    for (const r of rows)
      batches.set(r.created_at.getTime(), (batches.get(r.created_at.getTime()) ?? 0) + 1);
    const sizes = [...batches.values()];
    const latency = rows.map((r) => r.latency_ms).filter((v): v is number => v !== null);
    const [usage] = rowsOf<{ n: number }>(
      await database.db.execute(sql`
        select count(*)::int as n from usage_events
        where user_id = ${userId} and source = 'test'
          and created_at between ${run.started_at}::timestamptz and ${run.finished_at}::timestamptz`),
    );

    // The database alone: the same rows in batches of 25, each batch its transaction, as the
    // engine's writer sends them (one after another).
    const repo = new TestRunsRepository(database.db, userId);
    const copy = await repo.create({
      test_set_id: run.test_set_id,
      name: 'bench: batch writes',
      source: 'app',
      targets: run.targets,
      repeats: run.repeats,
      plan: {},
      total: rows.length,
      estimated_cost_usd: null,
    });
    const fresh: NewTestResult[] = rows.map((r) => ({
      case_id: r.case_id,
      target: r.target,
      repeat: r.repeat,
      input: r.input,
      output: r.output,
      error: r.error,
      passed: r.passed,
      assertions: r.assertions,
      latency_ms: r.latency_ms,
      input_tokens: r.input_tokens,
      output_tokens: r.output_tokens,
      cost_usd: r.cost_usd,
    }));
    const batchMs: number[] = [];
    for (let i = 0; i < fresh.length; i += BATCH_SIZE) {
      const t0 = performance.now();
      await repo.insertResults(copy.id, fresh.slice(i, i + BATCH_SIZE));
      batchMs.push(performance.now() - t0);
    }
    await database.db.delete(testRuns).where(eq(testRuns.id, copy.id));
    return {
      results: rows.length,
      errors: rows.filter((r) => r.error !== null).length,
      latency_ms: {
        mean: round1(mean(latency)),
        p50: percentile(latency, 50),
        p95: percentile(latency, 95),
      },
      usage_events: usage?.n ?? 0,
      result_batches: {
        count: batches.size,
        rows_mean: round1(mean(sizes)),
        rows_max: Math.max(...sizes),
      },
      batch_write_alone_ms: {
        batches: batchMs.length,
        p50: percentile(batchMs, 50),
        p95: percentile(batchMs, 95),
        total: round1(batchMs.reduce((a, b) => a + b, 0)),
      },
    };
  } finally {
    await database.close();
  }
};

const runOn = async (
  kind: Kind,
  sim: Awaited<ReturnType<typeof startSim>>,
  baselines: Map<number, Baseline>,
) => {
  if (kind === 'postgres') {
    await withPostgresAdmin(async (admin) => {
      await admin.query(`drop database if exists ${postgresName()} with (force)`);
      await admin.query(`create database ${postgresName()}`);
    });
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-test-runner-'));
  const port = await freePort();
  const env = {
    DATA_DIR: dataDir,
    // Warnings go to stdout, where the figures go; a failed call shows in the results anyway.
    LOG_LEVEL: 'error',
    ...(kind === 'postgres' && { DATABASE_URL: postgresUrl }),
    ...sim.env,
  };
  let user: Session | null = null;
  let userId = '';
  let aiId = '';
  const out: Record<string, unknown>[] = [];
  try {
    // PostgreSQL: a server's start and stop alone, on the migrated database, to set apart from
    // the transactions counted over a run's server life.
    let idleTransactions: number | null = null;
    if (kind === 'postgres') {
      await (await startServer(env, port)).stop();
      const before = await committed();
      await (await startServer(env, port)).stop();
      await sleep(1000);
      idleTransactions = (await committed()) - before;
    }
    for (const delayMs of delays) {
      const before = kind === 'postgres' ? await committed() : 0;
      const loadBefore = load();
      const serverStarted = performance.now();
      const server = await startServer(env, port);
      let run: TestRunStatusBody;
      let clientMs: number;
      let polls = 0;
      let serverCpuMs = Number.NaN;
      let simCpuMs = Number.NaN;
      try {
        if (!user) {
          user = await signUp(server.baseUrl, 'bench-test-runner@example.com');
          const session = (await user.json('GET', '/auth/v1/get-session')) as {
            user: { id: string };
          };
          userId = session.user.id;
          for (const t of targets) {
            await user.json('PUT', `/rest/v1/api-keys/${t.provider}`, { api_key: t.key });
          }
          aiId = (
            (await user.json('POST', '/rest/v1/custom-ais', {
              name: 'Bench assistant',
              system_prompt: SYSTEM,
              provider: 'openai',
            })) as { id: string }
          ).id;
        }
        const set = (await user.json('POST', '/rest/v1/test-sets', {
          name: `Bench ${delayMs} ms`,
          subject: { kind: 'custom_ai', id: aiId },
          notify: false,
        })) as { id: string };
        const imported = (await user.json('POST', `/rest/v1/test-sets/${set.id}/cases/import`, {
          format: 'json',
          content: JSON.stringify(casesFor(delayMs)),
        })) as { imported: number; errors: unknown[] };
        if (imported.imported !== caseCount) {
          throw new Error(
            `imported ${imported.imported} cases: ${JSON.stringify(imported.errors)}`,
          );
        }
        log(
          `${kind}, ${delayMs} ms a call: starting a run of ${caseCount * targets.length * repeats} calls`,
        );
        const serverCpu0 = cpuMsOf(server.child.pid);
        const simCpu0 = cpuMsOf(sim.child.pid);
        const t0 = performance.now();
        run = (await user.json('POST', '/functions/v1/test-run', {
          test_set_id: set.id,
          targets: targets.map(({ provider, model }) => ({ provider, model })),
          repeats,
        })) as TestRunStatusBody;
        for (;;) {
          await sleep(250);
          polls++;
          run = (await user.json('GET', `/functions/v1/test-run/${run.id}`)) as TestRunStatusBody;
          if (ended(run)) break;
        }
        clientMs = performance.now() - t0;
        serverCpuMs = cpuMsOf(server.child.pid) - serverCpu0;
        simCpuMs = cpuMsOf(sim.child.pid) - simCpu0;
      } finally {
        await server.stop();
      }
      const serverLifeMs = performance.now() - serverStarted;
      const loadAfter = load();
      // Backends flush their statistics as they exit.
      const transactions =
        kind === 'postgres' ? (await sleep(1000), (await committed()) - before) : null;
      if (run.status !== 'done') throw new Error(`the run ended ${run.status}: ${run.error}`);
      const db = await analyse(kind, dataDir, run, userId);

      const calls = run.total;
      const runMs = Date.parse(run.finished_at!) - Date.parse(run.started_at!);
      const lanes = targets.length * PER_PROVIDER;
      const base = baselines.get(delayMs)!;
      const callsPer = caseCount * repeats;
      const directSumMs = targets.reduce(
        (n, t) => n + callsPer * base.direct[t.provider]!.mean_ms,
        0,
      );
      const idealMs = Math.max(
        ...targets.map((t) => (callsPer * base.direct[t.provider]!.mean_ms) / PER_PROVIDER),
      );
      const result = {
        database: kind === 'pglite' ? 'PGlite' : 'PostgreSQL',
        simulated_latency_ms: delayMs,
        calls,
        run_id: run.id,
        status: run.status,
        pass_rate: run.pass_rate === null ? null : round2(run.pass_rate),
        expected_pass_rate: round2(expectedPassRate),
        errors: run.summary?.errors ?? null,
        wall_s: {
          run: round2(runMs / 1000),
          client: round2(clientMs / 1000),
          queued: round2((Date.parse(run.started_at!) - Date.parse(run.created_at)) / 1000),
          floor: round2(base.floorMs / 1000),
          ideal: round2(idealMs / 1000),
        },
        calls_per_s: round1(calls / (runMs / 1000)),
        floor_calls_per_s: round1(calls / (base.floorMs / 1000)),
        lanes,
        direct_call_mean_ms: round2(directSumMs / calls),
        lane_ms_per_call: round2((runMs * lanes) / calls),
        overhead_ms_per_call: round2((runMs * lanes - directSumMs) / calls),
        overhead_vs_floor_ms_per_call: round2(((runMs - base.floorMs) * lanes) / calls),
        latency_recorded_ms: db.latency_ms,
        // From the POST to the poll that saw the run end (the polls included).
        cpu_ms_per_call: {
          server: round2(serverCpuMs / calls),
          simulator: round2(simCpuMs / calls),
          floor_client: round2(base.floorClientCpuMs / calls),
          floor_simulator: round2(base.floorSimCpuMs / calls),
        },
        db: {
          result_batches: db.result_batches,
          batch_write_alone_ms: db.batch_write_alone_ms,
          batch_writes_share_of_run: round2(db.batch_write_alone_ms.total / runMs),
          usage_events: db.usage_events,
          transactions_server_life: transactions,
          transactions_idle_start_stop: idleTransactions,
          server_life_s: round1(serverLifeMs / 1000),
          transactions_per_call:
            transactions === null || idleTransactions === null
              ? null
              : round2((transactions - idleTransactions) / calls),
        },
        polls,
        load_avg: { before: loadBefore, after: loadAfter },
      };
      log(
        `${kind}, ${delayMs} ms: run ${result.wall_s.run} s (floor ${result.wall_s.floor} s), ` +
          `${result.calls_per_s} calls/s, overhead ${result.overhead_ms_per_call} lane-ms a call`,
      );
      if (db.results !== calls || db.errors > 0) {
        throw new Error(`stored ${db.results} results of ${calls}, ${db.errors} errors`);
      }
      out.push(result);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    if (kind === 'postgres') {
      await withPostgresAdmin((admin) =>
        admin.query(`drop database if exists ${postgresName()} with (force)`),
      );
    }
  }
  return out;
};

type Baseline = {
  direct: Record<string, { mean_ms: number; p50_ms: number; p95_ms: number }>;
  floorMs: number;
  floorClientCpuMs: number;
  floorSimCpuMs: number;
};

const sim = await startSim();
try {
  log(
    `${caseCount} cases × ${targets.length} targets × ${repeats} repeats; simulated latency ${delays.join(', ')} ms; ${PER_PROVIDER} calls at once per provider`,
  );
  const scheduler = await measureScheduler();
  log(`scheduler alone: ${scheduler.us_per_call} µs a call`);
  const baselines = new Map<number, Baseline>();
  for (const delayMs of delays) {
    const direct = await measureDirect(sim.baseUrls, delayMs);
    // A first, untimed floor warms the connections and the JIT (cheap without the delay).
    if (baselines.size === 0) await measureFloor(sim.baseUrls, delayMs, sim.child.pid);
    const floor = await measureFloor(sim.baseUrls, delayMs, sim.child.pid);
    const floorMs = floor.ms;
    baselines.set(delayMs, {
      direct,
      floorMs,
      floorClientCpuMs: floor.clientCpuMs,
      floorSimCpuMs: floor.simCpuMs,
    });
    log(`${delayMs} ms: direct ${JSON.stringify(direct)}; floor ${round2(floorMs / 1000)} s`);
  }
  const kinds: Kind[] = which === 'both' ? ['pglite', 'postgres'] : [which as Kind];
  const runs: Record<string, unknown>[] = [];
  for (const kind of kinds) runs.push(...(await runOn(kind, sim, baselines)));
  console.log(
    JSON.stringify(
      {
        cases: caseCount,
        targets: targets.map(({ provider, model }) => `${provider}/${model}`),
        repeats,
        per_provider_concurrency: PER_PROVIDER,
        scheduler_alone: scheduler,
        direct_calls_one_at_a_time: Object.fromEntries(
          [...baselines].map(([d, b]) => [`${d} ms`, b.direct]),
        ),
        runs,
      },
      null,
      2,
    ),
  );
} finally {
  await stopChild(sim.child);
}

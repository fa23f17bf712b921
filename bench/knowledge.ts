/**
 * Knowledge base (issue 17): ingestion throughput, hybrid search over 100,000 chunks (≤ 25 ms p95
 * is the bar) and the plans of its two queries, on PGlite (with pgvector) and on PostgreSQL.
 *
 *   npx tsx bench/knowledge.ts [--reuse] [--db pglite|postgres|both] [--rounds 200]
 *                              [--skip-ingestion] [--chunks 100000] [--other 20000]
 *
 * In-process, on the server's sources (not the built server): ingestion is `runIngest` itself, the
 * search is `searchKnowledge` and, apart, its database part (`repo.searchFullText` and `searchVectors` with
 * `fullTextQuery` + `vectorQuery`, then `chunkDetails`) with the query vector made beforehand.
 * Embeddings come from the provider simulator on 127.0.0.1 (Ollama's `nomic-embed-text`, 768
 * dimensions); the seed's vectors are the simulator's `embedText`, called in-process.
 *
 * PGlite lives in `.tmp/bench-knowledge/pglite` (BENCH_KNOWLEDGE_DIR moves the directory);
 * PostgreSQL in the database of BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/chorus_bench_knowledge). Without `--reuse` both are made
 * anew and seeded: about 23 minutes on PGlite, 20 of them building the HNSW index, on two cores.
 * With `--reuse`, a database whose seed finished is used as it is (about 7 minutes for both).
 * The measurements always run in a process that did not seed (one is started after a seed).
 * Results and plans: `result-<db>.json`, `plans-<db>.txt` in that directory, and on stdout.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { startProviderSim } from '@chorus/provider-sim';
import {
  connectPostgres,
  openPglite,
  rowsOf,
  type Database,
} from '../apps/server/src/db/client.ts';
import {
  KnowledgeRepository,
  vectorSearchSettings,
  type VectorQuery,
} from '../apps/server/src/db/repositories/knowledge.ts';
import { hasVectorStore } from '../apps/server/src/db/vector-store.ts';
import { embedText } from '../tools/provider-sim/src/embeddings.ts';
import { absent } from './knowledge/corpus.ts';
import { ingestionFiles } from './knowledge/documents.ts';
import {
  CHUNKS_PER_DOCUMENT,
  EMBEDDING,
  MODEL_KEY,
  seedBases,
  seededMark,
  type BasePlan,
  type SeedTimes,
} from './knowledge/seed.ts';
import { loadServer, type BenchDeps } from './knowledge/server.ts';
import { percentile, repoRoot } from './lib.ts';

const server = await loadServer();
const { runIngest, deleteDocument } = server.ingest;
const { fuse, searchKnowledge } = server.search;

const arg = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const which = arg('db') ?? 'both';
const rounds = Number(arg('rounds')) || 200;
const ownChunks = Number(arg('chunks')) || 100_000;
const otherChunks = Number(arg('other')) || 20_000;
const reuse = process.argv.includes('--reuse');
/** Set by the run that seeded, for the fresh process it starts to measure in. */
const seededNow = process.argv.includes('--seeded-now');
/** Search alone (ingestion into a 120,000-vector index takes minutes on PGlite). */
const skipIngestion = process.argv.includes('--skip-ingestion');
if (ownChunks % 1000 !== 0 || otherChunks % 1000 !== 0) {
  throw new Error('--chunks and --other are whole thousands');
}
const postgresUrl =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/chorus_bench_knowledge';
// BENCH_KNOWLEDGE_DIR: elsewhere (e.g. a copy of a seeded database, to try a change on).
const workDir = path.resolve(
  process.env.BENCH_KNOWLEDGE_DIR ?? path.join(repoRoot, '.tmp/bench-knowledge'),
);
const TOP_K = 8;
/** searchKnowledge's candidates per method: max(40, 2 × top_k). */
const CANDIDATES = Math.max(40, TOP_K * 2);

const log = (message: string) => console.error(`[bench:knowledge] ${message}`);
const round1 = (n: number) => Math.round(n * 10) / 10;
/** Milliseconds as seconds, to 0.01 s. */
const secs = (ms: number) => Math.round(ms / 10) / 100;
const stats = (ms: number[]) => ({
  n: ms.length,
  p50: round1(percentile(ms, 50)),
  p95: round1(percentile(ms, 95)),
  p99: round1(percentile(ms, 99)),
  max: round1(percentile(ms, 100)),
});
const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
};

// The seeded bases: the user's 100,000 chunks in three bases, another user's 20,000 in one.
const plansFor = (own: string, other: string): BasePlan[] => {
  const a = Math.round((ownChunks * 0.5) / 1000) * 1000;
  const b = Math.round((ownChunks * 0.3) / 1000) * 1000;
  return [
    { userId: own, name: 'Bench: product docs', from: 0, to: a },
    { userId: own, name: 'Bench: support answers', from: a, to: a + b },
    { userId: own, name: 'Bench: research notes', from: a + b, to: ownChunks },
    { userId: other, name: 'Bench: other user', from: ownChunks, to: ownChunks + otherChunks },
  ];
};

/** Queries from many hits to none (hits: chunks whose full text matches, counted per run). */
const queries = [
  { kind: 'question (common words)', q: 'How are refunds prorated for annual plans?' },
  { kind: 'three very common words', q: 'team project report' },
  { kind: 'question (topic word)', q: 'What should the team do after a kubernetes outage?' },
  { kind: 'two less common words', q: 'reimbursement receipt' },
  { kind: 'three topic words', q: 'glacier crevasse meltwater' },
  { kind: 'one rare word', q: 'zeppelin' },
  { kind: 'reference code (1 chunk)', q: `ref${Math.floor(ownChunks * 0.42) + 7}` },
  { kind: 'no word in any chunk', q: `${absent[0]} ${absent[1]}` },
];

const openDb = async (kind: 'pglite' | 'postgres', dataDir: string): Promise<Database> => {
  if (kind === 'pglite') return openPglite(path.join(dataDir, 'db'));
  return connectPostgres(postgresUrl);
};

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

/** The seeded bases when a finished seed is there (by name and mark), else null. */
const findSeed = async (database: Database, plans: BasePlan[], vectors: boolean) => {
  const rows = rowsOf<{ id: string; name: string; description: string; user_id: string }>(
    await database.db.execute(
      sql`select id, name, description, user_id from knowledge_bases where name like 'Bench: %'`,
    ),
  );
  const ids = plans.map(
    (p) =>
      rows.find(
        (r) => r.user_id === p.userId && r.name === p.name && r.description === seededMark(p),
      )?.id,
  );
  if (ids.some((id) => !id)) return null;
  if (vectors) {
    const [index] = rowsOf<{ ok: boolean }>(
      await database.db.execute(
        sql`select to_regclass(${`public.knowledge_vectors_hnsw_${EMBEDDING.dims}`}) is not null as ok`,
      ),
    );
    if (!index?.ok) return null;
  }
  return ids as string[];
};

/** A user, signed up through the auth API (or found, when the database is reused). */
const ensureUser = async (
  database: Database,
  app: ReturnType<typeof server.app.createApp>,
  appUrl: string,
  email: string,
) => {
  const [found] = rowsOf<{ id: string }>(
    await database.db.execute(sql`select id from users where email = ${email}`),
  );
  if (found) return found.id;
  const res = await app.request('/auth/v1/sign-up/email', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: appUrl, 'x-forwarded-for': '192.0.2.7' },
    body: JSON.stringify({ email, password: 'bench-password-1', name: 'Bench' }),
  });
  if (!res.ok) throw new Error(`sign-up of ${email}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { user: { id: string } }).user.id;
};

/** 1. Real files through the real ingestion: parse → chunk → embed (simulator) → store. */
const measureIngestion = async (deps: BenchDeps, userId: string, vectors: boolean) => {
  log('ingestion');
  const repo = new KnowledgeRepository(deps.database.db, userId);
  // New text each run (a number from the clock), so no vector is one the index already holds.
  const files = await ingestionFiles(Math.floor(Date.now() / 1000) % 100_000);
  // Parsing and chunking alone (the tokenizer loaded by a first, untimed pass).
  for (const f of files) await server.parse.parseDocument(f.bytes, f.type);
  let parseMs = 0;
  for (const f of files)
    parseMs += (await timed(() => server.parse.parseDocument(f.bytes, f.type)))[1];

  const base = await repo.createBase({
    name: `Ingest ${new Date().toISOString()}`,
    description: '',
    embedding_provider: vectors ? EMBEDDING.provider : null,
    embedding_model: vectors ? EMBEDDING.model : null,
  });
  // Uploaded as the upload route stores them (storage service, then a queued document).
  const documents: { id: string }[] = [];
  for (const f of files) {
    const file = await server.upload.storeUpload(deps, {
      userId,
      name: f.name,
      contentType: f.type,
      purpose: 'knowledge',
      conversationId: null,
      declaredSize: f.bytes.byteLength,
      body: Readable.from([Buffer.from(f.bytes)]),
    });
    const { document } = await repo.insertDocument({
      knowledge_base_id: base.id,
      file_id: file.id,
      name: f.name,
      content_type: f.type,
      size_bytes: file.size_bytes,
      sha256: file.sha256!,
      pages: null,
    });
    documents.push(document);
  }
  const sim = deps.config.providerBaseUrls.ollama;
  // One worker, one document after another, as the ingestion job runs them. The time spent
  // storing vectors (into the HNSW index) is counted apart, by wrapping the repository's method.
  const proto = KnowledgeRepository.prototype;
  const insertVectors = proto.insertVectors;
  let vectorInsertMs = 0;
  proto.insertVectors = async function (this: KnowledgeRepository, ...args) {
    const t0 = performance.now();
    try {
      return await insertVectors.apply(this, args);
    } finally {
      vectorInsertMs += performance.now() - t0;
    }
  };
  const [, totalMs] = await timed(async () => {
    try {
      for (const d of documents) await runIngest(deps, { document_id: d.id, user_id: userId });
    } finally {
      proto.insertVectors = insertVectors;
    }
  });
  const after = await repo.listDocuments(base.id);
  const chunks = after.reduce((n, d) => n + d.chunk_count, 0);
  const embedded = after.reduce((n, d) => n + d.embedded_count, 0);
  const notReady = after.filter((d) => d.status !== 'ready');
  if (notReady.length > 0) {
    throw new Error(
      `not ingested: ${notReady.map((d) => `${d.name} ${d.status} ${d.error ?? ''}`).join('; ')}`,
    );
  }
  for (const d of after) await deleteDocument(deps, userId, d);
  await repo.deleteBase(base.id);
  return {
    files: files.length,
    bytes: files.reduce((n, f) => n + f.bytes.byteLength, 0),
    chunks,
    embedded,
    seconds: secs(totalMs),
    chunks_per_s: round1(chunks / (totalMs / 1000)),
    parse_and_chunk_alone_s: secs(parseMs),
    storing_vectors_s: secs(vectorInsertMs),
    embedding_via: vectors ? `${sim} (Ollama ${EMBEDDING.model}, ${EMBEDDING.dims} dims)` : null,
    per_type: after.map((d) => ({ name: d.name, chunks: d.chunk_count })),
  };
};

/** A statement's plan, run as the repository runs it (a vector query with its index settings). */
const explain = async (database: Database, query: SQL | VectorQuery): Promise<string> =>
  database.db.transaction(async (tx) => {
    if ('limit' in query) await tx.execute(vectorSearchSettings(query.limit));
    const rows = rowsOf<Record<string, string>>(
      await tx.execute(sql`explain (analyze, buffers) ${'limit' in query ? query.query : query}`),
    );
    return (
      rows
        .map((r) => Object.values(r)[0])
        .join('\n')
        // The query's vector, 768 numbers long, is not worth reading.
        .replace(/'\[[-0-9.,e]{200,}\]'/g, `'[…${EMBEDDING.dims} numbers…]'`)
    );
  });

const stopDeps = async (deps: BenchDeps) => {
  deps.saves.giveUp();
  await deps.mailer.settled();
  deps.mailer.close();
  await deps.realtime.close();
  await deps.invalidation.close();
  await deps.storage.close();
  await deps.instance.stop();
};

/** Seeds the database when it has no finished seed (then null), else measures on it. */
const runOn = async (kind: 'pglite' | 'postgres', simUrls: Record<string, string>) => {
  const dataDir = path.join(workDir, kind);
  const started = performance.now();
  if (!reuse) {
    if (kind === 'pglite') rmSync(dataDir, { recursive: true, force: true });
    else {
      await withPostgresAdmin(async (admin) => {
        await admin.query(`drop database if exists ${postgresName()} with (force)`);
        await admin.query(`create database ${postgresName()}`);
      });
    }
  } else if (kind === 'postgres') {
    await withPostgresAdmin(async (admin) => {
      const { rows } = await admin.query('select 1 from pg_database where datname = $1', [
        postgresName(),
      ]);
      if (rows.length === 0) await admin.query(`create database ${postgresName()}`);
    });
  }
  mkdirSync(dataDir, { recursive: true });
  const database = await openDb(kind, dataDir);
  await database.migrate();
  const vectors = await hasVectorStore(database.db);
  const config = server.config.loadConfig({
    DATA_DIR: dataDir,
    APP_URL: 'http://localhost:8080',
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_DATA_POINTS: '1000000',
    ...(kind === 'postgres' && { DATABASE_URL: postgresUrl }),
    ...Object.fromEntries(
      Object.entries(simUrls).map(([id, url]) => [`${id.toUpperCase()}_BASE_URL`, url]),
    ),
  });
  const start = async () => {
    const deps = server.deps.createDeps(config, database, server.logger.createLogger('silent'));
    await deps.instance.start();
    return deps;
  };
  const deps = await start();
  const app = server.app.createApp(deps);
  const own = await ensureUser(database, app, config.appUrl, 'bench-knowledge@example.com');
  const other = await ensureUser(database, app, config.appUrl, 'bench-knowledge-2@example.com');
  const plans = plansFor(own, other);

  // 2. The seed, or the one a previous run left (--reuse).
  let seed: { reused: boolean; seconds: number; times: SeedTimes | null };
  let baseIds = reuse ? await findSeed(database, plans, vectors) : null;
  const seedFile = path.join(workDir, `seed-${kind}.json`);
  if (baseIds) {
    log(`${kind}: reusing the seeded bases`);
    // What the seed took when it was made.
    const before = existsSync(seedFile)
      ? (JSON.parse(readFileSync(seedFile, 'utf8')) as { seconds: number; times: SeedTimes })
      : null;
    seed = {
      reused: !seededNow,
      seconds: before?.seconds ?? 0,
      times: before?.times ?? null,
    };
  } else {
    const stale = rowsOf<{ id: string }>(
      await database.db.execute(sql`select id from knowledge_bases where name like 'Bench: %'`),
    );
    if (stale.length > 0) {
      log(`${kind}: removing an unfinished seed`);
      await database.db.execute(sql`delete from knowledge_bases where name like 'Bench: %'`);
    }
    log(
      `${kind}: seeding ${(ownChunks + otherChunks).toLocaleString('en')} chunks${vectors ? ` and their ${EMBEDDING.dims}-dim vectors` : ''}`,
    );
    const t0 = performance.now();
    const result = await seedBases(database, plans, {
      vectors,
      progress: (m) => log(`${kind}: ${m}`),
    });
    baseIds = result.baseIds;
    seed = {
      reused: false,
      seconds: Math.round((performance.now() - t0) / 1000),
      times: result.times,
    };
    writeFileSync(seedFile, JSON.stringify(seed));
    // The measurements run in a fresh process, on the seeded database as a server starting on
    // it would find it (nothing of the seed's hundreds of megabytes left in this one).
    await stopDeps(deps);
    await database.close();
    return null;
  }
  const ownBases = baseIds.slice(0, 3);
  const repo = new KnowledgeRepository(database.db, own);

  // 1. Ingestion (into a base of its own, deleted again).
  const ingestion = skipIngestion ? null : await measureIngestion(deps, own, vectors);
  if (ingestion) log(`${kind}: ingestion ${ingestion.chunks} chunks in ${ingestion.seconds} s`);

  // Full-text hits per query, on the user's bases and on the other user's.
  const hits: Record<string, { own: number; other: number }> = {};
  for (const { kind: k, q } of queries) {
    const count = async (ids: string[], userId: string) => {
      const [row] = rowsOf<{ n: number }>(
        await database.db.execute(sql`
          select count(*)::int as n from knowledge_chunks c
          where c.tsv @@ (select nullif(array_to_string(array(
                  select quote_literal(l) from unnest(tsvector_to_array(to_tsvector('english', ${q}))) l
                ), ' | '), '')::tsquery)
            and c.user_id = ${userId}
            and c.knowledge_base_id in (${sql.join(
              ids.map((id) => sql`${id}::uuid`),
              sql`, `,
            )})`),
      );
      return Number(row?.n ?? 0);
    };
    hits[k] = { own: await count(ownBases, own), other: await count([baseIds[3]!], other) };
  }

  const vectorOf = new Map(queries.map(({ q }) => [q, embedText(q, EMBEDDING.dims)]));
  /** searchKnowledge's database part, with the query's vector made beforehand. */
  const dbSearch = async (q: string) => {
    const phases = { bases: 0, search: 0, details: 0 };
    const t0 = performance.now();
    await repo.ownedBases(ownBases);
    await hasVectorStore(database.db);
    const t1 = performance.now();
    // As searchKnowledge runs them: full text alone (beside the query's embedding), then the
    // vector search in its own transaction.
    const fullText = await repo.searchFullText(repo.fullTextQuery(ownBases, q, CANDIDATES));
    const ranked = await repo.searchVectors(
      vectors ? [repo.vectorQuery(ownBases, MODEL_KEY, vectorOf.get(q)!, CANDIDATES)] : [],
    );
    const t2 = performance.now();
    const fused = fuse(fullText, ranked).slice(0, TOP_K);
    const details = await repo.chunkDetails(fused.map((f) => f.chunk_id));
    const t3 = performance.now();
    phases.bases = t1 - t0;
    phases.search = t2 - t1;
    phases.details = t3 - t2;
    return { ms: t3 - t0, phases, details };
  };
  const endToEnd = (q: string) =>
    searchKnowledge(deps, { userId: own, baseIds: ownBases, query: q, topK: TOP_K });

  log(`${kind}: warming up`);
  for (let i = 0; i < 3; i++) {
    for (const { q } of queries) {
      await dbSearch(q);
      await endToEnd(q);
    }
  }
  // Sanity: the reference code's one chunk is among the results (full text finds it; RRF gives
  // it the same score as the vectors' first, so the tie is broken by chunk id); no chunk of the
  // other user ever shows.
  const reference = queries.find((x) => x.kind.startsWith('reference'))!;
  const refHit = (await endToEnd(reference.q)).results.find((h) => h.text.includes(reference.q));
  const checks = {
    reference_chunk_rank: refHit?.rank ?? null,
    reference_found_by: refHit?.found_by ?? [],
    other_users_chunks_returned: 0,
    mode: (await endToEnd(queries[0]!.q)).mode,
  };

  // 2. N rounds over the queries in turn. Each round measures, for the same query and in an
  // order that rotates, (a) the database part, (b) end to end, and each method alone (its own
  // transaction for vectors, as the repository runs it) to see where the time goes; so load on this shared
  // machine falls on all of them alike.
  log(`${kind}: ${rounds} rounds of searches`);
  const series = () => ({ all: [] as number[], byKind: new Map<string, number[]>() });
  const db = series();
  const e2e = series();
  const fullText = series();
  const vector = series();
  const phaseAll = { bases: [] as number[], search: [] as number[], details: [] as number[] };
  const record = (s: ReturnType<typeof series>, k: string, ms: number) => {
    s.all.push(ms);
    s.byKind.set(k, [...(s.byKind.get(k) ?? []), ms]);
  };
  for (let i = 0; i < rounds; i++) {
    const { kind: k, q } = queries[i % queries.length]!;
    const steps: (() => Promise<void>)[] = [
      async () => {
        const r = await dbSearch(q);
        record(db, k, r.ms);
        phaseAll.bases.push(r.phases.bases);
        phaseAll.search.push(r.phases.search);
        phaseAll.details.push(r.phases.details);
        checks.other_users_chunks_returned += r.details.filter(
          (d) => d.knowledge_base_id === baseIds[3],
        ).length;
      },
      async () => {
        const [result, ms] = await timed(() => endToEnd(q));
        record(e2e, k, ms);
        checks.other_users_chunks_returned += result.results.filter(
          (h) => h.knowledge_base_id === baseIds[3],
        ).length;
      },
      async () => {
        const [, ms] = await timed(() =>
          repo.searchFullText(repo.fullTextQuery(ownBases, q, CANDIDATES)),
        );
        record(fullText, k, ms);
      },
      async () => {
        if (!vectors) return;
        const [, ms] = await timed(() =>
          repo.searchVectors([repo.vectorQuery(ownBases, MODEL_KEY, vectorOf.get(q)!, CANDIDATES)]),
        );
        record(vector, k, ms);
      },
    ];
    // Query i % 8 would always meet the same order were the order picked by i alone.
    const first = Math.floor(i / queries.length);
    for (let j = 0; j < steps.length; j++) await steps[(first + j) % steps.length]!();
  }

  // 3. The plans.
  log(`${kind}: EXPLAIN`);
  const plans3: Record<string, string> = {};
  for (const k of ['question (common words)', 'three topic words']) {
    const q = queries.find((x) => x.kind === k)!.q;
    plans3[`full text: ${q}`] = await explain(
      database,
      repo.fullTextQuery(ownBases, q, CANDIDATES),
    );
  }
  if (vectors) {
    const q = queries[0]!.q;
    plans3[`vector: ${q}`] = await explain(
      database,
      repo.vectorQuery(ownBases, MODEL_KEY, vectorOf.get(q)!, CANDIDATES),
    );
  }
  const planText = Object.values(plans3).join('\n');
  const sizes = rowsOf<{ what: string; size: string }>(
    await database.db.execute(sql`
      select 'knowledge_chunks (with TOAST)' as what, pg_size_pretty(pg_total_relation_size('knowledge_chunks')) as size
      union all select 'knowledge_chunks_tsv_idx', pg_size_pretty(pg_relation_size('knowledge_chunks_tsv_idx'))
      ${
        vectors
          ? sql`union all select 'knowledge_vectors (with TOAST)', pg_size_pretty(pg_total_relation_size('knowledge_vectors'))
      union all select ${`knowledge_vectors_hnsw_${EMBEDDING.dims}`}, pg_size_pretty(pg_relation_size(${`knowledge_vectors_hnsw_${EMBEDDING.dims}`}))`
          : sql``
      }`),
  );

  const byKind = (m: Map<string, number[]>) =>
    Object.fromEntries(
      queries.map(({ kind: k }) => [k, { hits: hits[k], ...stats(m.get(k) ?? []) }]),
    );
  const result = {
    database:
      kind === 'pglite' ? 'PGlite (pgvector)' : 'PostgreSQL 15 (no pgvector: full text alone)',
    search_mode: vectors ? 'hybrid: full text + vectors, RRF k = 60' : 'full text alone',
    chunks: { own: ownChunks, other_user: otherChunks, per_document: CHUNKS_PER_DOCUMENT },
    seed,
    ingestion,
    rounds,
    top_k: TOP_K,
    candidates_per_method: CANDIDATES,
    db_part_ms: { all: stats(db.all), by_query: byKind(db.byKind) },
    db_part_phases_ms: {
      owned_bases: stats(phaseAll.bases),
      search_transaction: stats(phaseAll.search),
      chunk_details: stats(phaseAll.details),
    },
    full_text_alone_ms: { all: stats(fullText.all), by_query: byKind(fullText.byKind) },
    vector_alone_ms: vectors ? { all: stats(vector.all), by_query: byKind(vector.byKind) } : null,
    end_to_end_ms: { all: stats(e2e.all), by_query: byKind(e2e.byKind) },
    bar_25ms_p95: {
      db_part: percentile(db.all, 95) <= 25,
      end_to_end: percentile(e2e.all, 95) <= 25,
    },
    indexes_used: {
      gin_on_tsv: planText.includes('knowledge_chunks_tsv_idx'),
      hnsw: vectors ? planText.includes(`knowledge_vectors_hnsw_${EMBEDDING.dims}`) : null,
    },
    sizes,
    checks,
    total_s: Math.round((performance.now() - started) / 1000),
  };
  writeFileSync(path.join(workDir, `result-${kind}.json`), JSON.stringify(result, null, 2));
  writeFileSync(
    path.join(workDir, `plans-${kind}.txt`),
    Object.entries(plans3)
      .map(([k, v]) => `-- ${k}\n${v}\n`)
      .join('\n'),
  );
  await stopDeps(deps);
  await database.close();
  return { result, plans: plans3 };
};

mkdirSync(workDir, { recursive: true });
const sim = await startProviderSim({ port: 0, host: '127.0.0.1' });
const seeded: string[] = [];
try {
  const kinds =
    which === 'both' ? (['pglite', 'postgres'] as const) : [which as 'pglite' | 'postgres'];
  for (const kind of kinds) {
    const measured = await runOn(kind, sim.baseUrls);
    if (!measured) {
      seeded.push(kind);
      continue;
    }
    console.log(JSON.stringify(measured.result, null, 2));
    for (const [name, plan] of Object.entries(measured.plans)) {
      console.log(`\n-- ${kind}, ${name}\n${plan}`);
    }
  }
} finally {
  await sim.close();
}
// Measure what was just seeded, each in a process of its own (same tsx loader, same options).
for (const kind of seeded) {
  log(`${kind}: measuring in a fresh process`);
  const args = ['--db', kind, '--reuse', '--seeded-now', '--rounds', String(rounds)];
  if (skipIngestion) args.push('--skip-ingestion');
  args.push('--chunks', String(ownChunks), '--other', String(otherChunks));
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...args], {
    stdio: 'inherit',
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) process.exit(code ?? 1);
}
if (seeded.length === 0) log(`plans and results also in ${path.relative(repoRoot, workDir)}/`);

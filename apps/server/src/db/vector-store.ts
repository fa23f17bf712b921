import { sql, type SQL } from 'drizzle-orm';

/** What these statements run on: a database or a transaction (client.ts's Queryable). */
type Executor = { execute(query: SQL): PromiseLike<unknown> };
type Db = Executor;
type Queryable = Executor;
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * The knowledge base's vectors (issue 17), in a table of their own that exists only where the
 * database has the `vector` extension: PGlite ships it; a PostgreSQL may not. Created by
 * `Database.migrate()` when the extension can be had (and on a later start once it is installed);
 * without it every knowledge base searches by full text alone, and the server says so.
 *
 * One row per chunk and embedding model, so a base being re-embedded keeps its current vectors
 * until the new ones are all there. Vectors of any size share the table; each size gets its own
 * partial HNSW index over a `halfvec` cast (HNSW indexes `vector` only up to 2,000 dimensions,
 * `halfvec` up to 4,000, and half the bytes are plenty for ranking).
 */
export const vectorStoreDdl = [
  'create extension if not exists vector',
  `create table if not exists knowledge_vectors (
    chunk_id uuid not null references knowledge_chunks(id) on delete cascade,
    model text not null,
    knowledge_base_id uuid not null references knowledge_bases(id) on delete cascade,
    user_id text not null,
    dims integer not null check (dims between 1 and 4000),
    embedding vector not null,
    primary key (chunk_id, model)
  )`,
  'create index if not exists knowledge_vectors_base_idx on knowledge_vectors (knowledge_base_id, model)',
] as const;

/** The largest vector an HNSW index over `halfvec` takes. */
export const maxVectorDimensions = 4000;

/** Creates the vector table when the extension is available; answers whether it exists after. */
export const ensureVectorStore = async (
  db: Db,
  log?: { warn(obj: object, msg: string): void },
): Promise<boolean> => {
  const [available] = rowsOf<{ ok: boolean }>(
    await db.execute(
      sql`select exists (select 1 from pg_available_extensions where name = 'vector') as ok`,
    ),
  );
  if (!available?.ok) return false;
  try {
    for (const statement of vectorStoreDdl) await db.execute(sql.raw(statement));
    return true;
  } catch (error) {
    // Available but not ours to create (a managed PostgreSQL without the privilege).
    log?.warn({ err: error }, 'the vector extension could not be created');
    return false;
  }
};

const known = new WeakMap<object, Promise<boolean>>();

/** Whether this database has the vector table; asked once per database handle. */
export const hasVectorStore = (db: Db): Promise<boolean> => {
  let answer = known.get(db);
  if (!answer) {
    const asked = Promise.resolve(
      db.execute(sql`select to_regclass('public.knowledge_vectors') is not null as ok`),
    ).then((result) => rowsOf<{ ok: boolean }>(result)[0]?.ok === true);
    asked.catch(() => known.delete(db));
    known.set(db, asked);
    answer = asked;
  }
  return answer;
};

const indexed = new WeakMap<object, Set<number>>();

/** The partial HNSW index for vectors of `dims` dimensions, made the first time they are stored. */
export const ensureVectorIndex = async (db: Queryable, dims: number): Promise<void> => {
  if (!Number.isInteger(dims) || dims < 1 || dims > maxVectorDimensions) {
    throw new Error(`a vector has 1 to ${maxVectorDimensions} dimensions, not ${dims}`);
  }
  const done = indexed.get(db) ?? new Set<number>();
  indexed.set(db, done);
  if (done.has(dims)) return;
  await db.execute(
    sql.raw(
      `create index if not exists knowledge_vectors_hnsw_${dims} on knowledge_vectors using hnsw ((embedding::halfvec(${dims})) halfvec_cosine_ops) where dims = ${dims}`,
    ),
  );
  done.add(dims);
};

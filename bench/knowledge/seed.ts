/**
 * Bulk seeding of knowledge bases for the bench: documents, chunks and (where the database has
 * pgvector) their vectors, written straight into the tables in batches of multi-row inserts
 * (`unnest` of arrays, one statement per batch) instead of through ingestion, which would take
 * hours for 120,000 chunks. The vectors are the provider simulator's own (`embedText`), of the
 * text ingestion would embed (`embeddingInput`), so a query's vector finds the same neighbours it
 * would after a real ingestion.
 */
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../../apps/server/src/db/client.ts';
import { vectorModelKey } from '../../apps/server/src/db/repositories/knowledge.ts';
import { ensureVectorIndex } from '../../apps/server/src/db/vector-store.ts';
import { embedText } from '../../tools/provider-sim/src/embeddings.ts';
import { chunkText, headingPath, topics } from './corpus.ts';
import { loadServer } from './server.ts';

const { embeddingInput } = (await loadServer()).ingest;

/** The embedding model of the seeded bases: Ollama's nomic-embed-text, 768 dimensions. */
export const EMBEDDING = { provider: 'ollama', model: 'nomic-embed-text', dims: 768 } as const;
export const MODEL_KEY = vectorModelKey(EMBEDDING.provider, EMBEDDING.model);

/** Chunks per seeded document. */
export const CHUNKS_PER_DOCUMENT = 50;
/** Rows per insert statement. */
const BATCH = 1000;

/** A base to seed: its owner, name, and the global numbers of its chunks (`from` … `to - 1`). */
export type BasePlan = { userId: string; name: string; from: number; to: number };

/** Marks a base whose seed finished (its description), so a later run can reuse it. */
export const seededMark = (plan: BasePlan) => `bench seed complete: chunks ${plan.from}-${plan.to}`;

/** A vector as pgvector reads it; 7 significant digits is all a float4 keeps. */
const vectorLiteral = (values: readonly number[]) =>
  `[${values.map((x) => (x === 0 ? '0' : x.toPrecision(7))).join(',')}]`;

export type SeedTimes = { chunks_s: number; vectors_s: number; hnsw_s: number; analyze_s: number };

/** The topic of global chunk `i`: one per document, in turn. */
export const topicOf = (i: number) => Math.floor(i / CHUNKS_PER_DOCUMENT) % topics.length;

const since = (t0: number) => (performance.now() - t0) / 1000;

/**
 * Seeds `plans` (bases that do not exist yet); with `vectors`, stores every chunk's vector and
 * then builds the HNSW index over all of them at once, which is several times faster than
 * inserting into an existing index (the index is dropped first if it is there).
 */
export const seedBases = async (
  database: Database,
  plans: readonly BasePlan[],
  opts: { vectors: boolean; progress(message: string): void },
): Promise<{ baseIds: string[]; times: SeedTimes }> => {
  const { db, sqlClient } = database;
  const times: SeedTimes = { chunks_s: 0, vectors_s: 0, hnsw_s: 0, analyze_s: 0 };
  if (opts.vectors) {
    await db.execute(sql.raw(`drop index if exists knowledge_vectors_hnsw_${EMBEDDING.dims}`));
  }
  const baseIds: string[] = [];
  const total = plans.reduce((n, p) => n + p.to - p.from, 0);
  let done = 0;
  for (const plan of plans) {
    const [base] = rowsOf<{ id: string }>(
      await db.execute(sql`
        insert into knowledge_bases (user_id, name, description, embedding_provider, embedding_model)
        values (${plan.userId}, ${plan.name}, 'seeding',
                ${opts.vectors ? EMBEDDING.provider : null}, ${opts.vectors ? EMBEDDING.model : null})
        returning id`),
    );
    const baseId = base!.id;
    baseIds.push(baseId);
    for (let from = plan.from; from < plan.to; from += BATCH) {
      const to = Math.min(plan.to, from + BATCH);
      // Documents of this batch (a batch is whole documents: BATCH is a multiple of 50).
      const docIds: string[] = [];
      const docNames: string[] = [];
      const docShas: string[] = [];
      for (let d = from; d < to; d += CHUNKS_PER_DOCUMENT) {
        const n = d / CHUNKS_PER_DOCUMENT;
        docIds.push(randomUUID());
        docNames.push(`${topics[topicOf(d)]![0]} handbook ${n}.md`);
        docShas.push(createHash('sha256').update(`bench-doc-${n}`).digest('hex'));
      }
      const ids: string[] = [];
      const documents: string[] = [];
      const ords: number[] = [];
      const headings: string[] = [];
      const texts: string[] = [];
      const tokens: number[] = [];
      const vectors: string[] = [];
      for (let i = from; i < to; i++) {
        const ord = i % CHUNKS_PER_DOCUMENT;
        const path = headingPath(topicOf(i), ord);
        const text = chunkText(i, topicOf(i));
        ids.push(randomUUID());
        documents.push(docIds[Math.floor((i - from) / CHUNKS_PER_DOCUMENT)]!);
        ords.push(ord);
        headings.push(path.join(' › '));
        texts.push(text);
        tokens.push(Math.round(text.split(' ').length * 1.3));
        if (opts.vectors) {
          vectors.push(
            vectorLiteral(embedText(embeddingInput({ text, heading_path: path }), EMBEDDING.dims)),
          );
        }
      }
      const t0 = performance.now();
      await sqlClient.query({
        text: `insert into knowledge_documents
                 (id, knowledge_base_id, user_id, name, content_type, size_bytes, sha256, status,
                  chunk_count, embedded_count)
               select d.id, $2::uuid, $3::text, d.name, 'text/markdown', 60000, d.sha, 'ready',
                      ${CHUNKS_PER_DOCUMENT}, ${opts.vectors ? CHUNKS_PER_DOCUMENT : 0}
               from unnest($1::uuid[], $4::text[], $5::text[]) as d(id, name, sha)`,
        values: [docIds, baseId, plan.userId, docNames, docShas],
      });
      await sqlClient.query({
        text: `insert into knowledge_chunks
                 (id, document_id, knowledge_base_id, user_id, ord, heading_path, heading_text,
                  text, token_count)
               select c.id, c.doc, $3::uuid, $4::text, c.ord, string_to_array(c.head, ' › '),
                      c.head, c.body, c.tokens
               from unnest($1::uuid[], $2::uuid[], $5::int[], $6::text[], $7::text[], $8::int[])
                 as c(id, doc, ord, head, body, tokens)`,
        values: [ids, documents, baseId, plan.userId, ords, headings, texts, tokens],
      });
      times.chunks_s += since(t0);
      if (opts.vectors) {
        const t1 = performance.now();
        await sqlClient.query({
          text: `insert into knowledge_vectors
                   (chunk_id, model, knowledge_base_id, user_id, dims, embedding)
                 select v.id, $3::text, $4::uuid, $5::text, ${EMBEDDING.dims}, v.e::vector
                 from unnest($1::uuid[], $2::text[]) as v(id, e)`,
          values: [ids, vectors, MODEL_KEY, baseId, plan.userId],
        });
        times.vectors_s += since(t1);
      }
      done += to - from;
      if (done % 10_000 === 0 || done === total) {
        opts.progress(
          `seeded ${done.toLocaleString('en')} of ${total.toLocaleString('en')} chunks`,
        );
      }
    }
  }
  // Fresh planner statistics, as the hourly refresh-planner-statistics job keeps them on PGlite
  // (which runs no autovacuum) and autovacuum keeps them on PostgreSQL.
  const t2 = performance.now();
  await db.execute(sql`analyze knowledge_documents`);
  await db.execute(sql`analyze knowledge_chunks`);
  if (opts.vectors) await db.execute(sql`analyze knowledge_vectors`);
  times.analyze_s = since(t2);
  if (opts.vectors) {
    opts.progress('building the HNSW index over all vectors');
    const t3 = performance.now();
    // The graph of 120,000 vectors does not fit in the default 64 MB: it would be built on
    // disk, far slower. For this transaction only.
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local maintenance_work_mem = '1GB'`);
      await ensureVectorIndex(tx, EMBEDDING.dims);
    });
    times.hnsw_s = since(t3);
  }
  for (const [i, plan] of plans.entries()) {
    await db.execute(
      sql`update knowledge_bases set description = ${seededMark(plan)} where id = ${baseIds[i]}::uuid`,
    );
  }
  for (const key of Object.keys(times) as (keyof SeedTimes)[]) {
    times[key] = Math.round(times[key] * 10) / 10;
  }
  return { baseIds, times };
};

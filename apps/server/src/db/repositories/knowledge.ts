import {
  and,
  desc,
  eq,
  getTableColumns,
  inArray,
  isNotNull,
  isNull,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { DocumentStatus } from '@chorus/shared/api/knowledge';
import { rowsOf, type Db, type Queryable } from '../client.ts';
import { files, knowledgeBases, knowledgeChunks, knowledgeDocuments } from '../schema/index.ts';
import { ensureVectorIndex } from '../vector-store.ts';
import { ownerGone } from './instances.ts';

export type KnowledgeBaseRow = typeof knowledgeBases.$inferSelect;
export type KnowledgeDocumentRow = typeof knowledgeDocuments.$inferSelect;
export type KnowledgeChunkRow = typeof knowledgeChunks.$inferSelect;

export type KnowledgeBaseWithCounts = KnowledgeBaseRow & {
  document_count: number;
  chunk_count: number;
  size_bytes: number;
};

export type NewChunk = {
  ord: number;
  text: string;
  page: number | null;
  heading_path: string[];
  row_from: number | null;
  row_to: number | null;
  token_count: number;
};

/** One method's ranking of a chunk. */
export type RankedChunk = { chunk_id: string; score: number };

export type ChunkDetail = {
  id: string;
  document_id: string;
  document_name: string;
  knowledge_base_id: string;
  ord: number;
  page: number | null;
  heading_path: string[];
  row_from: number | null;
  row_to: number | null;
  text: string;
};

/** How a vector model is named in `knowledge_vectors.model`. */
export const vectorModelKey = (provider: string, model: string) => `${provider}:${model}`;

/** A vector as pgvector reads it: `[0.1,0.2,…]`. */
const vectorLiteral = (values: readonly number[]) => `[${values.join(',')}]`;

const rankedChunks = (rows: unknown): RankedChunk[] =>
  rowsOf<{ chunk_id: string; score: number }>(rows).map((r) => ({
    chunk_id: r.chunk_id,
    score: Number(r.score),
  }));

/** A vector search's statement, and how many chunks it asks for. */
export type VectorQuery = { query: SQL; limit: number };

/**
 * How a transaction walks the HNSW index for vector queries of up to `limit` rows: in relaxed
 * order (see vectorQuery), and with a candidate list half as long again as the rows wanted, so
 * that the rows a filter drops (another user's, another base's) seldom leave the first pass
 * short. A short first pass makes the scan go on for more, which costs more than the longer list
 * (bench/knowledge.ts: 11.2 → 9.7 ms p50 over 100,000 chunks, with fewer true neighbours missed).
 */
export const vectorSearchSettings = (limit: number) =>
  sql`select set_config('hnsw.iterative_scan', 'relaxed_order', true),
             set_config('hnsw.ef_search', ${String(Math.min(1000, Math.max(40, Math.ceil(limit * 1.5))))}, true)`;

/** A full-text tier with fewer matches than this ranks them all (see fullTextQuery). */
const FULL_TEXT_RANKED = 1000;
/** …and with more, ranks this many of them. */
const FULL_TEXT_RANKED_PAST_CAP = 300;

/** How many rows one multi-row insert carries (PostgreSQL takes at most 65,535 parameters). */
const INSERT_BATCH = 500;

/**
 * The knowledge base's rows (issue 17). Every query of a user's data is scoped to `userId`:
 * whatever ids a caller sends, another user's bases, documents and chunks are never read.
 */
export class KnowledgeRepository {
  constructor(
    private readonly db: Db,
    readonly userId: string,
  ) {}

  // ─── Bases ────────────────────────────────────────────────────────────────────────────────

  // Written out in full: drizzle leaves column names unqualified inside a subquery.
  private basesWithCounts(where: ReturnType<typeof and>) {
    return this.db
      .select({
        base: knowledgeBases,
        document_count: sql<number>`(select count(*)::int from ${knowledgeDocuments} d where d.knowledge_base_id = "knowledge_bases"."id")`,
        chunk_count: sql<number>`(select coalesce(sum(d.chunk_count), 0)::int from ${knowledgeDocuments} d where d.knowledge_base_id = "knowledge_bases"."id")`,
        size_bytes: sql<number>`(select coalesce(sum(d.size_bytes), 0)::bigint from ${knowledgeDocuments} d where d.knowledge_base_id = "knowledge_bases"."id")`,
      })
      .from(knowledgeBases)
      .where(where)
      .orderBy(desc(knowledgeBases.created_at), knowledgeBases.id);
  }

  async listBases(): Promise<KnowledgeBaseWithCounts[]> {
    const rows = await this.basesWithCounts(and(eq(knowledgeBases.user_id, this.userId)));
    return rows.map((r) => ({
      ...r.base,
      document_count: Number(r.document_count),
      chunk_count: Number(r.chunk_count),
      size_bytes: Number(r.size_bytes),
    }));
  }

  async getBase(id: string): Promise<KnowledgeBaseWithCounts | null> {
    const [row] = await this.basesWithCounts(
      and(eq(knowledgeBases.user_id, this.userId), eq(knowledgeBases.id, id)),
    );
    return row
      ? {
          ...row.base,
          document_count: Number(row.document_count),
          chunk_count: Number(row.chunk_count),
          size_bytes: Number(row.size_bytes),
        }
      : null;
  }

  /** The bases among `ids` that are the user's, in no particular order. */
  async ownedBases(ids: readonly string[]): Promise<KnowledgeBaseRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select()
      .from(knowledgeBases)
      .where(and(eq(knowledgeBases.user_id, this.userId), inArray(knowledgeBases.id, [...ids])));
  }

  async ownedBaseIds(ids: readonly string[]): Promise<string[]> {
    return (await this.ownedBases(ids)).map((b) => b.id);
  }

  async countBases(): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(knowledgeBases)
      .where(eq(knowledgeBases.user_id, this.userId));
    return Number(row?.n ?? 0);
  }

  async createBase(fields: {
    name: string;
    description: string;
    embedding_provider: string | null;
    embedding_model: string | null;
  }): Promise<KnowledgeBaseRow> {
    const [row] = await this.db
      .insert(knowledgeBases)
      .values({ ...fields, user_id: this.userId })
      .returning();
    return row!;
  }

  async updateBase(
    id: string,
    patch: Partial<
      Pick<
        KnowledgeBaseRow,
        | 'name'
        | 'description'
        | 'embedding_provider'
        | 'embedding_model'
        | 'reembed_provider'
        | 'reembed_model'
      >
    >,
  ): Promise<KnowledgeBaseRow | null> {
    const [row] = await this.db
      .update(knowledgeBases)
      .set(patch)
      .where(and(eq(knowledgeBases.id, id), eq(knowledgeBases.user_id, this.userId)))
      .returning();
    return row ?? null;
  }

  /** Deletes the base (its documents, chunks and vectors go with it); its files go first. */
  async deleteBase(id: string): Promise<boolean> {
    const deleted = await this.db
      .delete(knowledgeBases)
      .where(and(eq(knowledgeBases.id, id), eq(knowledgeBases.user_id, this.userId)))
      .returning({ id: knowledgeBases.id });
    return deleted.length > 0;
  }

  // ─── Documents ───────────────────────────────────────────────────────────────────────────

  async listDocuments(baseId: string): Promise<KnowledgeDocumentRow[]> {
    return this.db
      .select()
      .from(knowledgeDocuments)
      .where(
        and(
          eq(knowledgeDocuments.knowledge_base_id, baseId),
          eq(knowledgeDocuments.user_id, this.userId),
        ),
      )
      .orderBy(desc(knowledgeDocuments.created_at), knowledgeDocuments.id);
  }

  async getDocument(baseId: string, id: string): Promise<KnowledgeDocumentRow | null> {
    const [row] = await this.db
      .select()
      .from(knowledgeDocuments)
      .where(
        and(
          eq(knowledgeDocuments.id, id),
          eq(knowledgeDocuments.knowledge_base_id, baseId),
          eq(knowledgeDocuments.user_id, this.userId),
        ),
      );
    return row ?? null;
  }

  /** The files of a base's documents (to delete their objects before the base). */
  async fileKeysOfBase(baseId: string): Promise<{ id: string; storage_key: string }[]> {
    return this.db
      .select({ id: files.id, storage_key: files.storage_key })
      .from(knowledgeDocuments)
      .innerJoin(files, eq(files.id, knowledgeDocuments.file_id))
      .where(
        and(
          eq(knowledgeDocuments.knowledge_base_id, baseId),
          eq(knowledgeDocuments.user_id, this.userId),
        ),
      );
  }

  /**
   * A new document, queued; or, when the base holds the same bytes already, that one (answered
   * with `created: false`). The unique (base, hash) index settles a race of two uploads.
   */
  async insertDocument(fields: {
    knowledge_base_id: string;
    file_id: string;
    name: string;
    content_type: string;
    size_bytes: number;
    sha256: string;
    pages: number | null;
  }): Promise<{ document: KnowledgeDocumentRow; created: boolean }> {
    const [row] = await this.db
      .insert(knowledgeDocuments)
      .values({ ...fields, user_id: this.userId })
      .onConflictDoNothing({
        target: [knowledgeDocuments.knowledge_base_id, knowledgeDocuments.sha256],
      })
      .returning();
    if (row) return { document: row, created: true };
    const [existing] = await this.db
      .select()
      .from(knowledgeDocuments)
      .where(
        and(
          eq(knowledgeDocuments.knowledge_base_id, fields.knowledge_base_id),
          eq(knowledgeDocuments.sha256, fields.sha256),
          eq(knowledgeDocuments.user_id, this.userId),
        ),
      );
    return { document: existing!, created: false };
  }

  async findBySha(baseId: string, sha256: string): Promise<KnowledgeDocumentRow | null> {
    const [row] = await this.db
      .select()
      .from(knowledgeDocuments)
      .where(
        and(
          eq(knowledgeDocuments.knowledge_base_id, baseId),
          eq(knowledgeDocuments.sha256, sha256),
          eq(knowledgeDocuments.user_id, this.userId),
        ),
      );
    return row ?? null;
  }

  async deleteDocument(id: string): Promise<boolean> {
    const deleted = await this.db
      .delete(knowledgeDocuments)
      .where(and(eq(knowledgeDocuments.id, id), eq(knowledgeDocuments.user_id, this.userId)))
      .returning({ id: knowledgeDocuments.id });
    return deleted.length > 0;
  }

  /** Queues a failed document again, from parsing. */
  async requeue(baseId: string, id: string): Promise<KnowledgeDocumentRow | null> {
    const [row] = await this.db
      .update(knowledgeDocuments)
      .set({ status: 'queued', error: null, lease_until: null })
      .where(
        and(
          eq(knowledgeDocuments.id, id),
          eq(knowledgeDocuments.knowledge_base_id, baseId),
          eq(knowledgeDocuments.user_id, this.userId),
          eq(knowledgeDocuments.status, 'failed'),
        ),
      )
      .returning();
    return row ?? null;
  }

  // ─── Ingestion (the job's side) ──────────────────────────────────────────────────────────

  /**
   * Takes the document for `instanceId` (ADR 018) if it still has work to do, no wait holds it
   * (`lease_until`), and no live instance has it — or it is this instance's and the caller knows
   * it is not worked on here (a run that failed). A queued one moves to parsing. Null when it is
   * done, failed, gone, waiting, or held by a live instance. `resumed`: it was taken from an
   * instance that is gone.
   */
  async claim(
    id: string,
    instanceId: string,
  ): Promise<{ doc: KnowledgeDocumentRow; resumed: boolean } | null> {
    const [row] = await this.db
      .update(knowledgeDocuments)
      .set({
        instance_id: instanceId,
        lease_until: null,
        status: sql`case when ${knowledgeDocuments.status} = 'queued' then 'parsing' else ${knowledgeDocuments.status} end`,
      })
      .where(
        and(
          eq(knowledgeDocuments.id, id),
          eq(knowledgeDocuments.user_id, this.userId),
          inArray(knowledgeDocuments.status, ['queued', 'parsing', 'embedding']),
          sql`(${knowledgeDocuments.lease_until} is null or ${knowledgeDocuments.lease_until} < now())`,
          or(
            eq(knowledgeDocuments.instance_id, instanceId),
            ownerGone(knowledgeDocuments.instance_id),
          ),
        ),
      )
      .returning({
        ...getTableColumns(knowledgeDocuments),
        // The sub-select reads the row as it was before this statement (one snapshot).
        previous: sql<string | null>`(
          select prior.instance_id from ${knowledgeDocuments} prior
          where prior.id = ${knowledgeDocuments}.id
        )`,
      });
    if (!row) return null;
    const { previous, ...doc } = row;
    return { doc, resumed: previous !== null && previous !== instanceId };
  }

  /**
   * Lets the document go: no instance holds it, and none takes it before `waitMs` from now (a
   * provider's rate limit), or at once to hand it to a fresh job.
   */
  async release(id: string, waitMs = 0): Promise<void> {
    const until = new Date(Date.now() + waitMs).toISOString();
    await this.db
      .update(knowledgeDocuments)
      .set({ instance_id: null, lease_until: waitMs > 0 ? sql`${until}::timestamptz` : null })
      .where(and(eq(knowledgeDocuments.id, id), eq(knowledgeDocuments.user_id, this.userId)));
  }

  async setStatus(
    id: string,
    status: DocumentStatus,
    extra: { error?: string | null; embedded_count?: number } = {},
  ): Promise<void> {
    await this.db
      .update(knowledgeDocuments)
      .set({
        status,
        ...(extra.error !== undefined && { error: extra.error }),
        ...(extra.embedded_count !== undefined && { embedded_count: extra.embedded_count }),
        ...((status === 'ready' || status === 'failed') && {
          lease_until: null,
          instance_id: null,
        }),
      })
      .where(and(eq(knowledgeDocuments.id, id), eq(knowledgeDocuments.user_id, this.userId)));
  }

  /**
   * A parsed document's chunks, in one transaction with its move to `next`: a run cut off
   * mid-way leaves either no chunks or all of them, and a run again replaces them.
   */
  async replaceChunks(
    doc: Pick<KnowledgeDocumentRow, 'id' | 'knowledge_base_id'>,
    chunks: readonly NewChunk[],
    next: { status: DocumentStatus; pages: number | null },
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // Gone (deleted meanwhile) or not the user's: nothing is written.
      const [held] = await tx
        .select({ id: knowledgeDocuments.id })
        .from(knowledgeDocuments)
        .where(and(eq(knowledgeDocuments.id, doc.id), eq(knowledgeDocuments.user_id, this.userId)))
        .for('update');
      if (!held) return false;
      await tx.delete(knowledgeChunks).where(eq(knowledgeChunks.document_id, doc.id));
      for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
        await tx.insert(knowledgeChunks).values(
          chunks.slice(i, i + INSERT_BATCH).map((c) => ({
            ...c,
            heading_text: c.heading_path.join(' › '),
            document_id: doc.id,
            knowledge_base_id: doc.knowledge_base_id,
            user_id: this.userId,
          })),
        );
      }
      await tx
        .update(knowledgeDocuments)
        .set({
          status: next.status,
          pages: next.pages,
          chunk_count: chunks.length,
          embedded_count: 0,
          error: null,
          ...(next.status === 'ready' && { lease_until: null, instance_id: null }),
        })
        .where(eq(knowledgeDocuments.id, doc.id));
      return true;
    });
  }

  /** Chunks (of one document, or a whole base) that have no vector of `model` yet. */
  async chunksWithoutVector(
    scope: { documentId: string } | { baseId: string },
    model: string,
    limit: number,
  ): Promise<{ id: string; text: string; heading_path: string[] }[]> {
    const where =
      'documentId' in scope
        ? sql`c.document_id = ${scope.documentId}`
        : sql`c.knowledge_base_id = ${scope.baseId}`;
    return rowsOf(
      await this.db.execute(sql`
        select c.id, c.text, c.heading_path from knowledge_chunks c
        where ${where} and c.user_id = ${this.userId}
          and not exists (select 1 from knowledge_vectors v where v.chunk_id = c.id and v.model = ${model})
        order by c.document_id, c.ord
        limit ${limit}`),
    );
  }

  /** Stores vectors of `model` (their chunks must be the user's, in `baseId`). */
  async insertVectors(
    baseId: string,
    model: string,
    vectors: readonly { chunkId: string; embedding: readonly number[] }[],
  ): Promise<void> {
    if (vectors.length === 0) return;
    const dims = vectors[0]!.embedding.length;
    await ensureVectorIndex(this.db, dims);
    const values = sql.join(
      vectors.map(
        (v) =>
          sql`(${v.chunkId}::uuid, ${model}::text, ${baseId}::uuid, ${this.userId}::text, ${v.embedding.length}::int, ${vectorLiteral(v.embedding)}::vector)`,
      ),
      sql`, `,
    );
    // The select keeps only chunks of this user's base, whatever ids came in.
    await this.db.execute(sql`
      insert into knowledge_vectors (chunk_id, model, knowledge_base_id, user_id, dims, embedding)
      select v.chunk_id, v.model, v.base_id, v.user_id, v.dims, v.embedding
      from (values ${values}) as v(chunk_id, model, base_id, user_id, dims, embedding)
      join knowledge_chunks c on c.id = v.chunk_id and c.user_id = v.user_id and c.knowledge_base_id = v.base_id
      on conflict (chunk_id, model) do nothing`);
  }

  /** How many of a document's chunks have a vector of `model`. */
  async countVectors(
    scope: { documentId: string } | { baseId: string },
    model: string,
  ): Promise<number> {
    const where =
      'documentId' in scope
        ? sql`c.document_id = ${scope.documentId}`
        : sql`c.knowledge_base_id = ${scope.baseId}`;
    const [row] = rowsOf<{ n: number }>(
      await this.db.execute(sql`
        select count(*)::int as n from knowledge_chunks c
        join knowledge_vectors v on v.chunk_id = c.id and v.model = ${model}
        where ${where} and c.user_id = ${this.userId}`),
    );
    return Number(row?.n ?? 0);
  }

  /**
   * A re-embed finished: the base searches with the new model from now on, each document counts
   * the new vectors, and the old ones go. One transaction.
   */
  async switchModel(baseId: string, oldModelKey: string | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(knowledgeBases)
        .set({
          embedding_provider: sql`${knowledgeBases.reembed_provider}`,
          embedding_model: sql`${knowledgeBases.reembed_model}`,
          reembed_provider: null,
          reembed_model: null,
        })
        .where(and(eq(knowledgeBases.id, baseId), eq(knowledgeBases.user_id, this.userId)));
      await tx
        .update(knowledgeDocuments)
        .set({ embedded_count: sql`${knowledgeDocuments.chunk_count}` })
        .where(
          and(
            eq(knowledgeDocuments.knowledge_base_id, baseId),
            eq(knowledgeDocuments.user_id, this.userId),
          ),
        );
      if (oldModelKey) await this.deleteVectors(tx, baseId, oldModelKey);
    });
  }

  async deleteVectors(db: Queryable, baseId: string, modelKey: string): Promise<void> {
    await db.execute(
      sql`delete from knowledge_vectors where knowledge_base_id = ${baseId} and user_id = ${this.userId} and model = ${modelKey}`,
    );
  }

  // ─── Search ──────────────────────────────────────────────────────────────────────────────

  /**
   * Full text, in two tiers over the GIN index: passages holding every word of the query
   * (stemmed, stop words out) first, then, when those are fewer than `limit`, passages holding
   * some of them; each ranked by ts_rank over the any-word query (the heading path weighs more
   * than the passage), within the user's `baseIds`. Ranking reads each match's tsvector (about
   * 3 µs a match on PGlite; ts_rank_cd's cover density took 6), so a tier ranks every match only
   * when it has fewer than `FULL_TEXT_RANKED`. Past that it would rank matches as found, not the
   * best, whatever their number, so it ranks the first `FULL_TEXT_RANKED_PAST_CAP` of them. A
   * query of common words stays bounded: over 100k chunks (bench/knowledge.ts) ranking every
   * match took 0.6–0.9 s, the cap brought it to 16 ms p95 on PostgreSQL, and on PGlite the
   * cheaper rank and smaller sample take the slowest query from 17 to 12 ms p50.
   */
  fullTextQuery(baseIds: readonly string[], query: string, limit: number) {
    const mine = sql`c.user_id = ${this.userId} and c.knowledge_base_id in (${sql.join(
      baseIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`;
    const lexemes = sql`array(select quote_literal(lexeme) from unnest(tsvector_to_array(to_tsvector('english', ${query}))) as lexeme)`;
    const cap = sql.raw(String(FULL_TEXT_RANKED));
    // The matches a tier ranks: all of them under the cap, else the first few found.
    const ranked = (matches: SQL) => sql`(
      select w.id, w.tsv from (
        select f.id, f.tsv, row_number() over () as n, count(*) over () as found
        from (${matches} limit ${cap}) f
      ) w
      where w.n <= case when w.found < ${cap} then ${cap}
                        else ${sql.raw(String(FULL_TEXT_RANKED_PAST_CAP))} end
    )`;
    return sql`
      with q as (
        select nullif(array_to_string(${lexemes}, ' | '), '')::tsquery as any_word,
               nullif(array_to_string(${lexemes}, ' & '), '')::tsquery as all_words
      ),
      all_words as (
        select m.id as chunk_id, ts_rank(m.tsv, q.any_word) as score, 0 as tier
        from ${ranked(sql`select c.id, c.tsv from knowledge_chunks c, q
              where q.all_words is not null and c.tsv @@ q.all_words and ${mine}`)} m, q
        order by score desc, m.id
        limit ${limit}
      ),
      some_words as (
        select m.id as chunk_id, ts_rank(m.tsv, q.any_word) as score, 1 as tier
        from ${ranked(sql`select c.id, c.tsv from knowledge_chunks c, q
              where (select count(*) from all_words) < ${limit}
                and q.any_word is not null and c.tsv @@ q.any_word
                and not (c.tsv @@ q.all_words) and ${mine}`)} m, q
        order by score desc, m.id
        limit ${limit}
      )
      select chunk_id, score from (
        select * from all_words union all select * from some_words
      ) ranked
      order by tier, score desc, chunk_id
      limit ${limit}`;
  }

  /**
   * Vector similarity over the partial HNSW index of the vectors' size. `searchVectors` walks the
   * index in relaxed order: with a filter that drops many of the nearest vectors (another user's,
   * another base's), a strict-order walk re-sorts all it passes, which took 170 ms p50 for one
   * query over 100,000 chunks where relaxed order takes 14 (bench/knowledge.ts). The few found
   * out of order are put back in order here: by `distance + 0`, since the planner takes the list
   * for sorted already and would only sort ties.
   */
  vectorQuery(
    baseIds: readonly string[],
    modelKey: string,
    embedding: readonly number[],
    limit: number,
  ): VectorQuery {
    const dims = embedding.length;
    if (!Number.isInteger(dims) || dims < 1 || dims > 4000) throw new Error('bad vector size');
    const cast = sql.raw(`halfvec(${dims})`);
    const target = sql`${vectorLiteral(embedding)}::${cast}`;
    const query = sql`
      with nearest as materialized (
        select v.chunk_id, v.embedding::${cast} <=> ${target} as distance
        from knowledge_vectors v
        where v.dims = ${sql.raw(String(dims))} and v.model = ${modelKey}
          and v.user_id = ${this.userId}
          and v.knowledge_base_id in (${sql.join(
            baseIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})
        order by distance
        limit ${limit}
      )
      select chunk_id, 1 - distance as score from nearest order by distance + 0, chunk_id`;
    return { query, limit };
  }

  /** Full text's ranked chunks (a `fullTextQuery`). */
  async searchFullText(query: SQL): Promise<RankedChunk[]> {
    return rankedChunks(await this.db.execute(query));
  }

  /**
   * Each vector query's ranked chunks, in one transaction with HNSW's iterative scan on (see
   * vectorSearchSettings), so a filter that leaves few of the nearest vectors (bases of other
   * users) still fills the list.
   */
  async searchVectors(queries: readonly VectorQuery[]): Promise<RankedChunk[][]> {
    if (queries.length === 0) return [];
    return this.db.transaction(async (tx) => {
      await tx.execute(vectorSearchSettings(Math.max(...queries.map((v) => v.limit))));
      const ranked: RankedChunk[][] = [];
      for (const { query } of queries) ranked.push(rankedChunks(await tx.execute(query)));
      return ranked;
    });
  }

  /** The chunks `ids` with their documents, when they are the user's. */
  async chunkDetails(ids: readonly string[]): Promise<ChunkDetail[]> {
    if (ids.length === 0) return [];
    return this.db
      .select({
        id: knowledgeChunks.id,
        document_id: knowledgeChunks.document_id,
        document_name: knowledgeDocuments.name,
        knowledge_base_id: knowledgeChunks.knowledge_base_id,
        ord: knowledgeChunks.ord,
        page: knowledgeChunks.page,
        heading_path: knowledgeChunks.heading_path,
        row_from: knowledgeChunks.row_from,
        row_to: knowledgeChunks.row_to,
        text: knowledgeChunks.text,
      })
      .from(knowledgeChunks)
      .innerJoin(knowledgeDocuments, eq(knowledgeDocuments.id, knowledgeChunks.document_id))
      .where(and(eq(knowledgeChunks.user_id, this.userId), inArray(knowledgeChunks.id, [...ids])));
  }

  async getChunk(baseId: string, chunkId: string): Promise<ChunkDetail | null> {
    const [row] = (await this.chunkDetails([chunkId])).filter(
      (c) => c.knowledge_base_id === baseId,
    );
    return row ?? null;
  }
}

/**
 * Documents with work to do that no instance holds and nothing has touched for a minute: their
 * job was lost (a send that failed). The resume job's list; documents of an instance that stopped
 * are the sweep's (`abandonedDocuments`).
 */
export const stalledDocuments = async (
  db: Db,
  limit: number,
): Promise<{ id: string; user_id: string }[]> =>
  db
    .select({ id: knowledgeDocuments.id, user_id: knowledgeDocuments.user_id })
    .from(knowledgeDocuments)
    .where(
      and(
        inArray(knowledgeDocuments.status, ['queued', 'parsing', 'embedding']),
        isNull(knowledgeDocuments.instance_id),
        sql`${knowledgeDocuments.updated_at} < now() - interval '1 minute'`,
        sql`(${knowledgeDocuments.lease_until} is null or ${knowledgeDocuments.lease_until} < now())`,
      ),
    )
    .limit(limit);

/**
 * Documents held by an instance that is gone (ADR 018): the sweep queues each again, and the
 * job's `claim` takes it over, once.
 */
export const abandonedDocuments = async (
  db: Db,
  limit: number,
): Promise<{ id: string; user_id: string }[]> =>
  db
    .select({ id: knowledgeDocuments.id, user_id: knowledgeDocuments.user_id })
    .from(knowledgeDocuments)
    .where(
      and(
        inArray(knowledgeDocuments.status, ['queued', 'parsing', 'embedding']),
        isNotNull(knowledgeDocuments.instance_id),
        ownerGone(knowledgeDocuments.instance_id),
      ),
    )
    .limit(limit);

/** Bases with a re-embed under way, for the resume sweep. */
export const reembeddingBases = async (
  db: Db,
  limit: number,
): Promise<{ id: string; user_id: string }[]> =>
  db
    .select({ id: knowledgeBases.id, user_id: knowledgeBases.user_id })
    .from(knowledgeBases)
    .where(sql`${knowledgeBases.reembed_model} is not null`)
    .limit(limit);

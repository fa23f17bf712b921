import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  customType,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { documentStatuses } from '@chorus/shared/api/knowledge';
import { users } from './auth.ts';
import { timestamps } from './columns.ts';
import { files } from './files.ts';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * A user's collection of documents (issue 17). `embedding_*` null: full text only. While a new
 * embedding model is applied (`reembed_*`), search keeps using the current one's vectors.
 *
 * The vectors themselves live in `knowledge_vectors`, which is not declared here: it needs the
 * `vector` extension, which PGlite ships and a PostgreSQL may lack, so the server creates it at
 * start when it can (`knowledge/vector-store.ts`), and searches by full text alone when not.
 */
export const knowledgeBases = pgTable(
  'knowledge_bases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    embedding_provider: text('embedding_provider'),
    embedding_model: text('embedding_model'),
    reembed_provider: text('reembed_provider'),
    reembed_model: text('reembed_model'),
    ...timestamps,
  },
  (t) => [index('knowledge_bases_user_created_idx').on(t.user_id, t.created_at.desc(), t.id)],
);

export const knowledgeDocuments = pgTable(
  'knowledge_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    knowledge_base_id: uuid('knowledge_base_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The stored bytes; deleted (object, then row) before the document. */
    file_id: uuid('file_id').references(() => files.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    content_type: text('content_type').notNull(),
    size_bytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    status: text('status', { enum: documentStatuses }).notNull().default('queued'),
    error: text('error'),
    pages: integer('pages'),
    chunk_count: integer('chunk_count').notNull().default(0),
    /** Chunks with a vector of the base's current model. */
    embedded_count: integer('embedded_count').notNull().default(0),
    /** No worker takes the document before then (a provider's rate limit asked to wait). */
    lease_until: timestamp('lease_until', { withTimezone: true }),
    /** The instance working on it (ADR 018); a gone one's document is resumed elsewhere. */
    instance_id: uuid('instance_id'),
    ...timestamps,
  },
  (t) => [
    index('knowledge_documents_base_idx').on(t.knowledge_base_id, t.created_at.desc()),
    // Re-uploading the same bytes to a base answers the document already there.
    uniqueIndex('knowledge_documents_base_sha_idx').on(t.knowledge_base_id, t.sha256),
    index('knowledge_documents_pending_idx')
      .on(t.updated_at)
      .where(sql`${t.status} in ('queued', 'parsing', 'embedding')`),
    check(
      'knowledge_documents_status_check',
      sql`${t.status} in ('queued', 'parsing', 'embedding', 'ready', 'failed')`,
    ),
  ],
);

export const knowledgeChunks = pgTable(
  'knowledge_chunks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    document_id: uuid('document_id')
      .notNull()
      .references(() => knowledgeDocuments.id, { onDelete: 'cascade' }),
    knowledge_base_id: uuid('knowledge_base_id').notNull(),
    user_id: text('user_id').notNull(),
    ord: integer('ord').notNull(),
    page: integer('page'),
    heading_path: text('heading_path')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The heading path as one text, for the full-text index (an array cannot feed it). */
    heading_text: text('heading_text').notNull().default(''),
    row_from: integer('row_from'),
    row_to: integer('row_to'),
    text: text('text').notNull(),
    token_count: integer('token_count').notNull(),
    /** Full text: the heading path weighs more than the body. */
    tsv: tsvector('tsv').generatedAlwaysAs(
      sql`setweight(to_tsvector('english'::regconfig, heading_text), 'A') || to_tsvector('english'::regconfig, text)`,
    ),
  },
  (t) => [
    uniqueIndex('knowledge_chunks_document_ord_idx').on(t.document_id, t.ord),
    index('knowledge_chunks_base_idx').on(t.knowledge_base_id),
    index('knowledge_chunks_tsv_idx').using('gin', t.tsv),
  ],
);

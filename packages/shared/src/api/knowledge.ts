import { z } from 'zod';
import { providerIdSchema } from './keys.ts';

/**
 * The knowledge base (issue 17): collections of documents, parsed, chunked, embedded, and searched
 * by vector similarity and full text at once. The server's routes and the web's pages share these.
 */
export const knowledgeLimits = {
  name: 200,
  description: 2_000,
  /** Knowledge bases one user may keep. */
  perUser: 200,
  /** Files one upload request may carry. */
  filesPerUpload: 20,
  /** Pages of one PDF. */
  maxPages: 500,
  /** Characters of text one document may yield once parsed. */
  maxDocumentChars: 5_000_000,
  /** Knowledge bases one search (or one chat) may look in. */
  searchBases: 10,
  query: 2_000,
  topK: { default: 8, max: 50 },
  /** Chunks a chat puts before the model. */
  chatTopK: 6,
} as const;

/** File types a knowledge base accepts (a subset of storage's accepted types). */
export const knowledgeFileTypes = {
  'text/plain': '.txt',
  'text/markdown': '.md',
  'application/pdf': '.pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': '.docx',
  'text/html': '.html',
  'text/csv': '.csv',
  'application/json': '.json',
} as const;
export type KnowledgeFileType = keyof typeof knowledgeFileTypes;
export const knowledgeExtensions = [
  '.txt',
  '.md',
  '.markdown',
  '.pdf',
  '.docx',
  '.html',
  '.htm',
  '.csv',
  '.json',
];
/** "TXT, MD, PDF, DOCX, HTML, CSV or JSON": how messages name the accepted types. */
export const knowledgeTypesLabel = '.txt, .md, .pdf, .docx, .html, .csv or .json';

export const isKnowledgeFileType = (type: string): type is KnowledgeFileType =>
  Object.hasOwn(knowledgeFileTypes, type);

const text = (label: string, max: number) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined ? `${label} is missing` : `${label} must be text`,
    })
    .trim()
    .max(max, `${label} is at most ${max.toLocaleString('en')} characters`);

/**
 * How a knowledge base is searched: `hybrid` (vectors and full text), or `full_text` when it has
 * no embedding model or the database has no vector support.
 */
export const searchModeSchema = z.enum(['hybrid', 'full_text']);
export type SearchMode = z.infer<typeof searchModeSchema>;

export const knowledgeBaseSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Null: full text only. */
  embedding_provider: providerIdSchema.nullable(),
  embedding_model: z.string().nullable(),
  /** A change of embedding model being applied: search uses the old vectors until it is done. */
  reembedding: z
    .object({
      provider: providerIdSchema,
      model: z.string(),
      embedded: z.number().int(),
      total: z.number().int(),
    })
    .nullable(),
  search_mode: searchModeSchema,
  /** Why the mode is what it is, when it is not hybrid; null when it is. */
  search_notice: z.string().nullable(),
  document_count: z.number().int(),
  chunk_count: z.number().int(),
  size_bytes: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type KnowledgeBase = z.infer<typeof knowledgeBaseSchema>;

export const knowledgeBaseListSchema = z.object({
  knowledge_bases: z.array(knowledgeBaseSchema),
  /** False when the database has no vector support: every base is full text only. */
  vectors_available: z.boolean(),
});
export type KnowledgeBaseList = z.infer<typeof knowledgeBaseListSchema>;

const embeddingFields = {
  /** Null (or omitted with no model): full text only. */
  embedding_provider: providerIdSchema.nullable(),
  embedding_model: text('The embedding model', 200).min(1, 'Pick an embedding model').nullable(),
};

export const createKnowledgeBaseSchema = z
  .object({
    name: text('The name', knowledgeLimits.name).min(1, 'Give the knowledge base a name'),
    description: text('The description', knowledgeLimits.description).default(''),
    embedding_provider: embeddingFields.embedding_provider.default(null),
    embedding_model: embeddingFields.embedding_model.default(null),
  })
  .refine((b) => (b.embedding_provider === null) === (b.embedding_model === null), {
    message: 'Pick both an embedding provider and its model, or neither for full text only',
    path: ['embedding_model'],
  });
export type CreateKnowledgeBase = z.input<typeof createKnowledgeBaseSchema>;

/** Changing the embedding provider or model re-embeds every document as a job. */
export const updateKnowledgeBaseSchema = z
  .object({
    name: text('The name', knowledgeLimits.name).min(1, 'Give the knowledge base a name'),
    description: text('The description', knowledgeLimits.description),
    embedding_provider: embeddingFields.embedding_provider,
    embedding_model: embeddingFields.embedding_model,
  })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: 'Send at least one field to change' })
  .refine(
    (b) =>
      (b.embedding_provider === undefined) === (b.embedding_model === undefined) &&
      (b.embedding_provider === null) === (b.embedding_model === null),
    {
      message: 'Send the embedding provider and its model together (both null for full text only)',
      path: ['embedding_model'],
    },
  );
export type UpdateKnowledgeBase = z.input<typeof updateKnowledgeBaseSchema>;

export const documentStatuses = ['queued', 'parsing', 'embedding', 'ready', 'failed'] as const;
export const documentStatusSchema = z.enum(documentStatuses);
export type DocumentStatus = z.infer<typeof documentStatusSchema>;

export const knowledgeDocumentSchema = z.object({
  id: z.string(),
  knowledge_base_id: z.string(),
  /** The stored file (storage's), for a download link. */
  file_id: z.string().nullable(),
  name: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  sha256: z.string(),
  status: documentStatusSchema,
  /** Why it failed, for a person to read; null unless failed. */
  error: z.string().nullable(),
  /** PDF pages; null for other types. */
  pages: z.number().int().nullable(),
  chunk_count: z.number().int(),
  /** Chunks with a vector from the base's embedding model (progress while `embedding`). */
  embedded_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type KnowledgeDocument = z.infer<typeof knowledgeDocumentSchema>;

export const knowledgeDocumentListSchema = z.object({
  documents: z.array(knowledgeDocumentSchema),
});

/** One file of an upload: stored and queued, the same file already there, or refused alone. */
export const uploadOutcomeSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('queued'), name: z.string(), document: knowledgeDocumentSchema }),
  z.object({
    outcome: z.literal('duplicate'),
    name: z.string(),
    document: knowledgeDocumentSchema,
  }),
  z.object({
    outcome: z.literal('refused'),
    name: z.string(),
    code: z.string(),
    message: z.string(),
  }),
]);
export type UploadOutcome = z.infer<typeof uploadOutcomeSchema>;
export const uploadDocumentsResultSchema = z.object({ files: z.array(uploadOutcomeSchema) });
export type UploadDocumentsResult = z.infer<typeof uploadDocumentsResultSchema>;

/** Where a chunk sits in its document. */
export const chunkPositionSchema = z.object({
  /** Order within the document, from 0. */
  index: z.number().int(),
  /** 1-based PDF page; null for other types. */
  page: z.number().int().nullable(),
  /** The headings above it, outermost first (Markdown, HTML, docx); empty for none. */
  heading_path: z.array(z.string()),
  /** CSV rows it holds (1-based, header excluded); null for other types. */
  rows: z.object({ from: z.number().int(), to: z.number().int() }).nullable(),
});
export type ChunkPosition = z.infer<typeof chunkPositionSchema>;

export const knowledgeSearchSchema = z.object({
  knowledge_base_ids: z
    .array(z.uuid('Not a knowledge base id'), { error: 'knowledge_base_ids must be a list of ids' })
    .min(1, 'Pick at least one knowledge base')
    .max(
      knowledgeLimits.searchBases,
      `Search at most ${knowledgeLimits.searchBases} knowledge bases at once`,
    ),
  query: text('The query', knowledgeLimits.query).min(1, 'Type something to search for'),
  top_k: z
    .number({ error: 'top_k must be a number' })
    .int('top_k must be a whole number')
    .min(1, 'top_k is at least 1')
    .max(knowledgeLimits.topK.max, `top_k is at most ${knowledgeLimits.topK.max}`)
    .default(knowledgeLimits.topK.default),
});
export type KnowledgeSearch = z.input<typeof knowledgeSearchSchema>;

/** How one method ranked a chunk: its 1-based rank and its own score. */
const methodRankSchema = z.object({ rank: z.number().int(), score: z.number() }).nullable();

export const knowledgeHitSchema = z.object({
  chunk_id: z.string(),
  document_id: z.string(),
  document_name: z.string(),
  knowledge_base_id: z.string(),
  position: chunkPositionSchema,
  text: z.string(),
  /** The reciprocal-rank-fusion score (k = 60): the sum of 1 / (60 + rank) over the methods. */
  score: z.number(),
  /** 1-based rank after fusion. */
  rank: z.number().int(),
  /** Cosine similarity (1 − cosine distance); null when vector search did not return it. */
  vector: methodRankSchema,
  /** PostgreSQL's ts_rank over the question's words; null when full-text search did not return it. */
  full_text: methodRankSchema,
  found_by: z.array(z.enum(['vector', 'full_text'])),
});
export type KnowledgeHit = z.infer<typeof knowledgeHitSchema>;

export const knowledgeSearchResultSchema = z.object({
  results: z.array(knowledgeHitSchema),
  /** `full_text` when no base searched had vectors to use. */
  mode: searchModeSchema,
  /** Why some or all bases were searched by full text alone; null when none were. */
  notice: z.string().nullable(),
});
export type KnowledgeSearchResult = z.infer<typeof knowledgeSearchResultSchema>;

/** One chunk with its document: what a citation opens. */
export const knowledgeChunkSchema = z.object({
  id: z.string(),
  document_id: z.string(),
  document_name: z.string(),
  knowledge_base_id: z.string(),
  position: chunkPositionSchema,
  text: z.string(),
});
export type KnowledgeChunk = z.infer<typeof knowledgeChunkSchema>;

/** The UI message stream's data part that carries a reply's knowledge citations while it streams. */
export const citationsPartType = 'data-citations';

import { isKnowledgeFileType } from '@chorus/shared/api/knowledge';
import type { ProviderId } from '@chorus/shared/providers';
import { embedTexts } from '../ai/model-call.ts';
import { FilesRepository } from '../db/repositories/files.ts';
import {
  KnowledgeRepository,
  vectorModelKey,
  type KnowledgeBaseRow,
} from '../db/repositories/knowledge.ts';
import { hasVectorStore } from '../db/vector-store.ts';
import type { Deps } from '../http/app-env.ts';
import { readObjectBytes } from '../storage/driver.ts';
import { ApiError } from '../http/errors.ts';
import { DocumentParseError, parseDocument } from './parse.ts';

/** Queue names (jobs/knowledge-jobs.ts registers them). */
export const INGEST_QUEUE = 'knowledge-ingest';
export const REEMBED_QUEUE = 'knowledge-reembed';

/** Chunks per embedding request. */
export const EMBED_BATCH = 64;
/** A run hands over to a new job after this many batches, so no run holds a worker for long. */
const BATCHES_PER_RUN = 40;
/** How long background work waits after a provider's rate limit before trying again. */
const RATE_LIMIT_WAIT_MS = 30_000;

export type IngestJob = { document_id: string; user_id: string };
export type ReembedJob = { knowledge_base_id: string; user_id: string };

/** What is embedded for a chunk: its heading path gives it context. */
export const embeddingInput = (chunk: { text: string; heading_path: string[] }) =>
  chunk.heading_path.length > 0 ? `${chunk.heading_path.join(' › ')}\n\n${chunk.text}` : chunk.text;

/** The base's model to embed with now, or null when it is searched by full text alone. */
const embeddingOf = (base: KnowledgeBaseRow | null, vectors: boolean) =>
  vectors && base?.embedding_provider && base.embedding_model
    ? { provider: base.embedding_provider as ProviderId, model: base.embedding_model }
    : null;

/** A provider failure of background work: its rate limit waits, anything else is the reason. */
const isRateLimit = (error: unknown) => error instanceof ApiError && error.status === 429;

/** The documents this instance works on now. */
const workingHere = new Set<string>();

/**
 * One run of a document's ingestion (issue 17): parse → chunk → embed in batches. Idempotent and
 * resumable: the document is held by this instance (ADR 018), chunks are written in one
 * transaction with the move to `embedding`, and only chunks without a vector are embedded, so a
 * run after a crash (the sweep of stopped instances sends one) picks up where the last stopped.
 * Embedding runs on the owner's key and quota, through the model-call seam.
 */
export const runIngest = async (deps: Deps, job: IngestJob): Promise<void> => {
  // Held before the claim, so a second job for the document on this instance leaves it alone.
  if (workingHere.has(job.document_id)) return;
  workingHere.add(job.document_id);
  try {
    await ingest(deps, job);
  } finally {
    workingHere.delete(job.document_id);
  }
};

const ingest = async (deps: Deps, job: IngestJob): Promise<void> => {
  const repo = new KnowledgeRepository(deps.database.db, job.user_id);
  const claimed = await repo.claim(job.document_id, deps.instance.id);
  if (!claimed) return;
  const { doc } = claimed;
  const log = deps.log.child({ documentId: doc.id, userId: job.user_id });
  if (claimed.resumed) {
    log.warn(
      { runId: doc.id, kind: 'knowledge-document' },
      'a run of a stopped instance is resumed here',
    );
  }
  const base = await repo.getBase(doc.knowledge_base_id);
  if (!base) return;
  const vectors = await hasVectorStore(deps.database.db);

  if (doc.status === 'parsing') {
    const file = doc.file_id
      ? await new FilesRepository(deps.database.db, job.user_id).get(doc.file_id)
      : null;
    const bytes = file ? await readObjectBytes(deps.storage, file.storage_key) : null;
    if (!bytes) {
      await repo.setStatus(doc.id, 'failed', {
        error: 'The file is no longer in storage. Delete this document and upload the file again.',
      });
      return;
    }
    if (!isKnowledgeFileType(doc.content_type)) {
      await repo.setStatus(doc.id, 'failed', { error: 'This type of file cannot be read.' });
      return;
    }
    let parsed;
    try {
      parsed = await parseDocument(bytes, doc.content_type);
    } catch (error) {
      if (!(error instanceof DocumentParseError)) throw error;
      await repo.setStatus(doc.id, 'failed', { error: error.message });
      return;
    }
    const next = embeddingOf(base, vectors) ? 'embedding' : 'ready';
    const stored = await repo.replaceChunks(
      doc,
      parsed.chunks.map((c) => ({
        ord: c.index,
        text: c.text,
        page: c.page,
        heading_path: c.heading_path,
        row_from: c.rows?.from ?? null,
        row_to: c.rows?.to ?? null,
        token_count: c.token_count,
      })),
      { status: next, pages: parsed.pages },
    );
    if (!stored || next === 'ready') return;
  }

  // Embedding: batches of chunks without a vector of the base's current model.
  for (let batch = 0; batch < BATCHES_PER_RUN; batch++) {
    const current = await repo.getBase(doc.knowledge_base_id);
    const model = embeddingOf(current, vectors);
    if (!model) {
      await repo.setStatus(doc.id, 'ready');
      return;
    }
    const key = vectorModelKey(model.provider, model.model);
    const chunks = await repo.chunksWithoutVector({ documentId: doc.id }, key, EMBED_BATCH);
    if (chunks.length === 0) {
      await repo.setStatus(doc.id, 'ready', {
        embedded_count: await repo.countVectors({ documentId: doc.id }, key),
      });
      return;
    }
    try {
      const { embeddings } = await embedTexts(deps, {
        userId: job.user_id,
        source: 'knowledge',
        provider: model.provider,
        model: model.model,
        values: chunks.map(embeddingInput),
      });
      await repo.insertVectors(
        doc.knowledge_base_id,
        key,
        chunks.map((c, i) => ({ chunkId: c.id, embedding: embeddings[i]! })),
      );
    } catch (error) {
      if (isRateLimit(error)) {
        log.info('embedding rate-limited; trying again later');
        await repo.release(doc.id, RATE_LIMIT_WAIT_MS);
        await deps.jobs.send(INGEST_QUEUE, job, {
          startAfter: new Date(Date.now() + RATE_LIMIT_WAIT_MS + 1_000),
        });
        return;
      }
      if (error instanceof ApiError) {
        // No key, no quota, a refusing provider: the owner reads why, and can retry.
        await repo.setStatus(doc.id, 'failed', {
          error: `Embedding failed: ${error.message}`,
        });
        return;
      }
      throw error;
    }
    await repo.setStatus(doc.id, 'embedding', {
      embedded_count: await repo.countVectors({ documentId: doc.id }, key),
    });
  }
  // More to do: a fresh run carries on (the document is let go so it can claim it at once).
  await repo.release(doc.id);
  await deps.jobs.send(INGEST_QUEUE, job, { singletonKey: `continue:${doc.id}` });
};

/**
 * A base's change of embedding model (issue 17): every chunk gets a vector of the new model in
 * batches; search keeps using the old ones until all are there, then the base switches in one
 * transaction and the old vectors go.
 */
export const runReembed = async (deps: Deps, job: ReembedJob): Promise<void> => {
  const repo = new KnowledgeRepository(deps.database.db, job.user_id);
  for (let batch = 0; batch < BATCHES_PER_RUN; batch++) {
    const base = await repo.getBase(job.knowledge_base_id);
    if (!base?.reembed_provider || !base.reembed_model) return;
    const oldKey =
      base.embedding_provider && base.embedding_model
        ? vectorModelKey(base.embedding_provider, base.embedding_model)
        : null;
    const key = vectorModelKey(base.reembed_provider, base.reembed_model);
    const chunks = await repo.chunksWithoutVector({ baseId: base.id }, key, EMBED_BATCH);
    if (chunks.length === 0) {
      await repo.switchModel(base.id, oldKey);
      return;
    }
    try {
      const { embeddings } = await embedTexts(deps, {
        userId: job.user_id,
        source: 'knowledge',
        provider: base.reembed_provider as ProviderId,
        model: base.reembed_model,
        values: chunks.map(embeddingInput),
      });
      await repo.insertVectors(
        base.id,
        key,
        chunks.map((c, i) => ({ chunkId: c.id, embedding: embeddings[i]! })),
      );
    } catch (error) {
      if (isRateLimit(error)) {
        await deps.jobs.send(REEMBED_QUEUE, job, {
          startAfter: new Date(Date.now() + RATE_LIMIT_WAIT_MS),
        });
        return;
      }
      if (error instanceof ApiError) {
        // The new model cannot be used: the base stays on its current one.
        deps.log.warn({ err: error.message, baseId: base.id }, 're-embedding stopped');
        await repo.updateBase(base.id, { reembed_provider: null, reembed_model: null });
        await repo.deleteVectors(deps.database.db, base.id, key);
        return;
      }
      throw error;
    }
  }
  await deps.jobs.send(REEMBED_QUEUE, job, { singletonKey: `continue:${job.knowledge_base_id}` });
};

/** Deletes a document's file (object, then row) and then the document; false when not found. */
export const deleteDocument = async (
  deps: Deps,
  userId: string,
  doc: { id: string; file_id: string | null },
): Promise<boolean> => {
  if (doc.file_id) {
    const filesRepo = new FilesRepository(deps.database.db, userId);
    const file = await filesRepo.get(doc.file_id);
    if (file) {
      await deps.storage.delete(file.storage_key);
      await filesRepo.remove(file.id);
    }
  }
  return new KnowledgeRepository(deps.database.db, userId).deleteDocument(doc.id);
};

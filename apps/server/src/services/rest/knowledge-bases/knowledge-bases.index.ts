import type {
  KnowledgeBase,
  KnowledgeChunk,
  KnowledgeDocument,
} from '@chorus/shared/api/knowledge';
import { knowledgeLimits } from '@chorus/shared/api/knowledge';
import { messageFor } from '@chorus/shared/error-catalogue';
import { embeddingModels, providers, type ProviderId } from '@chorus/shared/providers';
import {
  KnowledgeRepository,
  vectorModelKey,
  type ChunkDetail,
  type KnowledgeBaseWithCounts,
  type KnowledgeDocumentRow,
} from '../../../db/repositories/knowledge.ts';
import { hasVectorStore } from '../../../db/vector-store.ts';
import type { AuthedEnv, Deps } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { withinUserLimit } from '../../../quota/user-limits.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isUuid } from '../../../http/uuid.ts';
import { deleteDocument, INGEST_QUEUE, REEMBED_QUEUE } from '../../../knowledge/ingest.ts';
import { searchNotice } from '../../../knowledge/search.ts';
import { StorageUnavailableError } from '../../../storage/driver.ts';
import { storageUnavailable } from '../../storage/files/file-errors.ts';
import {
  createKnowledgeBaseRoute,
  deleteDocumentRoute,
  deleteKnowledgeBaseRoute,
  getChunkRoute,
  getKnowledgeBaseRoute,
  listDocumentsRoute,
  listKnowledgeBasesRoute,
  retryDocumentRoute,
  updateKnowledgeBaseRoute,
  uploadDocumentsRoute,
} from './knowledge-bases.routes.ts';
import { receiveDocuments } from './upload.ts';

const baseNotFound = () => new ApiError(404, 'knowledge:not_found');
const documentNotFound = () => new ApiError(404, 'knowledge:document_not_found');

export const toDocument = (row: KnowledgeDocumentRow): KnowledgeDocument => ({
  id: row.id,
  knowledge_base_id: row.knowledge_base_id,
  file_id: row.file_id,
  name: row.name,
  content_type: row.content_type,
  size_bytes: row.size_bytes,
  sha256: row.sha256,
  status: row.status,
  error: row.status === 'failed' ? (row.error ?? 'The document could not be read.') : null,
  pages: row.pages,
  chunk_count: row.chunk_count,
  embedded_count: row.embedded_count,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export const toChunk = (row: ChunkDetail): KnowledgeChunk => ({
  id: row.id,
  document_id: row.document_id,
  document_name: row.document_name,
  knowledge_base_id: row.knowledge_base_id,
  position: {
    index: row.ord,
    page: row.page,
    heading_path: row.heading_path,
    rows:
      row.row_from === null || row.row_to === null ? null : { from: row.row_from, to: row.row_to },
  },
  text: row.text,
});

const toBase = async (
  repo: KnowledgeRepository,
  row: KnowledgeBaseWithCounts,
  vectors: boolean,
): Promise<KnowledgeBase> => {
  const reembedding =
    row.reembed_provider && row.reembed_model
      ? {
          provider: row.reembed_provider as ProviderId,
          model: row.reembed_model,
          embedded: vectors
            ? await repo.countVectors(
                { baseId: row.id },
                vectorModelKey(row.reembed_provider, row.reembed_model),
              )
            : 0,
          total: row.chunk_count,
        }
      : null;
  const notice = searchNotice(row, vectors);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    embedding_provider: (row.embedding_provider as ProviderId | null) ?? null,
    embedding_model: row.embedding_model,
    reembedding,
    search_mode: notice ? 'full_text' : 'hybrid',
    search_notice: notice,
    document_count: row.document_count,
    chunk_count: row.chunk_count,
    size_bytes: row.size_bytes,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
};

/** An embedding choice must be one of the provider's embedding models, on a database with vectors. */
const checkEmbedding = async (
  deps: Deps,
  provider: ProviderId | null | undefined,
  model: string | null | undefined,
) => {
  if (!provider || !model) return;
  const options = embeddingModels[provider];
  if (!options) {
    throw new ApiError(
      400,
      'knowledge:no_embedding_model',
      messageFor('knowledge:no_embedding_model', { provider: providers[provider].name }),
    );
  }
  if (!options.some((o) => o.value === model)) {
    throw new ApiError(
      400,
      'knowledge:unknown_embedding_model',
      messageFor('knowledge:unknown_embedding_model', {
        provider: providers[provider].name,
        models: options.map((o) => o.value).join(', '),
      }),
    );
  }
  if (!(await hasVectorStore(deps.database.db))) {
    throw new ApiError(400, 'knowledge:vectors_unavailable');
  }
};

/** Storage failing under a delete is the store's fault, not the request's. */
const storageSafe = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (error instanceof StorageUnavailableError) throw storageUnavailable();
    throw error;
  }
};

export const knowledgeBasesRouter = createRouter<AuthedEnv>()
  .openapi(listKnowledgeBasesRoute, async (c) => {
    const { deps, user } = c.var;
    const repo = new KnowledgeRepository(deps.database.db, user.id);
    const vectors = await hasVectorStore(deps.database.db);
    const rows = await repo.listBases();
    return c.json(
      {
        knowledge_bases: await Promise.all(rows.map((row) => toBase(repo, row, vectors))),
        vectors_available: vectors,
      },
      200,
    );
  })
  .openapi(createKnowledgeBaseRoute, async (c) => {
    const { deps, user } = c.var;
    const body = c.req.valid('json');
    await checkEmbedding(deps, body.embedding_provider, body.embedding_model);
    const repo = new KnowledgeRepository(deps.database.db, user.id);
    // Counted and stored under the user's lock: two saves at once cannot both take the last place.
    const row = await withinUserLimit(deps.database.db, 'knowledge_bases', user.id, async (tx) => {
      const own = new KnowledgeRepository(tx, user.id);
      if ((await own.countBases()) >= knowledgeLimits.perUser) {
        throw new ApiError(409, 'knowledge:too_many');
      }
      return own.createBase(body);
    });
    const created = await repo.getBase(row.id);
    return c.json(await toBase(repo, created!, await hasVectorStore(deps.database.db)), 201);
  })
  .openapi(getKnowledgeBaseRoute, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw baseNotFound();
    const repo = new KnowledgeRepository(deps.database.db, user.id);
    const row = await repo.getBase(id);
    if (!row) throw baseNotFound();
    return c.json(await toBase(repo, row, await hasVectorStore(deps.database.db)), 200);
  })
  .openapi(updateKnowledgeBaseRoute, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw baseNotFound();
    const body = c.req.valid('json');
    const repo = new KnowledgeRepository(deps.database.db, user.id);
    const current = await repo.getBase(id);
    if (!current) throw baseNotFound();
    await checkEmbedding(deps, body.embedding_provider, body.embedding_model);
    const patch: Parameters<KnowledgeRepository['updateBase']>[1] = {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.description !== undefined && { description: body.description }),
    };
    let reembed = false;
    if (body.embedding_provider !== undefined) {
      const nextProvider = body.embedding_provider;
      const nextModel = body.embedding_model ?? null;
      const same =
        nextProvider === current.embedding_provider && nextModel === current.embedding_model;
      if (same) {
        // Back to the current model: a re-embed under way is dropped.
        Object.assign(patch, { reembed_provider: null, reembed_model: null });
      } else if (nextProvider === null || current.chunk_count === 0) {
        // Full text only, or nothing to embed yet: the change applies at once.
        Object.assign(patch, {
          embedding_provider: nextProvider,
          embedding_model: nextModel,
          reembed_provider: null,
          reembed_model: null,
        });
      } else {
        Object.assign(patch, { reembed_provider: nextProvider, reembed_model: nextModel });
        reembed = true;
      }
      if (!same && current.embedding_provider && current.embedding_model && !reembed) {
        await repo.deleteVectors(
          deps.database.db,
          id,
          vectorModelKey(current.embedding_provider, current.embedding_model),
        );
      }
    }
    const row = await repo.updateBase(id, patch);
    if (!row) throw baseNotFound();
    if (reembed) {
      await deps.jobs.send(
        REEMBED_QUEUE,
        { knowledge_base_id: id, user_id: user.id },
        { singletonKey: id },
      );
    }
    const updated = await repo.getBase(id);
    return c.json(await toBase(repo, updated!, await hasVectorStore(deps.database.db)), 200);
  })
  .openapi(deleteKnowledgeBaseRoute, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw baseNotFound();
    const repo = new KnowledgeRepository(deps.database.db, user.id);
    if (!(await repo.getBase(id))) throw baseNotFound();
    await storageSafe(async () => {
      for (const doc of await repo.listDocuments(id)) await deleteDocument(deps, user.id, doc);
    });
    await repo.deleteBase(id);
    return c.body(null, 204);
  })
  .openapi(listDocumentsRoute, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw baseNotFound();
    const repo = new KnowledgeRepository(deps.database.db, user.id);
    if (!(await repo.getBase(id))) throw baseNotFound();
    return c.json({ documents: (await repo.listDocuments(id)).map(toDocument) }, 200);
  })
  .openapi(uploadDocumentsRoute, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw baseNotFound();
    const repo = new KnowledgeRepository(deps.database.db, user.id);
    if (!(await repo.getBase(id))) throw baseNotFound();
    const { outcomes, queued } = await storageSafe(() =>
      receiveDocuments(deps, c.req.raw, user.id, id),
    );
    for (const doc of queued) {
      await deps.jobs.send(
        INGEST_QUEUE,
        { document_id: doc.id, user_id: user.id },
        { singletonKey: doc.id },
      );
    }
    if (outcomes.length === 0) throw new ApiError(400, 'knowledge:no_files');
    const first = outcomes[0]!;
    // Every file refused: the request failed, with the first file's reason.
    if (outcomes.every((o) => o.outcome === 'refused') && first.error) throw first.error;
    return c.json(
      {
        files: outcomes.map((o) =>
          o.outcome === 'refused'
            ? { outcome: o.outcome, name: o.name, code: o.code, message: o.message }
            : {
                outcome: o.outcome,
                name: o.name,
                document: toDocument(o.document as unknown as KnowledgeDocumentRow),
              },
        ),
      },
      200,
    );
  })
  .openapi(deleteDocumentRoute, async (c) => {
    const { deps, user } = c.var;
    const { id, documentId } = c.req.valid('param');
    if (!isUuid(id) || !isUuid(documentId)) throw documentNotFound();
    const repo = new KnowledgeRepository(deps.database.db, user.id);
    const doc = await repo.getDocument(id, documentId);
    if (!doc) throw documentNotFound();
    await storageSafe(() => deleteDocument(deps, user.id, doc));
    return c.body(null, 204);
  })
  .openapi(retryDocumentRoute, async (c) => {
    const { deps, user } = c.var;
    const { id, documentId } = c.req.valid('param');
    if (!isUuid(id) || !isUuid(documentId)) throw documentNotFound();
    const repo = new KnowledgeRepository(deps.database.db, user.id);
    const doc = await repo.requeue(id, documentId);
    if (!doc) throw documentNotFound();
    await deps.jobs.send(
      INGEST_QUEUE,
      { document_id: doc.id, user_id: user.id },
      { singletonKey: doc.id },
    );
    return c.json(toDocument(doc), 200);
  })
  .openapi(getChunkRoute, async (c) => {
    const { deps, user } = c.var;
    const { id, chunkId } = c.req.valid('param');
    if (!isUuid(id) || !isUuid(chunkId)) {
      throw new ApiError(
        404,
        'knowledge:document_not_found',
        'This passage is no longer in the knowledge base.',
      );
    }
    const chunk = await new KnowledgeRepository(deps.database.db, user.id).getChunk(id, chunkId);
    if (!chunk) {
      throw new ApiError(
        404,
        'knowledge:document_not_found',
        'This passage is no longer in the knowledge base.',
      );
    }
    return c.json(toChunk(chunk), 200);
  });

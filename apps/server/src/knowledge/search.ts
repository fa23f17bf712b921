import type { KnowledgeHit, KnowledgeSearchResult } from '@chorus/shared/api/knowledge';
import type { ProviderId } from '@chorus/shared/providers';
import { embedTexts } from '../ai/model-call.ts';
import {
  KnowledgeRepository,
  vectorModelKey,
  type KnowledgeBaseRow,
  type RankedChunk,
} from '../db/repositories/knowledge.ts';
import { hasVectorStore } from '../db/vector-store.ts';
import type { Deps } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';

/** Reciprocal rank fusion's constant (Cormack et al. 2009; the k = 60). */
export const RRF_K = 60;

/** Each method ranks this many candidates (at least) before they are fused. */
const CANDIDATES = 40;

export const noVectorsNotice =
  'This server has no vector search (its PostgreSQL lacks the vector extension), so knowledge bases are searched by full text alone.';
export const noEmbeddingNotice =
  'This knowledge base has no embedding model, so it is searched by full text alone. Choose an embedding model (it needs an API key of OpenAI, Gemini, Mistral or Ollama) to add meaning-based search.';

/** Why a base is searched by full text alone, or null when it has vectors to use. */
export const searchNotice = (
  base: Pick<KnowledgeBaseRow, 'embedding_model'>,
  vectors: boolean,
): string | null => (!vectors ? noVectorsNotice : !base.embedding_model ? noEmbeddingNotice : null);

type Fused = {
  chunk_id: string;
  score: number;
  vector: { rank: number; score: number } | null;
  full_text: { rank: number; score: number } | null;
};

/**
 * Reciprocal rank fusion: each list adds 1 / (k + rank) for every chunk it ranks. Vector lists of
 * several embedding models (bases built with different ones) are merged by similarity first, so
 * they count as one method. Ties break by chunk id, so the order is stable.
 */
export const fuse = (fullText: RankedChunk[], vectorLists: RankedChunk[][]): Fused[] => {
  const vectors = vectorLists
    .flat()
    .sort((a, b) => b.score - a.score || a.chunk_id.localeCompare(b.chunk_id));
  const byId = new Map<string, Fused>();
  const entry = (id: string) => {
    let e = byId.get(id);
    if (!e) {
      e = { chunk_id: id, score: 0, vector: null, full_text: null };
      byId.set(id, e);
    }
    return e;
  };
  vectors.forEach((hit, i) => {
    const e = entry(hit.chunk_id);
    if (e.vector) return;
    e.vector = { rank: i + 1, score: hit.score };
    e.score += 1 / (RRF_K + i + 1);
  });
  fullText.forEach((hit, i) => {
    const e = entry(hit.chunk_id);
    if (e.full_text) return;
    e.full_text = { rank: i + 1, score: hit.score };
    e.score += 1 / (RRF_K + i + 1);
  });
  return [...byId.values()].sort(
    (a, b) => b.score - a.score || a.chunk_id.localeCompare(b.chunk_id),
  );
};

/**
 * Hybrid search over the user's bases (issue 17): full text and, where a base has an embedding
 * model and the database has vectors, similarity to the query's embedding (one per model, through
 * the model-call seam on the user's key and quota); fused by RRF. Bases that are not the user's
 * answer 404, whichever of the ids they are.
 */
export const searchKnowledge = async (
  deps: Deps,
  req: {
    userId: string;
    baseIds: readonly string[];
    query: string;
    topK: number;
    signal?: AbortSignal | undefined;
    /** False: full text alone (a chat whose embedding call failed falls back to it). */
    vectors?: boolean;
    /**
     * `refuse` (the API): an id that is not one of the user's bases answers 404. `skip` (a chat):
     * such ids are left out, since a base attached to a conversation may have been deleted since.
     */
    missing?: 'refuse' | 'skip';
  },
): Promise<KnowledgeSearchResult> => {
  const repo = new KnowledgeRepository(deps.database.db, req.userId);
  const ids = [...new Set(req.baseIds)];
  const bases = await repo.ownedBases(ids);
  if (bases.length !== ids.length && req.missing !== 'skip') {
    throw new ApiError(404, 'knowledge:not_found');
  }
  if (bases.length === 0) return { results: [], mode: 'full_text', notice: null };
  const owned = bases.map((b) => b.id);

  const vectors = req.vectors !== false && (await hasVectorStore(deps.database.db));
  const candidates = Math.max(CANDIDATES, req.topK * 2);
  // Bases grouped by the embedding model their current vectors were made with.
  const groups = new Map<string, { provider: ProviderId; model: string; baseIds: string[] }>();
  if (vectors) {
    for (const base of bases) {
      if (!base.embedding_provider || !base.embedding_model) continue;
      const key = vectorModelKey(base.embedding_provider, base.embedding_model);
      const group = groups.get(key) ?? {
        provider: base.embedding_provider as ProviderId,
        model: base.embedding_model,
        baseIds: [],
      };
      group.baseIds.push(base.id);
      groups.set(key, group);
    }
  }
  // Full text needs no embedding: it runs while the query's embeddings are made (a provider
  // call of tens of milliseconds or more), and the vector searches follow in one transaction.
  const embedded = Promise.all(
    [...groups].map(async ([key, group]) => {
      const { embeddings } = await embedTexts(deps, {
        userId: req.userId,
        source: 'knowledge',
        provider: group.provider,
        model: group.model,
        values: [req.query],
        signal: req.signal,
      });
      return repo.vectorQuery(group.baseIds, key, embeddings[0]!, candidates);
    }),
  );
  const [fullText, vectorQueries] = await Promise.all([
    repo.searchFullText(repo.fullTextQuery(owned, req.query, candidates)),
    embedded,
  ]);
  const fused = fuse(fullText, await repo.searchVectors(vectorQueries)).slice(0, req.topK);
  const details = new Map(
    (await repo.chunkDetails(fused.map((f) => f.chunk_id))).map((d) => [d.id, d]),
  );
  const results: KnowledgeHit[] = [];
  for (const hit of fused) {
    const chunk = details.get(hit.chunk_id);
    // Deleted between the search and the read.
    if (!chunk) continue;
    results.push({
      chunk_id: chunk.id,
      document_id: chunk.document_id,
      document_name: chunk.document_name,
      knowledge_base_id: chunk.knowledge_base_id,
      position: {
        index: chunk.ord,
        page: chunk.page,
        heading_path: chunk.heading_path,
        rows:
          chunk.row_from === null || chunk.row_to === null
            ? null
            : { from: chunk.row_from, to: chunk.row_to },
      },
      text: chunk.text,
      score: hit.score,
      rank: results.length + 1,
      vector: hit.vector,
      full_text: hit.full_text,
      found_by: [
        ...(hit.vector ? (['vector'] as const) : []),
        ...(hit.full_text ? (['full_text'] as const) : []),
      ],
    });
  }
  const fullTextOnly = bases.filter((b) => searchNotice(b, vectors) !== null);
  return {
    results,
    mode: groups.size > 0 ? 'hybrid' : 'full_text',
    notice:
      fullTextOnly.length === 0
        ? null
        : !vectors
          ? noVectorsNotice
          : fullTextOnly.length === bases.length
            ? bases.length === 1
              ? noEmbeddingNotice
              : 'These knowledge bases have no embedding model, so they are searched by full text alone.'
            : `Searched by full text alone: ${fullTextOnly.map((b) => b.name).join(', ')} (no embedding model).`,
  };
};

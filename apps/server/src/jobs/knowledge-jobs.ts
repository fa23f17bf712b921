import type { Deps } from '../http/app-env.ts';
import { reembeddingBases, stalledDocuments } from '../db/repositories/knowledge.ts';
import {
  INGEST_QUEUE,
  REEMBED_QUEUE,
  runIngest,
  runReembed,
  type IngestJob,
  type ReembedJob,
} from '../knowledge/ingest.ts';
import { defineJob } from './queue.ts';

/** One uploaded document: parse, chunk, embed (issue 17). */
export const knowledgeIngestJob = defineJob<Deps, IngestJob>({
  name: INGEST_QUEUE,
  title: 'Read and embed knowledge documents',
  retry: { limit: 3, delaySeconds: 10 },
  expireInSeconds: 15 * 60,
  run: (data, deps) => runIngest(deps, data),
});

/** A knowledge base's change of embedding model. */
export const knowledgeReembedJob = defineJob<Deps, ReembedJob>({
  name: REEMBED_QUEUE,
  title: 'Re-embed knowledge bases',
  retry: { limit: 3, delaySeconds: 10 },
  expireInSeconds: 15 * 60,
  run: (data, deps) => runReembed(deps, data),
});

/**
 * Every minute: documents whose worker stopped (a restart, a crash) and bases mid re-embed are
 * sent to their queue again. Their runs are idempotent, and a document is leased, so a live
 * worker is never doubled.
 */
export const knowledgeResumeJob = defineJob<Deps, object>({
  name: 'knowledge-resume',
  title: 'Resume knowledge ingestion after a restart',
  cron: '* * * * *',
  run: async (_data, deps) => {
    for (const doc of await stalledDocuments(deps.database.db, 200)) {
      await deps.jobs.send(
        INGEST_QUEUE,
        { document_id: doc.id, user_id: doc.user_id },
        { singletonKey: doc.id },
      );
    }
    for (const base of await reembeddingBases(deps.database.db, 50)) {
      await deps.jobs.send(
        REEMBED_QUEUE,
        { knowledge_base_id: base.id, user_id: base.user_id },
        { singletonKey: base.id },
      );
    }
  },
});

import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  KnowledgeBase,
  KnowledgeBaseList,
  KnowledgeDocument,
  UploadDocumentsResult,
} from '@chorus/shared/api/knowledge';
import { rowsOf } from '../db/client.ts';
import { knowledgeChunks, knowledgeDocuments } from '../db/schema/index.ts';
import { knowledgeResumeJob } from '../jobs/knowledge-jobs.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { waitFor } from '../test/streams.ts';
import { runIngest } from './ingest.ts';
import { makePdf } from './testing/fixtures.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;

let t: TestApp;
let ann: Client;
let vectors: boolean;
let base: KnowledgeBase;
let doc: KnowledgeDocument;

const longText = Array.from(
  { length: 40 },
  (_, i) =>
    `Section ${i + 1}. The quarterly report covers revenue, churn and hiring in region ${i}.`,
);

const state = async () => {
  const [row] = await t.db
    .select()
    .from(knowledgeDocuments)
    .where(eq(knowledgeDocuments.id, doc.id));
  return row!;
};

const chunkIds = async () =>
  (
    await t.db
      .select({ id: knowledgeChunks.id })
      .from(knowledgeChunks)
      .where(eq(knowledgeChunks.document_id, doc.id))
  ).map((r) => r.id);

const vectorCount = async () =>
  vectors
    ? Number(
        rowsOf<{ n: number }>(
          await t.db.execute(
            sql`select count(*)::int as n from knowledge_vectors v join knowledge_chunks c on c.id = v.chunk_id where c.document_id = ${doc.id}`,
          ),
        )[0]!.n,
      )
    : 0;

/** What a crash leaves: the document mid-way, its worker's lease run out a while ago. */
const crashAt = (status: 'parsing' | 'embedding') =>
  t.db
    .update(knowledgeDocuments)
    .set({
      status,
      lease_until: sql`now() - interval '5 minutes'`,
      updated_at: sql`now() - interval '5 minutes'`,
    })
    .where(eq(knowledgeDocuments.id, doc.id));

beforeAll(async () => {
  t = await startTestApp({ providerSim: true, jobs: true });
  ann = await t.user('ingest-ann@example.com');
  await ann.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-test' });
  vectors = (await ann.get<KnowledgeBaseList>('/rest/v1/knowledge-bases')).body.vectors_available;
  base = (
    await ann.post<KnowledgeBase>('/rest/v1/knowledge-bases', {
      name: 'Reports',
      embedding_provider: vectors ? 'openai' : null,
      embedding_model: vectors ? 'text-embedding-3-small' : null,
    })
  ).body;
  const data = new FormData();
  data.append('files', new Blob([makePdf(longText)], { type: 'application/pdf' }), 'report.pdf');
  const res = await ann.send('POST', `/rest/v1/knowledge-bases/${base.id}/documents`, {
    body: data,
  });
  const outcome = ((await res.json()) as UploadDocumentsResult).files[0]!;
  if (outcome.outcome !== 'queued') throw new Error(JSON.stringify(outcome));
  doc = outcome.document;
  await waitFor(async () => (await state()).status === 'ready', 20_000);
});
afterAll(() => t.close());

describe('knowledge ingestion', () => {
  it('resumes an embedding cut off by a restart, embedding only what is missing', async () => {
    const before = await chunkIds();
    expect(before.length).toBe(40);
    if (vectors) {
      // Half the vectors were stored before the crash.
      await t.db.execute(
        sql`delete from knowledge_vectors where chunk_id in (select id from knowledge_chunks where document_id = ${doc.id} and ord % 2 = 0)`,
      );
      expect(await vectorCount()).toBe(20);
    }
    await crashAt('embedding');
    const embedCalls = t.sim.requests.filter((r) => r.path.includes('embeddings')).length;
    // The sweep finds it and sends it to its queue again.
    await knowledgeResumeJob.run({}, t.deps);
    await waitFor(async () => (await state()).status === 'ready', 20_000);
    expect(await chunkIds()).toEqual(before);
    expect(await vectorCount()).toBe(vectors ? 40 : 0);
    const row = await state();
    expect(row.embedded_count).toBe(vectors ? 40 : 0);
    if (vectors) {
      const embedded = t.sim.requests
        .filter((r) => r.path.includes('embeddings'))
        .slice(embedCalls);
      // One batch for the 20 missing chunks, not 40 again.
      expect(embedded).toHaveLength(1);
      expect((embedded[0]!.body as { input: string[] }).input).toHaveLength(20);
    }
  });

  it('parses again from the start after a crash mid-parse, without doubling the chunks', async () => {
    await crashAt('parsing');
    await knowledgeResumeJob.run({}, t.deps);
    await waitFor(async () => (await state()).status === 'ready', 20_000);
    const ids = await chunkIds();
    expect(ids.length).toBe(40);
    const ords = (
      await t.db
        .select({ ord: knowledgeChunks.ord })
        .from(knowledgeChunks)
        .where(eq(knowledgeChunks.document_id, doc.id))
    ).map((r) => r.ord);
    expect(new Set(ords).size).toBe(40);
  });

  it('lets one worker hold a document at a time', async () => {
    await crashAt('embedding');
    // The first run leases it; a second run at the same moment finds it held and does nothing.
    await Promise.all([
      runIngest(t.deps, { document_id: doc.id, user_id: ann.id }),
      runIngest(t.deps, { document_id: doc.id, user_id: ann.id }),
    ]);
    expect((await state()).status).toBe('ready');
    expect(await chunkIds()).toHaveLength(40);
  });

  it('does nothing for a document of another user, whatever the job says', async () => {
    const bob = await t.user('ingest-bob@example.com');
    await crashAt('embedding');
    await runIngest(t.deps, { document_id: doc.id, user_id: bob.id });
    const row = await state();
    expect(row.status).toBe('embedding');
    await t.db
      .update(knowledgeDocuments)
      .set({ status: 'ready', lease_until: null })
      .where(and(eq(knowledgeDocuments.id, doc.id)));
  });
});

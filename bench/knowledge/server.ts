/**
 * The server modules the knowledge bench drives, loaded at run time by path. They reach the
 * e-mail templates (TSX) and the DOM types of the document parser, which the bench's TypeScript
 * project (no JSX, DOM lib) cannot check; so the bench type-checks against the small shapes it
 * uses, declared here, and the server's own project checks the modules themselves.
 */
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { KnowledgeFileType, KnowledgeSearchResult } from '@chorus/shared/api/knowledge';
import type { Database } from '../../apps/server/src/db/client.ts';
import type { RankedChunk } from '../../apps/server/src/db/repositories/knowledge.ts';
import { repoRoot } from '../lib.ts';

const load = async <T>(file: string): Promise<T> => {
  const specifier = pathToFileURL(path.join(repoRoot, 'apps/server/src', file)).href;
  return (await import(specifier)) as T;
};

/** What of the server's `Config` the bench reads. */
export type BenchConfig = { appUrl: string; providerBaseUrls: Record<string, string> };

/** What of the server's `Deps` the bench touches; handed back to the server's functions whole. */
export type BenchDeps = {
  config: BenchConfig;
  database: Database;
  instance: { start(): Promise<void>; stop(): Promise<void> };
  saves: { giveUp(): void };
  mailer: { settled(): Promise<void>; close(): void };
  realtime: { close(): Promise<void> };
  invalidation: { close(): Promise<void> };
  storage: { close(): Promise<void> };
};

type Modules = {
  config: { loadConfig(env: Record<string, string>): BenchConfig };
  logger: { createLogger(level: string): unknown };
  deps: { createDeps(config: BenchConfig, database: Database, log: unknown): BenchDeps };
  app: {
    createApp(deps: BenchDeps): { request(url: string, init: RequestInit): Promise<Response> };
  };
  ingest: {
    runIngest(deps: BenchDeps, job: { document_id: string; user_id: string }): Promise<void>;
    deleteDocument(
      deps: BenchDeps,
      userId: string,
      doc: { id: string; file_id: string | null },
    ): Promise<boolean>;
    embeddingInput(chunk: { text: string; heading_path: string[] }): string;
  };
  parse: { parseDocument(bytes: Uint8Array, type: KnowledgeFileType): Promise<unknown> };
  search: {
    fuse(fullText: RankedChunk[], vectors: RankedChunk[][]): { chunk_id: string }[];
    searchKnowledge(
      deps: BenchDeps,
      req: { userId: string; baseIds: readonly string[]; query: string; topK: number },
    ): Promise<KnowledgeSearchResult>;
  };
  upload: {
    storeUpload(
      deps: BenchDeps,
      upload: {
        userId: string;
        name: string;
        contentType: KnowledgeFileType;
        purpose: 'knowledge';
        conversationId: null;
        declaredSize: number | undefined;
        body: Readable;
      },
    ): Promise<{ id: string; size_bytes: number; sha256: string | null }>;
  };
};

export const loadServer = async (): Promise<Modules> => ({
  config: await load('config.ts'),
  logger: await load('logger.ts'),
  deps: await load('deps.ts'),
  app: await load('app.ts'),
  ingest: await load('knowledge/ingest.ts'),
  parse: await load('knowledge/parse.ts'),
  search: await load('knowledge/search.ts'),
  upload: await load('services/storage/files/upload.ts'),
});

import { PassThrough, Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { messageFor } from '@chorus/shared/error-catalogue';
import {
  knowledgeFileTypes,
  knowledgeLimits,
  type KnowledgeFileType,
  type UploadOutcome,
} from '@chorus/shared/api/knowledge';
import { FilesRepository, type FileRow } from '../../../db/repositories/files.ts';
import {
  KnowledgeRepository,
  type KnowledgeDocumentRow,
} from '../../../db/repositories/knowledge.ts';
import type { Deps } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { countPdfPages, DocumentParseError } from '../../../knowledge/parse.ts';
import { readObjectBytes } from '../../../storage/driver.ts';
import { storeUpload } from '../../storage/files/upload.ts';

const byExtension: Record<string, KnowledgeFileType> = {
  ...Object.fromEntries(Object.entries(knowledgeFileTypes).map(([type, ext]) => [ext, type])),
  '.markdown': 'text/markdown',
  '.htm': 'text/html',
} as Record<string, KnowledgeFileType>;

/**
 * A file's type from its name (browsers send `.md` and `.csv` under several types, or none),
 * else from the type it was sent with; null when a knowledge base does not read it.
 */
export const knowledgeTypeOf = (name: string, sentType: string): KnowledgeFileType | null => {
  const dot = name.lastIndexOf('.');
  const ext = dot >= 0 ? name.slice(dot).toLowerCase() : '';
  if (ext && Object.hasOwn(byExtension, ext)) return byExtension[ext]!;
  if (ext) return null;
  const type = sentType.split(';')[0]!.trim().toLowerCase();
  return Object.hasOwn(knowledgeFileTypes, type) ? (type as KnowledgeFileType) : null;
};

const refused = (name: string, error: ApiError): UploadOutcome & { error: ApiError } => ({
  outcome: 'refused',
  name,
  code: error.code,
  message: error.message,
  error,
});

/** Removes a stored file that will not become a document (a duplicate, too many pages). */
const discard = async (deps: Deps, userId: string, file: FileRow) => {
  await deps.storage.delete(file.storage_key);
  await new FilesRepository(deps.database.db, userId).remove(file.id);
};

type Outcome = UploadOutcome & { error?: ApiError };

/** One file of the request: stored through the storage service, then a queued document. */
const takeFile = async (
  deps: Deps,
  userId: string,
  baseId: string,
  name: string,
  type: KnowledgeFileType,
  body: Readable,
  queued: KnowledgeDocumentRow[],
): Promise<Outcome> => {
  let file: FileRow;
  try {
    file = await storeUpload(deps, {
      userId,
      name,
      contentType: type,
      purpose: 'knowledge',
      conversationId: null,
      declaredSize: undefined,
      body,
    });
  } catch (error) {
    if (error instanceof ApiError) return refused(name, error);
    throw error;
  }
  const repo = new KnowledgeRepository(deps.database.db, userId);
  const same = await repo.findBySha(baseId, file.sha256!);
  if (same) {
    await discard(deps, userId, file);
    return { outcome: 'duplicate', name, document: same as never };
  }
  let pages: number | null = null;
  if (type === 'application/pdf') {
    const bytes = await readObjectBytes(deps.storage, file.storage_key);
    try {
      pages = bytes ? await countPdfPages(bytes) : null;
    } catch (error) {
      // Unreadable: the document fails on its own, with its reason, when it is parsed.
      if (!(error instanceof DocumentParseError)) throw error;
    }
    if (pages !== null && pages > knowledgeLimits.maxPages) {
      await discard(deps, userId, file);
      return refused(
        name,
        new ApiError(
          413,
          'knowledge:too_many_pages',
          messageFor('knowledge:too_many_pages', { pages, max: knowledgeLimits.maxPages }),
        ),
      );
    }
  }
  const { document, created } = await repo.insertDocument({
    knowledge_base_id: baseId,
    file_id: file.id,
    name,
    content_type: type,
    size_bytes: file.size_bytes,
    sha256: file.sha256!,
    pages,
  });
  if (!created) {
    await discard(deps, userId, file);
    return { outcome: 'duplicate', name, document: document as never };
  }
  queued.push(document);
  return { outcome: 'queued', name, document: document as never };
};

/**
 * Streams a multipart upload of several files into a knowledge base: each file is stored and
 * queued (or refused) on its own, one after the other, as the request arrives; nothing is held
 * in memory but the part being read. Answers each file's outcome, in order, and the documents
 * queued (whose jobs the caller sends).
 */
export const receiveDocuments = (
  deps: Deps,
  request: Request,
  userId: string,
  baseId: string,
): Promise<{ outcomes: Outcome[]; queued: KnowledgeDocumentRow[] }> =>
  new Promise((resolve, reject) => {
    const headers = Object.fromEntries(request.headers);
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers,
        defParamCharset: 'utf8',
        limits: { files: knowledgeLimits.filesPerUpload, fields: 20, parts: 60 },
      });
    } catch {
      reject(
        new ApiError(
          400,
          'knowledge:no_files',
          'Send the files as multipart/form-data, in the field "files".',
        ),
      );
      return;
    }
    if (!request.body) {
      reject(new ApiError(400, 'knowledge:no_files'));
      return;
    }
    const outcomes: Promise<Outcome>[] = [];
    const queued: KnowledgeDocumentRow[] = [];
    let tooMany = false;
    // Files are taken one at a time, in the order they arrive.
    let chain: Promise<unknown> = Promise.resolve();

    parser.on('file', (_field, stream, info) => {
      const name = (info.filename ?? '').trim().slice(0, 500) || 'Untitled';
      const type = knowledgeTypeOf(name, info.mimeType);
      if (!type) {
        stream.resume();
        outcomes.push(
          Promise.resolve(
            refused(
              name,
              new ApiError(
                415,
                'knowledge:unsupported_type',
                messageFor('knowledge:unsupported_type', { name }),
              ),
            ),
          ),
        );
        return;
      }
      // The store reads from a pass-through: if it stops early (a limit), the rest of this part
      // is drained so the next one can be read.
      const body = new PassThrough();
      stream.pipe(body);
      const outcome = chain.then(() =>
        takeFile(deps, userId, baseId, name, type, body, queued).finally(() => {
          stream.unpipe(body);
          stream.resume();
        }),
      );
      chain = outcome.catch(() => undefined);
      outcomes.push(outcome);
    });
    parser.on('filesLimit', () => {
      tooMany = true;
    });
    parser.on('error', () => {
      reject(
        new ApiError(
          400,
          'storage:upload_incomplete',
          'The upload was cut off or is not valid multipart data. Send the files again.',
        ),
      );
    });
    parser.on('close', () => {
      Promise.all(outcomes)
        .then((done) => {
          if (tooMany) {
            done.push(
              refused(
                `More than ${knowledgeLimits.filesPerUpload} files`,
                new ApiError(413, 'knowledge:too_many_files'),
              ),
            );
          }
          resolve({ outcomes: done, queued });
        })
        .catch(reject);
    });
    Readable.fromWeb(request.body as WebReadableStream).pipe(parser);
  });

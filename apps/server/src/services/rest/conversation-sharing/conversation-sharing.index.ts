import { randomBytes } from 'node:crypto';
import { shareTokenPattern } from '@chorus/shared/api/conversation-sharing';
import { shareMessages } from '@chorus/shared/share-messages';
import {
  ConversationSharesRepository,
  findSharedConversation,
  hashShareToken,
} from '../../../db/repositories/conversation-shares.ts';
import {
  ConversationTranscriptsRepository,
  type TranscriptMessage,
} from '../../../db/repositories/conversation-transcripts.ts';
import { ConversationsRepository } from '../../../db/repositories/conversations.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { contentDisposition } from '../../storage/files/download.ts';
import { conversationNotFound } from '../conversations/conversation-not-found.ts';
import {
  createShareRoute,
  exportConversationRoute,
  revokeShareRoute,
  sharedConversationRoute,
  shareStatusRoute,
} from './conversation-sharing.routes.ts';
import {
  exportContentTypes,
  exportFileName,
  jsonFooter,
  jsonHeader,
  jsonMessage,
  markdownEmpty,
  markdownHeader,
  markdownMessage,
  toExportMessage,
  type ExportedConversation,
} from './export-format.ts';
import { isUuid } from '../../../http/uuid.ts';

/** Messages read per query while an export streams. */
const exportPageSize = 500;

const shareNotFound = () => new ApiError(404, 'shares:not_found', shareMessages.unavailable);

/**
 * The export as a stream of text: the header, then the messages a page at a time (the first page
 * is read before the answer starts, so a failing database is an error answer, not a cut file).
 */
const exportStream = async (
  transcripts: ConversationTranscriptsRepository,
  conversation: ExportedConversation,
  format: 'markdown' | 'json',
): Promise<ReadableStream<Uint8Array>> => {
  const exportedAt = new Date().toISOString();
  const upToSeq = (await transcripts.lastSeq(conversation.id)) ?? 0;
  const read = (afterSeq: number) =>
    transcripts.page(conversation.id, { afterSeq, upToSeq, limit: exportPageSize });
  let page: TranscriptMessage[] | null = await read(0);
  let written = 0;
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(
        encoder.encode(
          format === 'json'
            ? jsonHeader(conversation, exportedAt)
            : markdownHeader(conversation, exportedAt),
        ),
      );
    },
    async pull(controller) {
      const rows = page ?? [];
      const chunk = rows
        .map((row, index) => {
          const message = toExportMessage(row);
          return format === 'json'
            ? jsonMessage(message, written + index === 0)
            : markdownMessage(message);
        })
        .join('');
      written += rows.length;
      if (chunk) controller.enqueue(encoder.encode(chunk));
      const last = rows.at(-1);
      if (rows.length === exportPageSize && last) {
        page = await read(Number(last.seq));
        return;
      }
      controller.enqueue(
        encoder.encode(
          format === 'json' ? jsonFooter(written > 0) : written > 0 ? '' : markdownEmpty,
        ),
      );
      controller.close();
    },
  });
};

export const conversationSharingRouter = createRouter<AuthedEnv>()
  .openapi(exportConversationRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { format } = c.req.valid('query');
    if (!isUuid(id)) throw conversationNotFound();
    const { db } = c.var.deps.database;
    const row = await new ConversationsRepository(db, c.var.user.id).get(id);
    if (!row) throw conversationNotFound();
    const conversation: ExportedConversation = {
      id: row.id,
      title: row.title,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      pinned_at: row.pinned_at?.toISOString() ?? null,
      system_prompt: row.system_prompt,
    };
    const body = await exportStream(
      new ConversationTranscriptsRepository(db, c.var.user.id),
      conversation,
      format,
    );
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': exportContentTypes[format],
        'content-disposition': contentDisposition(exportFileName(row.title, format)),
        'x-content-type-options': 'nosniff',
      },
    });
  })
  .openapi(createShareRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw conversationNotFound();
    const token = randomBytes(32).toString('base64url');
    const created = await new ConversationSharesRepository(
      c.var.deps.database.db,
      c.var.user.id,
    ).create(id, hashShareToken(token));
    if (!created) throw conversationNotFound();
    if (created === 'empty') {
      throw new ApiError(409, 'shares:nothing_to_share', shareMessages.nothingToShare);
    }
    return c.json(
      {
        url: `${c.var.deps.config.appUrl}/share/${token}`,
        token,
        created_at: created.share.created_at.toISOString(),
        message_count: created.messageCount,
      },
      201,
    );
  })
  .openapi(shareStatusRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw conversationNotFound();
    const found = await new ConversationSharesRepository(
      c.var.deps.database.db,
      c.var.user.id,
    ).active(id);
    if (!found) throw conversationNotFound();
    return c.json(
      found.share
        ? {
            active: true,
            created_at: found.share.created_at.toISOString(),
            message_count: found.messageCount,
          }
        : { active: false },
      200,
    );
  })
  .openapi(revokeShareRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw conversationNotFound();
    const revoked = await new ConversationSharesRepository(
      c.var.deps.database.db,
      c.var.user.id,
    ).revoke(id);
    if (!revoked) throw conversationNotFound();
    return c.body(null, 204);
  })
  .openapi(sharedConversationRoute, async (c) => {
    const { token } = c.req.valid('param');
    c.header('x-robots-tag', 'noindex, nofollow');
    // A malformed token cannot name a link: no lookup, the same answer as a revoked one.
    if (!shareTokenPattern.test(token)) throw shareNotFound();
    const shared = await findSharedConversation(c.var.deps.database.db, hashShareToken(token));
    if (!shared) throw shareNotFound();
    return c.json(
      {
        title: shared.title,
        shared_at: shared.sharedAt.toISOString(),
        messages: shared.messages.map((m) => ({
          role: m.role as 'user' | 'assistant',
          content: m.content,
          provider: m.provider,
          model: m.model,
          status: m.status as 'complete' | 'interrupted',
          created_at: m.created_at.toISOString(),
        })),
      },
      200,
    );
  });

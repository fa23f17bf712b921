import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { ModelMessage, UserContent } from 'ai';
import type { MessageAttachment } from '@chorus/shared/api/conversations';
import { isKnowledgeFileType } from '@chorus/shared/api/knowledge';
import { imageInputProviders } from '@chorus/shared/limits';
import { providers, type ProviderId } from '@chorus/shared/providers';
import { files } from '../../../db/schema/index.ts';
import type { Deps } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { DocumentParseError, extractText } from '../../../knowledge/parse.ts';
import { readObjectBytes } from '../../../storage/driver.ts';

/** Characters of one file's text put in a message's context. */
const FILE_CHARS = 100_000;
/** Characters of attached text in one request's whole context; older files are named only. */
const CONTEXT_CHARS = 300_000;

type FileRow = typeof files.$inferSelect;

/**
 * The files of a new message (uploaded with purpose `attachment`): the user's, ready, and either
 * loose or already this conversation's; loose ones become the conversation's, so deleting it
 * deletes them (spec §4). A missing one refuses the message before any model is called.
 */
export const claimAttachments = async (
  deps: Deps,
  userId: string,
  conversationId: string,
  ids: readonly string[],
): Promise<MessageAttachment[]> => {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const { db } = deps.database;
  const rows = await db
    .update(files)
    .set({ conversation_id: conversationId })
    .where(
      and(
        eq(files.user_id, userId),
        inArray(files.id, unique),
        eq(files.purpose, 'attachment'),
        eq(files.status, 'ready'),
        or(isNull(files.conversation_id), eq(files.conversation_id, conversationId)),
      ),
    )
    .returning();
  if (rows.length !== unique.length) throw new ApiError(404, 'chat:attachment_not_found');
  const byId = new Map(rows.map((r) => [r.id, r]));
  return unique.map((id) => {
    const r = byId.get(id)!;
    return { id: r.id, name: r.name, content_type: r.content_type, size_bytes: r.size_bytes };
  });
};

const isImage = (type: string) => type.startsWith('image/');

/** Refuses images for a provider that cannot read them, before anything is stored or sent. */
export const checkImagesAccepted = (provider: ProviderId, attachments: MessageAttachment[]) => {
  if (attachments.some((a) => isImage(a.content_type)) && !imageInputProviders.includes(provider)) {
    throw new ApiError(
      400,
      'bad_request:validation',
      `${providers[provider].name} does not take images. Remove the image, or switch to ${imageInputProviders
        .map((p) => providers[p].name)
        .join(', ')}.`,
    );
  }
};

/** A file's text, read once and kept with the file for later turns. */
const textOf = async (deps: Deps, row: FileRow): Promise<string> => {
  if (row.extracted_text !== null) return row.extracted_text;
  if (!isKnowledgeFileType(row.content_type)) return '';
  const bytes = await readObjectBytes(deps.storage, row.storage_key);
  if (!bytes) return '[The file is no longer stored.]';
  let text: string;
  try {
    text = await extractText(bytes, row.content_type, { maxChars: FILE_CHARS });
  } catch (error) {
    if (!(error instanceof DocumentParseError)) throw error;
    text = `[${error.message}]`;
  }
  await deps.database.db
    .update(files)
    .set({ extracted_text: text })
    .where(and(eq(files.id, row.id), eq(files.user_id, row.user_id)));
  return text;
};

const attr = (value: string) => value.replace(/["<>&\n\r]/g, ' ');

/** An attached file's text can never close the block it is quoted in. */
const quoted = (text: string) => text.replace(/<(\/?)attachment\b/gi, '‹$1attachment');

type ContextMessage = {
  role: 'user' | 'assistant' | 'system';
  content: string;
  attachments?: unknown[] | undefined;
};

/**
 * The turn's messages for the model, with attached files in the user messages that carry them:
 * text and documents as quoted text (newest first within the budget), images as image parts for
 * providers that take them, on the newest message only (older ones are named).
 */
export const withAttachments = async (
  deps: Deps,
  userId: string,
  provider: ProviderId,
  context: readonly ContextMessage[],
): Promise<ModelMessage[]> => {
  const ids = context.flatMap((m) =>
    ((m.attachments ?? []) as MessageAttachment[]).map((a) => a.id),
  );
  const rows =
    ids.length === 0
      ? []
      : await deps.database.db
          .select()
          .from(files)
          .where(and(eq(files.user_id, userId), inArray(files.id, ids)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const images = imageInputProviders.includes(provider);
  const lastUser = context.findLastIndex((m) => m.role === 'user');
  let budget = CONTEXT_CHARS;
  const out: ModelMessage[] = new Array(context.length);
  // Newest first, so the budget goes to what was attached last.
  for (let i = context.length - 1; i >= 0; i--) {
    const m = context[i]!;
    const attached = (m.attachments ?? []) as MessageAttachment[];
    if (m.role !== 'user' || attached.length === 0) {
      out[i] =
        m.role === 'assistant'
          ? { role: 'assistant', content: m.content }
          : m.role === 'system'
            ? { role: 'system', content: m.content }
            : { role: 'user', content: m.content };
      continue;
    }
    const parts: UserContent = [];
    const blocks: string[] = [];
    for (const a of attached) {
      const row = byId.get(a.id);
      if (!row) {
        blocks.push(`[Attached file "${attr(a.name)}" was deleted.]`);
        continue;
      }
      if (isImage(row.content_type)) {
        const bytes =
          images && i === lastUser ? await readObjectBytes(deps.storage, row.storage_key) : null;
        if (bytes) parts.push({ type: 'image', image: bytes, mediaType: row.content_type });
        else blocks.push(`[Image attached: "${attr(row.name)}"]`);
        continue;
      }
      const text = await textOf(deps, row);
      if (text.length > budget) {
        blocks.push(`[Attached file "${attr(row.name)}" is not repeated here: too long.]`);
        continue;
      }
      budget -= text.length;
      blocks.push(
        `<attachment name="${attr(row.name)}" type="${attr(row.content_type)}">\n${quoted(text)}\n</attachment>`,
      );
    }
    const text = blocks.length > 0 ? `${blocks.join('\n')}\n\n${m.content}` : m.content;
    parts.unshift({ type: 'text', text });
    out[i] = { role: 'user', content: parts };
  }
  return out.filter((m) => typeof m.content !== 'string' || m.content.trim() !== '');
};

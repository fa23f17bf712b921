import type { Conversation } from '@chorus/shared/api/conversations';
import { storageMessages } from '@chorus/shared/messages';
import {
  ConversationsRepository,
  type ConversationRow,
} from '../../../db/repositories/conversations.ts';
import {
  decodeConversationCursor,
  decodeSeqCursor,
  encodeConversationCursor,
  encodeSeqCursor,
} from '../../../db/keyset-cursor.ts';
import { MessagesRepository } from '../../../db/repositories/messages.ts';
import { deleteConversationFiles } from '../../../storage/conversation-files.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { toMessage } from '../../../http/serializers.ts';
import { AgentRunsRepository } from '../../../db/repositories/agent-runs.ts';
import { conversationChange, messageChange } from '../../realtime/changes.ts';
import {
  createConversationRoute,
  createMessageRoute,
  deleteConversationRoute,
  listConversationsRoute,
  latestMessagesRoute,
  listMessagesRoute,
  selectMessageVersionRoute,
  updateConversationRoute,
} from './conversations.routes.ts';
import { conversationNotFound } from './conversation-not-found.ts';
import { isUuid } from '../../../http/uuid.ts';
import { KnowledgeRepository } from '../../../db/repositories/knowledge.ts';
import { CustomAisRepository } from '../../../db/repositories/custom-ais.ts';

const toConversation = (row: ConversationRow): Conversation => ({
  id: row.id,
  title: row.title,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  pinned_at: row.pinned_at?.toISOString() ?? null,
  system_prompt: row.system_prompt,
  knowledge_base_ids: row.knowledge_base_ids,
  custom_ai_id: row.custom_ai_id,
});

export const conversationsRouter = createRouter<AuthedEnv>()
  .openapi(listConversationsRoute, async (c) => {
    const { limit, cursor, search } = c.req.valid('query');
    const after = cursor ? decodeConversationCursor(cursor) : undefined;
    if (after === null) {
      throw new ApiError(
        400,
        'conversations:bad_cursor',
        'The page cursor is not valid; start again from the first page.',
      );
    }
    const repo = new ConversationsRepository(c.var.deps.database.db, c.var.user.id);
    // One extra row tells whether another page exists without a count query.
    const rows = await repo.list({ limit: limit + 1, after, search });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return c.json(
      {
        conversations: page.map(toConversation),
        next_cursor: rows.length > limit && last ? encodeConversationCursor(last) : null,
      },
      200,
    );
  })
  .openapi(createConversationRoute, async (c) => {
    const { title, system_prompt } = c.req.valid('json');
    const row = await new ConversationsRepository(c.var.deps.database.db, c.var.user.id).create(
      title,
      system_prompt,
    );
    await c.var.deps.realtime.publish(c.var.user.id, conversationChange('INSERT', row.id));
    return c.json(toConversation(row), 201);
  })
  .openapi(updateConversationRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw conversationNotFound();
    const patch = c.req.valid('json');
    if (patch.knowledge_base_ids?.length) {
      const owned = await new KnowledgeRepository(
        c.var.deps.database.db,
        c.var.user.id,
      ).ownedBaseIds(patch.knowledge_base_ids);
      if (owned.length !== patch.knowledge_base_ids.length) {
        throw new ApiError(404, 'knowledge:not_found');
      }
    }
    if (
      patch.custom_ai_id &&
      !(await new CustomAisRepository(c.var.deps.database.db, c.var.user.id).getUsable(
        patch.custom_ai_id,
      ))
    ) {
      throw new ApiError(404, 'custom_ais:not_found');
    }
    const row = await new ConversationsRepository(c.var.deps.database.db, c.var.user.id).update(
      id,
      patch,
    );
    if (!row) throw conversationNotFound();
    await c.var.deps.realtime.publish(c.var.user.id, conversationChange('UPDATE', row.id));
    return c.json(toConversation(row), 200);
  })
  .openapi(deleteConversationRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw conversationNotFound();
    const repo = new ConversationsRepository(c.var.deps.database.db, c.var.user.id);
    if (!(await repo.get(id))) throw conversationNotFound();
    // Spec §4: files first, then messages, then the conversation; a failed step stops it.
    if (!(await deleteConversationFiles(c.var.deps, id, c.var.user.id))) {
      throw new ApiError(
        503,
        'conversations:files_not_deleted',
        storageMessages.conversationFilesNotDeleted,
      );
    }
    const deleted = await repo.delete(id);
    if (deleted === 'files_added') {
      throw new ApiError(409, 'conversations:files_added', storageMessages.conversationChanged);
    }
    if (!deleted) throw conversationNotFound();
    await c.var.deps.realtime.publish(c.var.user.id, conversationChange('DELETE', id));
    return c.body(null, 204);
  })
  .openapi(listMessagesRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw conversationNotFound();
    const { db } = c.var.deps.database;
    if (!(await new ConversationsRepository(db, c.var.user.id).get(id)))
      throw conversationNotFound();
    const rows = await new MessagesRepository(db, c.var.user.id).list(id, c.req.valid('query'));
    return c.json(rows.map(toMessage), 200);
  })
  .openapi(latestMessagesRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw conversationNotFound();
    const { limit, before } = c.req.valid('query');
    const seq = before === undefined ? undefined : decodeSeqCursor(before);
    if (seq === null) {
      throw new ApiError(
        400,
        'conversations:bad_cursor',
        'The page cursor is not valid; open the conversation again.',
      );
    }
    const page = await new MessagesRepository(c.var.deps.database.db, c.var.user.id).pageOfOwn(id, {
      limit,
      before: seq,
    });
    if (!page) throw conversationNotFound();
    const oldest = page.messages[0];
    // An agent's replies name their agent and where its run stands (one read, only when any).
    const runIds = page.messages.flatMap((m) => (m.agent_run_id ? [m.agent_run_id] : []));
    const runs = await new AgentRunsRepository(c.var.deps.database.db, c.var.user.id).summaries(
      runIds,
    );
    return c.json(
      {
        messages: page.messages.map((row) => {
          const message = toMessage(row);
          const run = row.agent_run_id ? runs.get(row.agent_run_id) : undefined;
          return run ? { ...message, agent_run: run } : message;
        }),
        older_cursor: page.older && oldest ? encodeSeqCursor(oldest.seq) : null,
        system_prompt: page.systemPrompt,
        knowledge_base_ids: page.knowledgeBaseIds,
        custom_ai_id: page.customAiId,
      },
      200,
    );
  })
  .openapi(createMessageRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw conversationNotFound();
    const body = c.req.valid('json');
    const row = await new MessagesRepository(c.var.deps.database.db, c.var.user.id).insert(id, {
      content: body.content,
      role: body.role,
      provider: body.provider ?? null,
      reply_to_id: body.reply_to_id ?? null,
      sources: body.sources,
    });
    if (!row) throw conversationNotFound();
    await c.var.deps.realtime.publish(c.var.user.id, messageChange('INSERT', row));
    return c.json(toMessage(row), 201);
  })
  .openapi(selectMessageVersionRoute, async (c) => {
    const { id } = c.req.valid('param');
    const notFound = () =>
      new ApiError(
        404,
        'chat:version_not_found',
        'This answer does not exist or is not yours. Reload the conversation.',
      );
    if (!isUuid(id)) throw notFound();
    const versions = await new MessagesRepository(
      c.var.deps.database.db,
      c.var.user.id,
    ).selectVersion(id);
    const selected = versions.find((v) => v.id === id);
    if (!selected) throw notFound();
    // The user's other tabs show the version picked here.
    await c.var.deps.realtime.publish(c.var.user.id, messageChange('UPDATE', selected));
    return c.json(toMessage({ ...selected, version_ids: versions.map((v) => v.id) }), 200);
  });

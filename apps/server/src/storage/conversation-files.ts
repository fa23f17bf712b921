import { FilesRepository } from '../db/repositories/files.ts';
import type { Deps } from '../http/app-env.ts';

/**
 * Spec §4's first step of deleting a conversation (its `deleteConversationFiles`): every file of
 * the conversation, each object before its row. Stops at the first failure and answers false,
 * leaving the rest (and the conversation) for a retry; a retry starts where this one stopped,
 * since deleting an object that is already gone succeeds.
 */
export const deleteConversationFiles = async (
  deps: Pick<Deps, 'database' | 'storage' | 'log'>,
  conversationId: string,
  userId: string,
): Promise<boolean> => {
  const repo = new FilesRepository(deps.database.db, userId);
  try {
    for (const file of await repo.listForConversation(conversationId)) {
      await deps.storage.delete(file.storage_key);
      await repo.remove(file.id);
    }
    return true;
  } catch (error) {
    deps.log.error(
      { err: error, conversationId, userId, driver: deps.storage.kind },
      'conversation files not deleted',
    );
    return false;
  }
};

import { conversationSetting } from './conversation-setting';

const knowledge = conversationSetting('knowledge_base_ids', []);

/** The knowledge bases a new chat will be created with. */
export const pendingKnowledgeBases = knowledge.pending;

/** Puts the server's copy of a conversation into every loaded list. */
export const showConversation = knowledge.show;

/**
 * The knowledge bases a conversation's replies search and cite, and how to change them; for a
 * new chat, the ones it will be created with. A change shows at once and is undone if refused.
 */
export const useConversationKnowledge = (conversationId: string | undefined) => {
  const { value, save } = knowledge.useSetting(conversationId);
  return { ids: value, save };
};

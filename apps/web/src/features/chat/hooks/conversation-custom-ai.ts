import { conversationSetting } from './conversation-setting';

const customAi = conversationSetting('custom_ai_id', null);

/** The custom AI a new chat will be created with (null: a plain model). */
export const pendingCustomAi = customAi.pending;

/** Puts the server's copy of a conversation (and its custom AI) into every loaded list. */
export const showConversationCustomAi = customAi.show;

/**
 * The custom AI a conversation talks to (null: a plain model), and how to change it; for a new
 * chat, the one it will be created with. A change shows at once and is undone if refused.
 */
export const useConversationCustomAi = (conversationId: string | undefined) => {
  const { value, save } = customAi.useSetting(conversationId);
  return { id: value, save };
};

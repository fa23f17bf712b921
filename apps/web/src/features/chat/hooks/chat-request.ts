import type { ChatRequest } from '@chorus/shared/api/conversations';
import type { ProviderId } from '@chorus/shared/providers';
import type { ChatTrigger } from '@/lib/chat/live-chat';
import type { ProviderSettings } from '@/lib/chat/provider-settings';

/** What the page hands the transport with each send, beside the message itself. */
export type ChatSendOptions = {
  conversationId: string;
  provider: ProviderId;
  settings: ProviderSettings;
  /** Edit-and-resend: the stored user message that `text` replaces. */
  editOf?: string;
  /** The saved prompt the text was made from (the `/` picker): it counts a use. */
  promptId?: string;
  /** Files stored for this message (`/storage/v1/files`), attached to it by the server. */
  attachmentIds?: string[];
  /**
   * The custom AI the conversation talks to: its own model and parameters answer, so the
   * picker's model and settings are not sent (`provider` is then the custom AI's).
   */
  customAiId?: string | null;
};

/** A message id made in this browser: a uuid, which the server stores the message under. */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The body of `POST /functions/v1/chat`. The server holds the history, so a send carries only
 * the new text, a regenerate only the flag, an edit the replaced message's id and its new text.
 */
export const buildChatRequest = (
  options: ChatSendOptions,
  trigger: ChatTrigger,
  text: string,
  messageId?: string,
): ChatRequest => {
  const { conversationId, provider, settings, editOf, promptId, attachmentIds, customAiId } =
    options;
  const request: ChatRequest = { conversation_id: conversationId, provider };
  if (customAiId) request.custom_ai_id = customAiId;
  else {
    request.model = settings.model;
    request.temperature = settings.temperature;
    if (settings.topP !== undefined) request.top_p = settings.topP;
    if (settings.maxTokens !== undefined) request.max_tokens = settings.maxTokens;
  }
  if (trigger === 'regenerate-message') return { ...request, regenerate: true };
  if (editOf) request.edit_of = editOf;
  if (promptId && uuidPattern.test(promptId)) request.prompt_id = promptId;
  if (messageId && uuidPattern.test(messageId)) request.message_id = messageId;
  if (attachmentIds && attachmentIds.length > 0) request.attachment_ids = attachmentIds;
  return { ...request, text };
};

import type { ChatRequest } from '@chorus/shared/api/conversations';
import type { ProviderId } from '@chorus/shared/providers';
import type { ProviderSettings } from './provider-settings';

/** What the page hands the transport with each send, beside the message itself. */
export type ChatSendOptions = {
  conversationId: string;
  provider: ProviderId;
  settings: ProviderSettings;
  /** Edit-and-resend: the stored user message that `text` replaces. */
  editOf?: string;
};

export type ChatTrigger = 'submit-message' | 'regenerate-message';

/**
 * The body of `POST /functions/v1/chat`. The server holds the history, so a send carries only
 * the new text, a regenerate only the flag, an edit the replaced message's id and its new text.
 */
export const buildChatRequest = (
  options: ChatSendOptions,
  trigger: ChatTrigger,
  text: string,
): ChatRequest => {
  const { conversationId, provider, settings, editOf } = options;
  const request: ChatRequest = {
    conversation_id: conversationId,
    provider,
    model: settings.model,
    temperature: settings.temperature,
  };
  if (settings.topP !== undefined) request.top_p = settings.topP;
  if (settings.maxTokens !== undefined) request.max_tokens = settings.maxTokens;
  if (trigger === 'regenerate-message') return { ...request, regenerate: true };
  if (editOf) request.edit_of = editOf;
  return { ...request, text };
};

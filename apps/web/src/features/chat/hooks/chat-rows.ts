import type { UIMessage } from 'ai';
import type { ChatMessageMetadata, Message, Source } from '@chorus/shared/api/conversations';

export type ChorusUIMessage = UIMessage<ChatMessageMetadata>;

export type RowStatus = Message['status'];

/** One message as the list shows it, stored or still streaming. */
export type ChatRow = {
  id: string;
  role: Message['role'];
  content: string;
  status: RowStatus;
  provider: string | null;
  model: string | null;
  sources: Source[];
  /** False while the message exists only in this tab (being sent or streamed). */
  stored: boolean;
};

export const rowFromMessage = (message: Message): ChatRow => ({
  id: message.id,
  role: message.role,
  content: message.content,
  status: message.status,
  provider: message.provider,
  model: message.model,
  sources: message.sources,
  stored: true,
});

export const textOf = (message: Pick<ChorusUIMessage, 'parts'>): string =>
  message.parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('');

/** `source-url` parts, numbered in the order they arrived, without repeats. */
export const sourcesOf = (message: Pick<ChorusUIMessage, 'parts'>): Source[] => {
  const seen = new Set<string>();
  const sources: Source[] = [];
  for (const part of message.parts) {
    if (part.type !== 'source-url' || seen.has(part.url)) continue;
    seen.add(part.url);
    sources.push(part.title ? { url: part.url, title: part.title } : { url: part.url });
  }
  return sources;
};

export const rowFromLive = (message: ChorusUIMessage, streaming: boolean): ChatRow => ({
  id: message.id,
  role: message.role,
  content: textOf(message),
  status: streaming ? 'streaming' : 'complete',
  provider: message.metadata?.provider ?? null,
  model: message.metadata?.model ?? null,
  sources: sourcesOf(message),
  stored: false,
});

export const uiMessageFromStored = (message: Message): ChorusUIMessage => ({
  id: message.id,
  role: message.role,
  parts: [{ type: 'text', text: message.content }],
});

type SettleInput = {
  conversationId: string;
  userId: string;
  /** The exchange as streamed: the user message, then the reply. */
  live: ChorusUIMessage[];
  reply: ChorusUIMessage;
  interrupted: boolean;
  now?: Date;
};

/**
 * The rows the server has stored for a finished exchange, rebuilt from the stream and the ids
 * the server put in the reply's metadata; null when the stream never said which rows it wrote.
 */
export const storedRowsFromExchange = ({
  conversationId,
  userId,
  live,
  reply,
  interrupted,
  now = new Date(),
}: SettleInput): Message[] | null => {
  const meta = reply.metadata;
  if (!meta?.user_message_id || !meta.assistant_message_id) return null;
  const user = live.findLast((message) => message.role === 'user');
  const createdAt = now.toISOString();
  const rows: Message[] = [];
  if (user) {
    rows.push({
      id: meta.user_message_id,
      conversation_id: conversationId,
      user_id: userId,
      content: textOf(user),
      role: 'user',
      provider: meta.provider ?? null,
      model: null,
      reply_to_id: null,
      sources: [],
      status: 'complete',
      created_at: createdAt,
    });
  }
  rows.push({
    id: meta.assistant_message_id,
    conversation_id: conversationId,
    user_id: userId,
    content: textOf(reply),
    role: 'assistant',
    provider: meta.provider ?? null,
    model: meta.model ?? null,
    reply_to_id: meta.user_message_id,
    sources: sourcesOf(reply),
    status: interrupted ? 'interrupted' : 'complete',
    created_at: createdAt,
  });
  return rows;
};

/** Adds the rows of an exchange to the history, keeping a row the history already holds. */
export const mergeExchange = (history: Message[], exchange: Message[]): Message[] => {
  const known = new Set(history.map((message) => message.id));
  const replyIds = new Set(
    exchange.filter((message) => message.role === 'assistant').map((message) => message.id),
  );
  const kept = history.filter((message) => !replyIds.has(message.id));
  return [
    ...kept,
    ...exchange.filter((message) => !known.has(message.id) || replyIds.has(message.id)),
  ];
};

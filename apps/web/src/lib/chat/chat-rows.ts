import type { FileUIPart, UIMessage } from 'ai';
import type {
  ChatMessageMetadata,
  Message,
  MessageAttachment,
  Source,
} from '@chorus/shared/api/conversations';
import type { citationsPartType } from '@chorus/shared/api/knowledge';
import type { StoredToolCall } from '@chorus/shared/api/agents';
import type { UnsentMessage } from './unsent';

// Types only from 'ai': this module is part of the first paint of every chat view, and the
// AI SDK itself loads later with the streaming client (live-chat.ts).

export type ChorusUIMessage = UIMessage<ChatMessageMetadata>;

/** A stored message's status, or `not-sent`: a user message whose send failed in this browser. */
export type RowStatus = Message['status'] | 'not-sent';

/** Why a message did not go, or a reply failed: shown on the message, with what to do next. */
export type RowFailure = {
  reason: string;
  /** The API's error code, when there was one: it picks the actions offered. */
  code?: string | undefined;
};

/** A tool the model called, as the chat shows it. */
export type ToolCallView = {
  id: string;
  name: string;
  input: unknown;
  state: 'running' | 'awaiting-approval' | 'done' | 'error' | 'denied';
  output?: unknown;
  errorText?: string | undefined;
  /** Set while the call waits for the user: what an approval or a refusal answers. */
  approvalId?: string | undefined;
  /** For a tool asked "once per conversation": what approving this call also covers. */
  approvalScope?: string | undefined;
  durationMs?: number | null | undefined;
};

/** The agent that answered (issue 18), and where its run stands. */
export type AgentView = {
  runId: string;
  name: string;
  status: NonNullable<Message['agent_run']>['status'];
};

/** A file sent with a message. */
export type AttachmentView = {
  id: string;
  name: string;
  contentType: string;
  sizeBytes?: number | undefined;
  /** Where to open it; absent while it uploads or when it has no link. */
  url?: string | undefined;
};

/** One message as the list shows it, stored or still streaming. */
export type ChatRow = {
  id: string;
  role: Message['role'];
  content: string;
  status: RowStatus;
  provider: string | null;
  model: string | null;
  sources: Source[];
  toolCalls: ToolCallView[];
  attachments: AttachmentView[];
  /** An agent's reply: which agent, and whether its run waits for an approval. */
  agent?: AgentView | undefined;
  /** False while the message exists only in this tab (being sent or streamed). */
  stored: boolean;
  failure?: RowFailure | undefined;
  /** An answer regenerated at least once: which version this is, and every version's id. */
  version?: Message['version'] | undefined;
};

/** A stored attachment as the chat shows it (stored files have no link of their own). */
export const attachmentView = (file: MessageAttachment): AttachmentView => ({
  id: file.id,
  name: file.name,
  contentType: file.content_type,
  sizeBytes: file.size_bytes,
});

/** A stored tool call as the chat shows it. */
export const toolCallView = (call: StoredToolCall): ToolCallView => ({
  id: call.id,
  name: call.name,
  input: call.input,
  state: call.state,
  ...(call.output !== undefined && { output: call.output }),
  ...(call.error && { errorText: call.error }),
  ...(call.approval_id && { approvalId: call.approval_id }),
  ...(call.approval_scope && { approvalScope: call.approval_scope }),
  durationMs: call.duration_ms,
});

export const rowFromMessage = (message: Message): ChatRow => ({
  id: message.id,
  role: message.role,
  content: message.content,
  status: message.status,
  provider: message.provider,
  model: message.model,
  sources: message.sources,
  toolCalls: (message.tool_calls ?? []).map(toolCallView),
  agent: message.agent_run
    ? {
        runId: message.agent_run.id,
        name: message.agent_run.agent_name,
        status: message.agent_run.status,
      }
    : undefined,
  attachments: (message.attachments ?? []).map(attachmentView),
  stored: true,
  // The reason a reply failed is kept with it, so it reads the same after a reload.
  failure: message.error
    ? { reason: message.error.message, code: message.error.code ?? undefined }
    : undefined,
  version: message.version,
});

type Part = ChorusUIMessage['parts'][number];

export const textOf = (message: Pick<ChorusUIMessage, 'parts'>): string =>
  message.parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('');

// The literal itself, checked against the contract's constant: importing the value would bring
// the knowledge contract's schemas into the chat's first paint.
const citationsPart: typeof citationsPartType = 'data-citations';

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;
const whole = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) ? value : undefined;

/**
 * One citation of a `data-citations` part, read field by field: the stream is data from the
 * network, and this module stays free of a schema library.
 */
export const sourceFromData = (value: unknown): Source | null => {
  if (!value || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  const source: Source = { url: text(record.url) ?? '' };
  const fields = [
    'title',
    'snippet',
    'document_name',
    'document_id',
    'chunk_id',
    'knowledge_base_id',
  ] as const;
  for (const field of fields) {
    const v = text(record[field]);
    if (v !== undefined) source[field] = v;
  }
  if (record.page === null) source.page = null;
  else if (whole(record.page) !== undefined) source.page = whole(record.page);
  if (Array.isArray(record.heading_path)) {
    source.heading_path = record.heading_path.filter((h): h is string => typeof h === 'string');
  }
  if (typeof record.score === 'number') source.score = record.score;
  if (whole(record.index) !== undefined) source.index = whole(record.index);
  return source;
};

/**
 * The reply's citations: its knowledge passages (the newest `data-citations` part, which the
 * server sends while it streams), then `source-url` and `source-document` parts in the order they
 * arrived, without repeats.
 */
export const sourcesOf = (message: Pick<ChorusUIMessage, 'parts'>): Source[] => {
  const seen = new Set<string>();
  const sources: Source[] = [];
  const citations = message.parts.findLast((part) => part.type === citationsPart);
  if (citations && 'data' in citations && Array.isArray(citations.data)) {
    for (const item of citations.data) {
      const source = sourceFromData(item);
      if (!source) continue;
      const key = source.chunk_id ? `chunk:${source.chunk_id}` : `url:${source.url}`;
      if (seen.has(key)) continue;
      seen.add(key);
      sources.push(source);
    }
  }
  for (const part of message.parts) {
    if (part.type === 'source-url') {
      if (seen.has(`url:${part.url}`)) continue;
      seen.add(`url:${part.url}`);
      sources.push(part.title ? { url: part.url, title: part.title } : { url: part.url });
    } else if (part.type === 'source-document') {
      if (seen.has(part.sourceId)) continue;
      seen.add(part.sourceId);
      sources.push({ url: '', title: part.title, document_name: part.filename ?? part.title });
    }
  }
  return sources;
};

type ToolPart = Extract<Part, { toolCallId: string }>;

const isToolPart = (part: Part): part is ToolPart =>
  part.type === 'dynamic-tool' || part.type.startsWith('tool-');

const toolState = (state: ToolPart['state']): ToolCallView['state'] => {
  switch (state) {
    case 'approval-requested':
      return 'awaiting-approval';
    case 'output-available':
      return 'done';
    case 'output-error':
      return 'error';
    case 'output-denied':
      return 'denied';
    default:
      return 'running';
  }
};

export const toolCallsOf = (
  message: Pick<ChorusUIMessage, 'parts'> & { metadata?: ChorusUIMessage['metadata'] },
): ToolCallView[] =>
  message.parts.filter(isToolPart).map((part) => {
    const name = part.type === 'dynamic-tool' ? part.toolName : part.type.slice('tool-'.length);
    const scope = message.metadata?.approval_scopes?.[name];
    return {
      id: part.toolCallId,
      name,
      input: part.input,
      state: toolState(part.state),
      ...(part.state === 'output-available' && { output: part.output }),
      ...(part.state === 'output-error' && { errorText: part.errorText }),
      ...(part.state === 'approval-requested' && {
        approvalId: part.approval.id,
        ...(scope && { approvalScope: scope }),
      }),
    };
  });

/** The agent of a streamed reply, from its metadata; its run waits when a call does. */
const agentOf = (message: ChorusUIMessage, calls: ToolCallView[]): AgentView | undefined => {
  const meta = message.metadata;
  if (!meta?.agent_run_id) return undefined;
  return {
    runId: meta.agent_run_id,
    name: meta.agent_name ?? 'Agent',
    status: calls.some((call) => call.state === 'awaiting-approval')
      ? 'awaiting_approval'
      : 'complete',
  };
};

/** A tool call stored with a reply, from a streamed one. */
const storedCall = (call: ToolCallView): StoredToolCall => ({
  id: call.id,
  approval_id: call.approvalId ?? null,
  name: call.name,
  input: call.input,
  state: call.state,
  ...(call.output !== undefined && { output: call.output }),
  error: call.errorText ?? null,
  duration_ms: call.durationMs ?? null,
  ...(call.approvalScope && { approval_scope: call.approvalScope }),
});

/**
 * A stored reply as the parts of a UI message, for a run that streams on into it: its text, then
 * its tool calls (the ones just answered marked so).
 */
export const uiMessageFromRow = (
  row: ChatRow,
  answered: ReadonlyMap<string, boolean>,
): ChorusUIMessage => ({
  id: row.id,
  role: 'assistant',
  parts: [
    ...row.toolCalls.map((call) => {
      const base = { type: `tool-${call.name}` as const, toolCallId: call.id, input: call.input };
      if (call.state === 'awaiting-approval' && call.approvalId) {
        const approved = answered.get(call.approvalId) ?? false;
        return {
          ...base,
          state: 'approval-responded' as const,
          approval: { id: call.approvalId, approved },
        };
      }
      if (call.state === 'done')
        return { ...base, state: 'output-available' as const, output: call.output };
      if (call.state === 'denied')
        return {
          ...base,
          state: 'output-denied' as const,
          approval: { id: call.id, approved: false },
        };
      if (call.state === 'error')
        return { ...base, state: 'output-error' as const, errorText: call.errorText ?? '' };
      return { ...base, state: 'input-available' as const };
    }),
    ...(row.content ? [{ type: 'text' as const, text: row.content, state: 'done' as const }] : []),
  ] as ChorusUIMessage['parts'],
});

/** A file already stored (`/storage/v1/files`) as a part of the user message being sent. */
export const attachmentPart = (file: MessageAttachment): FileUIPart => ({
  type: 'file',
  mediaType: file.content_type,
  filename: file.name,
  // The server reads the file by its id; the part needs no copy of the bytes.
  url: '',
  providerMetadata: { chorus: { fileId: file.id, sizeBytes: file.size_bytes } },
});

/** The stored file a part stands for (see attachmentPart); null for any other file part. */
const storedFileOf = (part: FileUIPart): MessageAttachment | null => {
  const meta = part.providerMetadata?.chorus;
  const id = meta?.fileId;
  const size = meta?.sizeBytes;
  if (typeof id !== 'string') return null;
  return {
    id,
    name: part.filename ?? 'Attachment',
    content_type: part.mediaType,
    size_bytes: typeof size === 'number' ? size : 0,
  };
};

export const attachmentsOf = (message: Pick<ChorusUIMessage, 'parts'>): AttachmentView[] =>
  message.parts.flatMap((part, index) => {
    if (part.type !== 'file') return [];
    const stored = storedFileOf(part);
    if (stored) return [attachmentView(stored)];
    return [
      {
        id: `${index}:${part.filename ?? part.url.slice(0, 40)}`,
        name: part.filename ?? 'Attachment',
        contentType: part.mediaType,
        // A data: URL is the file itself, not a link to show.
        url: part.url.startsWith('data:') ? undefined : part.url,
      },
    ];
  });

export const rowFromLive = (message: ChorusUIMessage, streaming: boolean): ChatRow => ({
  id: message.id,
  role: message.role,
  content: textOf(message),
  status: streaming ? 'streaming' : 'complete',
  provider: message.metadata?.provider ?? null,
  model: message.metadata?.model ?? null,
  sources: sourcesOf(message),
  toolCalls: toolCallsOf(message),
  attachments: attachmentsOf(message),
  agent: agentOf(message, toolCallsOf(message)),
  stored: false,
});

export const uiMessageFromStored = (message: Message): ChorusUIMessage => ({
  id: message.id,
  role: message.role,
  parts: [{ type: 'text', text: message.content }],
});

/** A message that did not reach the server, as the user's bubble marked "Not sent". */
export const rowFromUnsent = (message: UnsentMessage): ChatRow => ({
  id: message.id,
  role: 'user',
  content: message.text,
  status: 'not-sent',
  provider: null,
  model: null,
  sources: [],
  toolCalls: [],
  attachments: [],
  stored: false,
  failure: { reason: message.reason, code: message.code },
});

/** The placeholder shown between sending and the first streamed part of the reply. */
export const pendingRow = (provider: string | null): ChatRow => ({
  id: 'pending-reply',
  role: 'assistant',
  content: '',
  status: 'streaming',
  provider,
  model: null,
  sources: [],
  toolCalls: [],
  attachments: [],
  stored: false,
});

/**
 * The rows a chat view shows: what is stored, then the exchange in flight, then a placeholder
 * while the reply has not begun. A live message hides its stored copy (a refresh may load it
 * mid-stream): the stored ids travel in the reply's metadata, the live ones are the stream's own.
 */
export const mergeRows = (input: {
  stored: ChatRow[];
  live: ChorusUIMessage[];
  busy: boolean;
  waiting: boolean;
  provider: string | null;
  /** Messages that did not reach the server: after everything else, marked "Not sent". */
  unsent?: ChatRow[];
}): ChatRow[] => {
  const { stored, live, busy, waiting, provider, unsent = [] } = input;
  const liveIds = new Set(
    live.flatMap((message) => [
      message.id,
      ...(message.metadata?.user_message_id ? [message.metadata.user_message_id] : []),
      ...(message.metadata?.assistant_message_id ? [message.metadata.assistant_message_id] : []),
    ]),
  );
  const liveRows = live.map((message, index) =>
    rowFromLive(message, busy && index === live.length - 1 && message.role === 'assistant'),
  );
  const pending = waiting && live.at(-1)?.role !== 'assistant' ? [pendingRow(provider)] : [];
  const shown = new Set([...stored.map((row) => row.id), ...liveIds]);
  return [
    ...stored.filter((row) => !liveIds.has(row.id)),
    ...liveRows,
    ...pending,
    ...unsent.filter((row) => !shown.has(row.id)),
  ];
};

/** An agent's reply keeps its tool calls and its run when it moves into the history. */
const agentFields = (reply: ChorusUIMessage): Pick<Message, 'tool_calls' | 'agent_run'> => {
  const calls = toolCallsOf(reply);
  const agent = agentOf(reply, calls);
  if (!agent) return {};
  return {
    tool_calls: calls.map(storedCall),
    agent_run: {
      id: agent.runId,
      agent_id: null,
      agent_name: agent.name,
      status: agent.status,
    },
  };
};

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
      attachments: user.parts.flatMap((part) => {
        const stored = part.type === 'file' ? storedFileOf(part) : null;
        return stored ? [stored] : [];
      }),
      status: 'complete',
      error: null,
      version: null,
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
    attachments: [],
    status: interrupted ? 'interrupted' : 'complete',
    error: null,
    version: null,
    ...agentFields(reply),
    created_at: createdAt,
  });
  return rows;
};

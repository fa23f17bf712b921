import { describe, expect, it } from 'vitest';
import type { Message } from '@chorus/shared/api/conversations';
import {
  attachmentPart,
  attachmentsOf,
  mergeRows,
  rowFromLive,
  rowFromMessage,
  sourcesOf,
  storedRowsFromExchange,
  toolCallsOf,
  uiMessageFromRow,
  type ChorusUIMessage,
} from './chat-rows';

const reply = (parts: ChorusUIMessage['parts']): ChorusUIMessage => ({
  id: 'r1',
  role: 'assistant',
  parts,
});

describe('rows from a streamed message', () => {
  it('reads tool calls of static and dynamic tools with their state', () => {
    const calls = toolCallsOf(
      reply([
        {
          type: 'tool-weather',
          toolCallId: 't1',
          state: 'input-available',
          input: { city: 'Oslo' },
        },
        {
          type: 'dynamic-tool',
          toolName: 'mcp_search',
          toolCallId: 't2',
          state: 'output-available',
          input: { q: 'x' },
          output: { hits: 3 },
        },
        {
          type: 'tool-mail',
          toolCallId: 't3',
          state: 'output-error',
          input: {},
          errorText: 'SMTP down',
        },
      ] as ChorusUIMessage['parts']),
    );
    expect(calls).toEqual([
      { id: 't1', name: 'weather', input: { city: 'Oslo' }, state: 'running' },
      { id: 't2', name: 'mcp_search', input: { q: 'x' }, state: 'done', output: { hits: 3 } },
      { id: 't3', name: 'mail', input: {}, state: 'error', errorText: 'SMTP down' },
    ]);
  });

  it('reads web and document sources once each, and files without their inline data', () => {
    const message = reply([
      { type: 'source-url', sourceId: 's1', url: 'https://a.test', title: 'A' },
      { type: 'source-url', sourceId: 's2', url: 'https://a.test' },
      {
        type: 'source-document',
        sourceId: 'd1',
        mediaType: 'application/pdf',
        title: 'Policy',
        filename: 'policy.pdf',
      },
      {
        type: 'file',
        mediaType: 'image/png',
        filename: 'chart.png',
        url: 'data:image/png;base64,AAAA',
      },
    ]);
    expect(sourcesOf(message)).toEqual([
      { url: 'https://a.test', title: 'A' },
      { url: '', title: 'Policy', document_name: 'policy.pdf' },
    ]);
    expect(attachmentsOf(message)).toEqual([
      { id: '3:chart.png', name: 'chart.png', contentType: 'image/png', url: undefined },
    ]);
  });

  it('hides the stored copy of an exchange that is still on screen live, and waits visibly', () => {
    const stored = rowFromMessage({
      id: 'u1',
      conversation_id: 'c',
      user_id: 'u',
      content: 'Hi',
      role: 'user',
      provider: null,
      model: null,
      reply_to_id: null,
      sources: [],
      attachments: [],
      status: 'complete',
      error: null,
      version: null,
      created_at: '2026-01-01T00:00:00.000Z',
    });
    const live: ChorusUIMessage[] = [
      { id: 'local-1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] },
    ];
    const rows = mergeRows({
      stored: [stored],
      live,
      busy: true,
      waiting: true,
      provider: 'openai',
    });
    expect(rows.map((r) => r.id)).toEqual(['u1', 'local-1', 'pending-reply']);
    const withMeta: ChorusUIMessage[] = [
      ...live,
      {
        id: 'a-live',
        role: 'assistant',
        parts: [],
        metadata: { user_message_id: 'u1', assistant_message_id: 'a1' },
      },
    ];
    const streaming = mergeRows({
      stored: [stored],
      live: withMeta,
      busy: true,
      waiting: false,
      provider: 'openai',
    });
    expect(streaming.map((r) => [r.id, r.status])).toEqual([
      ['local-1', 'complete'],
      ['a-live', 'streaming'],
    ]);
  });
});

const passage = {
  url: '',
  title: 'handbook.pdf',
  document_name: 'handbook.pdf',
  document_id: 'd1',
  chunk_id: 'c1',
  knowledge_base_id: 'kb1',
  page: 3,
  heading_path: [],
  snippet: 'Staff get 25 days of annual leave.',
  score: 0.0325,
  index: 1,
};

describe('knowledge citations and attachments', () => {
  it('reads the citations a reply streams as a data-citations part, the newest list winning', () => {
    const message = reply([
      { type: 'data-citations', data: [{ ...passage, chunk_id: 'old' }] },
      { type: 'text', text: 'You get 25 days [1].' },
      {
        type: 'data-citations',
        data: [passage, passage, { ...passage, chunk_id: 'c2', index: 2, page: 'x' }, 'junk'],
      },
      { type: 'source-url', sourceId: 's1', url: 'https://a.test', title: 'A' },
    ] as ChorusUIMessage['parts']);
    expect(sourcesOf(message)).toEqual([
      passage,
      // A field of the wrong type is left out; the rest of the citation stays.
      { ...passage, chunk_id: 'c2', index: 2, page: undefined },
      { url: 'https://a.test', title: 'A' },
    ]);
    expect(rowFromLive(message, true).sources[0]).toEqual(passage);
  });

  it('keeps the citations of a streamed reply when it is filed into the history', () => {
    const user: ChorusUIMessage = {
      id: 'local-1',
      role: 'user',
      parts: [
        { type: 'text', text: 'How much leave?' },
        attachmentPart({
          id: 'f1',
          name: 'policy.pdf',
          content_type: 'application/pdf',
          size_bytes: 2048,
        }),
      ],
    };
    const answer: ChorusUIMessage = {
      id: 'a-live',
      role: 'assistant',
      parts: [
        { type: 'text', text: '25 days [1].' },
        { type: 'data-citations', data: [passage] },
      ],
      metadata: { user_message_id: 'u1', assistant_message_id: 'a1', provider: 'openai' },
    };
    const rows = storedRowsFromExchange({
      conversationId: 'c',
      userId: 'u',
      live: [user, answer],
      reply: answer,
      interrupted: false,
    });
    expect(rows?.[0]?.attachments).toEqual([
      { id: 'f1', name: 'policy.pdf', content_type: 'application/pdf', size_bytes: 2048 },
    ]);
    expect(rows?.[1]?.sources).toEqual([passage]);
    // While it streams, the user's bubble shows the file it carries.
    expect(rowFromLive(user, false).attachments).toEqual([
      { id: 'f1', name: 'policy.pdf', contentType: 'application/pdf', sizeBytes: 2048 },
    ]);
  });

  it('shows a stored message’s files as attachment chips', () => {
    const stored: Message = {
      id: 'u1',
      conversation_id: 'c',
      user_id: 'u',
      content: 'Summarise this',
      role: 'user',
      provider: null,
      model: null,
      reply_to_id: null,
      sources: [],
      attachments: [
        { id: 'f1', name: 'report.docx', content_type: 'application/msword', size_bytes: 10 },
      ],
      status: 'complete',
      error: null,
      version: null,
      created_at: '2026-01-01T00:00:00.000Z',
    };
    expect(rowFromMessage(stored).attachments).toEqual([
      { id: 'f1', name: 'report.docx', contentType: 'application/msword', sizeBytes: 10 },
    ]);
  });
});

describe('an agent’s reply', () => {
  const stored: Message = {
    id: 'm1',
    conversation_id: 'c1',
    user_id: 'u1',
    content: 'Let me check.',
    role: 'assistant',
    provider: 'openai',
    model: 'gpt',
    reply_to_id: 'm0',
    sources: [],
    attachments: [],
    status: 'complete',
    error: null,
    version: null,
    tool_calls: [
      {
        id: 'c-1',
        approval_id: 'a-1',
        name: 'calculator',
        input: { expression: '6*7' },
        state: 'awaiting-approval',
        error: null,
        duration_ms: null,
      },
      {
        id: 'c-2',
        approval_id: null,
        name: 'current_datetime',
        input: {},
        state: 'done',
        output: { utc: 'now' },
        error: null,
        duration_ms: 12,
      },
    ],
    agent_run: {
      id: 'run-1',
      agent_id: 'ag-1',
      agent_name: 'Math Helper',
      status: 'awaiting_approval',
    },
    created_at: '2026-11-24T00:00:00.000Z',
  };

  it('shows its stored tool calls, the waiting one with what an approval answers', () => {
    const row = rowFromMessage(stored);
    expect(row.agent).toEqual({ runId: 'run-1', name: 'Math Helper', status: 'awaiting_approval' });
    expect(row.toolCalls).toEqual([
      {
        id: 'c-1',
        name: 'calculator',
        input: { expression: '6*7' },
        state: 'awaiting-approval',
        approvalId: 'a-1',
        durationMs: null,
      },
      {
        id: 'c-2',
        name: 'current_datetime',
        input: {},
        state: 'done',
        output: { utc: 'now' },
        durationMs: 12,
      },
    ]);
  });

  it('goes on streaming from the stored reply, the answered call marked so', () => {
    const message = uiMessageFromRow(rowFromMessage(stored), new Map([['a-1', false]]));
    expect(message.parts).toEqual([
      {
        type: 'tool-calculator',
        toolCallId: 'c-1',
        input: { expression: '6*7' },
        state: 'approval-responded',
        approval: { id: 'a-1', approved: false },
      },
      {
        type: 'tool-current_datetime',
        toolCallId: 'c-2',
        input: {},
        state: 'output-available',
        output: { utc: 'now' },
      },
      { type: 'text', text: 'Let me check.', state: 'done' },
    ]);
  });

  it('keeps its tool calls and run when the streamed exchange moves into the history', () => {
    const live: ChorusUIMessage = {
      id: 'live',
      role: 'assistant',
      metadata: {
        user_message_id: 'u-1',
        assistant_message_id: 'a-9',
        agent_run_id: 'run-2',
        agent_name: 'Math Helper',
      },
      parts: [
        {
          type: 'tool-calculator',
          toolCallId: 'c-9',
          state: 'approval-requested',
          input: { expression: '1+1' },
          approval: { id: 'ap-9' },
        },
      ],
    };
    const rows = storedRowsFromExchange({
      conversationId: 'c1',
      userId: 'u1',
      live: [live],
      reply: live,
      interrupted: false,
    })!;
    expect(rows.at(-1)).toMatchObject({
      id: 'a-9',
      tool_calls: [{ id: 'c-9', approval_id: 'ap-9', state: 'awaiting-approval' }],
      agent_run: { id: 'run-2', agent_name: 'Math Helper', status: 'awaiting_approval' },
    });
  });

  it('keeps what approving a call of a tool asked once covers, from the reply’s metadata', () => {
    const scope = 'Approving also lets later calls … when they go to the same site.';
    const live: ChorusUIMessage = {
      id: 'live',
      role: 'assistant',
      metadata: {
        user_message_id: 'u-2',
        assistant_message_id: 'a-10',
        agent_run_id: 'run-3',
        agent_name: 'Reader',
        approval_scopes: { web_fetch: scope },
      },
      parts: [
        {
          type: 'tool-web_fetch',
          toolCallId: 'c-10',
          state: 'approval-requested',
          input: { url: 'https://example.com' },
          approval: { id: 'ap-10' },
        },
        {
          type: 'tool-calculator',
          toolCallId: 'c-11',
          state: 'approval-requested',
          input: { expression: '1+1' },
          approval: { id: 'ap-11' },
        },
      ],
    };
    const rows = storedRowsFromExchange({
      conversationId: 'c1',
      userId: 'u1',
      live: [live],
      reply: live,
      interrupted: false,
    })!;
    const calls = rows.at(-1)!.tool_calls!;
    expect(calls[0]).toMatchObject({ id: 'c-10', approval_scope: scope });
    expect(calls[1]).not.toHaveProperty('approval_scope');
  });
});

import { describe, expect, it } from 'vitest';
import {
  attachmentsOf,
  mergeRows,
  rowFromMessage,
  sourcesOf,
  toolCallsOf,
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

import { describe, expect, it } from 'vitest';
import {
  conversationExportSchema,
  type ConversationExportMessage,
} from '@chorus/shared/api/conversation-sharing';
import {
  exportFileName,
  jsonFooter,
  jsonHeader,
  jsonMessage,
  markdownHeader,
  markdownMessage,
  type ExportedConversation,
} from './export-format.ts';

const conversation: ExportedConversation = {
  id: '0b9f6a4e-6f0e-4a53-9d0c-1b7c2f0e2a11',
  title: 'Trip plans',
  created_at: '2026-05-01T14:03:09.000Z',
  updated_at: '2026-05-01T15:00:00.000Z',
  pinned_at: null,
  system_prompt: '',
};

const message = (over: Partial<ConversationExportMessage> = {}): ConversationExportMessage => ({
  role: 'assistant',
  content: 'Hello',
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  status: 'complete',
  created_at: '2026-05-01T14:04:00.000Z',
  sources: [],
  error: null,
  ...over,
});

describe('export file names', () => {
  it.each([
    ['Trip plans', 'Trip plans.md'],
    ['a/b\\c:d*e?f"g<h>i|j', 'a b c d e f g h i j.md'],
    ['../../etc/passwd', 'etc passwd.md'],
    ['  \n\t ', 'conversation.md'],
    ['Line\u0000break\u202eevil', 'Line break evil.md'],
    ['Café ☕ 日本', 'Café ☕ 日本.md'],
    ['x'.repeat(300), `${'x'.repeat(80)}.md`],
  ])('%j → %j', (title, name) => {
    expect(exportFileName(title, 'markdown')).toBe(name);
  });

  it('ends JSON exports in .json', () => {
    expect(exportFileName('Trip plans', 'json')).toBe('Trip plans.json');
  });
});

describe('the JSON export written piece by piece', () => {
  it('is the same text as the whole export serialised at once, and valid against its schema', () => {
    const messages = [
      message({ role: 'user', content: 'Hi "there"\n', provider: 'openai', model: null }),
      message({ status: 'error', content: '', error: { code: null, message: 'Refused' } }),
    ];
    const exportedAt = '2026-05-02T10:00:00.000Z';
    const text =
      jsonHeader(conversation, exportedAt) +
      messages.map((m, i) => jsonMessage(m, i === 0)).join('') +
      jsonFooter(true);
    const whole = {
      format: 'chorus.conversation',
      version: 1,
      exported_at: exportedAt,
      conversation,
      messages,
    };
    expect(JSON.parse(text)).toEqual(whole);
    expect(conversationExportSchema.parse(JSON.parse(text))).toEqual(whole);
    expect(JSON.parse(jsonHeader(conversation, exportedAt) + jsonFooter(false))).toEqual({
      ...whole,
      messages: [],
    });
  });
});

describe('the Markdown export', () => {
  it('titles the file and shows the system prompt as written', () => {
    const header = markdownHeader(
      { ...conversation, system_prompt: 'Be **brief**.' },
      '2026-05-02T10:00:00.000Z',
    );
    expect(header).toBe(
      '# Trip plans\n\nExported from Chorus on 2026-05-02 10:00 UTC. The conversation started on 2026-05-01 14:03 UTC.\n\n## System prompt\n\nBe **brief**.\n\n',
    );
  });

  it('keeps a reply as written and says who wrote it, when, and whether it failed', () => {
    expect(markdownMessage(message({ content: '## Plan\n\n```js\nx()\n```\n' }))).toBe(
      '---\n\n### Assistant · Anthropic · claude-sonnet-4-5\n\n_2026-05-01 14:04 UTC_\n\n## Plan\n\n```js\nx()\n```\n\n',
    );
    expect(markdownMessage(message({ role: 'user', provider: 'openai' }))).toContain('### You\n');
    expect(
      markdownMessage(
        message({
          status: 'error',
          content: '',
          error: { code: 'x', message: 'No key.\nAdd one.' },
        }),
      ),
    ).toContain('> **The reply failed:** No key.\n> Add one.\n');
    expect(markdownMessage(message({ status: 'interrupted' }))).toContain(
      '> _The reply was cut off here._',
    );
    expect(
      markdownMessage(
        message({
          sources: [
            { url: 'https://example.com/a', title: 'A' },
            { url: '', document_name: 'Doc' },
          ],
        }),
      ),
    ).toContain('Sources:\n\n- [A](https://example.com/a)\n- Doc\n');
  });
});

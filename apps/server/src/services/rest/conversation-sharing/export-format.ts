import type {
  ConversationExport,
  ConversationExportFormat,
  ConversationExportMessage,
} from '@chorus/shared/api/conversation-sharing';
import type { Source } from '@chorus/shared/api/conversations';
import { isProviderId, providers } from '@chorus/shared/providers';
import type { TranscriptMessage } from '../../../db/repositories/conversation-transcripts.ts';

export type ExportedConversation = ConversationExport['conversation'];

export const exportContentTypes: Record<ConversationExportFormat, string> = {
  markdown: 'text/markdown; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

const extensions: Record<ConversationExportFormat, string> = { markdown: 'md', json: 'json' };

/**
 * A file name from the title that every system accepts: no path separators, control or reserved
 * characters, no leading dot, at most 80 characters before the extension.
 */
export const exportFileName = (title: string, format: ConversationExportFormat): string => {
  const base = title
    .replace(/[\\/:*?"<>|\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '')
    .slice(0, 80)
    .trim();
  return `${base || 'conversation'}.${extensions[format]}`;
};

/** `2026-05-01 14:03 UTC`: the same for every reader, whatever their time zone. */
const readableTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

const providerName = (id: string | null) =>
  id === null ? null : isProviderId(id) ? providers[id].name : id;

/** A stored message as the export shows it. */
export const toExportMessage = (row: TranscriptMessage): ConversationExportMessage => {
  const failed = row.status === 'error' || row.error_message !== null;
  return {
    role: row.role,
    content: row.content,
    provider: row.provider,
    model: row.model,
    status: row.status,
    created_at: row.created_at.toISOString(),
    sources: row.sources as Source[],
    error: failed
      ? { code: row.error_code ?? null, message: row.error_message ?? 'The reply failed.' }
      : null,
  };
};

// --- Markdown

const speaker = (m: ConversationExportMessage) => {
  if (m.role === 'user') return 'You';
  if (m.role === 'system') return 'System';
  return ['Assistant', providerName(m.provider), m.model].filter(Boolean).join(' · ');
};

const quote = (text: string) =>
  text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');

export const markdownHeader = (conversation: ExportedConversation, exportedAt: string): string => {
  const title = conversation.title.replace(/\s+/g, ' ').trim() || 'Conversation';
  const lines = [
    `# ${title}`,
    '',
    `Exported from Chorus on ${readableTime(exportedAt)}. The conversation started on ${readableTime(conversation.created_at)}.`,
    '',
  ];
  if (conversation.system_prompt.trim()) {
    lines.push('## System prompt', '', conversation.system_prompt.trim(), '');
  }
  return `${lines.join('\n')}\n`;
};

/** One message: who, when, then its text as written (a reply is already markdown). */
export const markdownMessage = (m: ConversationExportMessage): string => {
  const lines = ['---', '', `### ${speaker(m)}`, '', `_${readableTime(m.created_at)}_`, ''];
  if (m.content) lines.push(m.content.trimEnd(), '');
  if (m.sources.length > 0) {
    lines.push('Sources:', '');
    for (const s of m.sources) {
      const label = s.title || s.document_name || s.url;
      lines.push(s.url ? `- [${label}](${s.url})` : `- ${label}`);
    }
    lines.push('');
  }
  if (m.error) lines.push(quote(`**The reply failed:** ${m.error.message}`), '');
  else if (m.status === 'interrupted') lines.push('> _The reply was cut off here._', '');
  return `${lines.join('\n')}\n`;
};

export const markdownEmpty = '_This conversation has no messages._\n';

// --- JSON: written piece by piece, the same text as JSON.stringify of the whole export.

export const jsonHeader = (conversation: ExportedConversation, exportedAt: string): string => {
  const head = JSON.stringify({
    format: 'chorus.conversation',
    version: 1,
    exported_at: exportedAt,
    conversation,
  } satisfies Omit<ConversationExport, 'messages'>);
  return `${head.slice(0, -1)},"messages":[`;
};

export const jsonMessage = (m: ConversationExportMessage, first: boolean): string =>
  `${first ? '\n' : ',\n'}${JSON.stringify(m)}`;

export const jsonFooter = (any: boolean): string => (any ? '\n]}\n' : ']}\n');

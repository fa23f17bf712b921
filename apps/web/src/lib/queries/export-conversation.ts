import type { ConversationExportFormat } from '@chorus/shared/api/conversation-sharing';
import type { Conversation } from '@chorus/shared/api/conversations';
import { exportMessages } from '@chorus/shared/share-messages';
import { apiDownload } from '@/lib/api-client';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';

const extensions: Record<ConversationExportFormat, string> = { markdown: 'md', json: 'json' };

/**
 * The file name the server gave (RFC 6266: `filename*` first, then `filename`); the server makes
 * it from the title, safe for every file system.
 */
export const fileNameFromDisposition = (header: string | null): string | null => {
  if (!header) return null;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim());
    } catch {
      // A malformed encoding: fall back to the plain name.
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? null;
};

/** Used only when the server sent no name: the title without characters file systems refuse. */
const fallbackFileName = (title: string, format: ConversationExportFormat) => {
  const base = title
    .replace(/[\\/:*?"<>|\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '')
    .slice(0, 80)
    .trim();
  return `${base || 'conversation'}.${extensions[format]}`;
};

/** Hands a file to the browser's downloads through a temporary object URL. */
export const saveFile = (blob: Blob, fileName: string) => {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a while later: some browsers still read the URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 40_000);
};

export const exportConversation = async (
  conversation: Pick<Conversation, 'id' | 'title'>,
  format: ConversationExportFormat,
) => {
  const response = await apiDownload(
    `/rest/v1/conversations/${encodeURIComponent(conversation.id)}/export?format=${format}`,
  );
  const blob = await response.blob();
  const fileName =
    fileNameFromDisposition(response.headers.get('content-disposition')) ??
    fallbackFileName(conversation.title, format);
  saveFile(blob, fileName);
  return fileName;
};

/** Downloads the conversation as a file; a failure is a toast with the server's words. */
export const downloadConversation = async (
  conversation: Pick<Conversation, 'id' | 'title'>,
  format: ConversationExportFormat,
): Promise<void> => {
  try {
    await exportConversation(conversation, format);
  } catch (error) {
    toast.error(exportMessages.failed, { description: errorMessage(error) });
  }
};

import { useCallback, useMemo, useRef, useState } from 'react';
import type { MessageAttachment } from '@chorus/shared/api/conversations';
import type { StoredFile } from '@chorus/shared/api/files';
import { acceptedFileTypes, isAcceptedFileType } from '@chorus/shared/limits';
import { api } from '@/lib/api-client';
import { errorMessage } from '@/lib/api-error';
import { apiUpload } from '@/lib/api-upload';

/** A file picked for the next message: uploading, stored (with its id), or refused. */
export type ComposerAttachment = {
  /** This browser's key for it, stable from the pick on. */
  key: string;
  name: string;
  contentType: string;
  sizeBytes: number;
  state: 'uploading' | 'ready' | 'failed';
  /** The stored file, once the server has it. */
  fileId?: string | undefined;
  /** Why it was refused, in the server's words when it answered. */
  error?: string | undefined;
};

/** The `accept` of the composer's file input: every type storage takes. */
export const attachmentAccept = [
  ...Object.keys(acceptedFileTypes),
  ...Object.values(acceptedFileTypes).flatMap((type) => type.extensions),
].join(',');

const labels = Object.values(acceptedFileTypes).map((type) => type.label);
const acceptedLabels = `${labels.slice(0, -1).join(', ')} or ${labels.at(-1) ?? ''}`;

/**
 * The file's type as storage knows it. Browsers leave `type` empty for some files (Markdown on
 * most systems), so the extension decides then.
 */
export const attachmentType = (file: Pick<File, 'name' | 'type'>): string | null => {
  if (isAcceptedFileType(file.type)) return file.type;
  const name = file.name.toLowerCase();
  for (const [type, { extensions }] of Object.entries(acceptedFileTypes)) {
    if ((extensions as readonly string[]).some((extension) => name.endsWith(extension))) {
      return type;
    }
  }
  return null;
};

/** Stores a file for the chat (`purpose=attachment`); the send that carries its id attaches it. */
export const uploadAttachment = (file: File, contentType: string) =>
  apiUpload<StoredFile>('/storage/v1/files?purpose=attachment', file, {
    'Content-Type': contentType,
    'X-File-Name': encodeURIComponent(file.name),
  });

const deleteStoredFile = (id: string) =>
  api.delete<void>(`/storage/v1/files/${encodeURIComponent(id)}`);

/**
 * The files of the message being written. Each uploads the moment it is picked or dropped; one
 * that is removed after it was stored is deleted again, so nothing is left behind unattached.
 */
export const useComposerAttachments = () => {
  const [items, setItems] = useState<ComposerAttachment[]>([]);
  const removed = useRef(new Set<string>());
  const patch = (key: string, change: Partial<ComposerAttachment>) =>
    setItems((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item)));

  const add = useCallback((files: File[]) => {
    for (const file of files) {
      const key = crypto.randomUUID();
      const contentType = attachmentType(file);
      const item: ComposerAttachment = {
        key,
        name: file.name,
        contentType: contentType ?? file.type,
        sizeBytes: file.size,
        state: contentType ? 'uploading' : 'failed',
        error: contentType
          ? undefined
          : `Chorus cannot take this type of file. Attach ${acceptedLabels}.`,
      };
      setItems((list) => [...list, item]);
      if (!contentType) continue;
      uploadAttachment(file, contentType).then(
        (stored) => {
          if (removed.current.has(key)) {
            void deleteStoredFile(stored.id).catch(() => undefined);
            return;
          }
          patch(key, { state: 'ready', fileId: stored.id, sizeBytes: stored.size_bytes });
        },
        (error: unknown) =>
          patch(key, { state: 'failed', error: errorMessage(error, 'The upload failed.') }),
      );
    }
  }, []);

  const remove = useCallback(
    (key: string) => {
      removed.current.add(key);
      const fileId = items.find((entry) => entry.key === key)?.fileId;
      if (fileId) void deleteStoredFile(fileId).catch(() => undefined);
      setItems((list) => list.filter((entry) => entry.key !== key));
    },
    [items],
  );

  /** Empties the list once its files went with a message (they belong to it now). */
  const clear = useCallback(() => setItems([]), []);

  const ready = useMemo(
    () =>
      items.flatMap((item): MessageAttachment[] =>
        item.state === 'ready' && item.fileId
          ? [
              {
                id: item.fileId,
                name: item.name,
                content_type: item.contentType,
                size_bytes: item.sizeBytes,
              },
            ]
          : [],
      ),
    [items],
  );

  return {
    items,
    /** The stored files the next send carries. */
    ready,
    uploading: items.some((item) => item.state === 'uploading'),
    add,
    remove,
    clear,
  };
};

export type ComposerAttachments = ReturnType<typeof useComposerAttachments>;

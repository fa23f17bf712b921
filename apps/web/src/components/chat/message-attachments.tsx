import { Paperclip } from 'lucide-react';
import { formatBytes } from '@chorus/shared/bytes';
import type { AttachmentView } from '@/lib/chat/chat-rows';
import { safeUrl } from './markdown/safe-url';

/** The files sent with a message, as chips: name, type and size, a link when there is one. */
export const MessageAttachments = ({ attachments }: { attachments: AttachmentView[] }) => (
  <ul className="mt-1 flex flex-wrap gap-1.5" aria-label="Attachments">
    {attachments.map((file) => {
      const href = file.url ? safeUrl(file.url) : null;
      const detail = [
        file.contentType,
        file.sizeBytes === undefined ? null : formatBytes(file.sizeBytes),
      ]
        .filter(Boolean)
        .join(' · ');
      const body = (
        <>
          <Paperclip aria-hidden="true" className="size-3.5 shrink-0 text-muted-foreground" />
          <span className="max-w-48 truncate font-medium">{file.name}</span>
          <span className="text-muted-foreground">{detail}</span>
        </>
      );
      return (
        <li key={file.id}>
          {href ? (
            <a
              href={href}
              target="_blank"
              rel="noopener noreferrer nofollow"
              className="flex items-center gap-1.5 rounded-md border bg-background px-2 py-1 text-xs hover:bg-muted"
            >
              {body}
            </a>
          ) : (
            <span className="flex items-center gap-1.5 rounded-md border bg-background px-2 py-1 text-xs">
              {body}
            </span>
          )}
        </li>
      );
    })}
  </ul>
);

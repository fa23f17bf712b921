import { AlertTriangle, Paperclip, X } from 'lucide-react';
import { formatBytes } from '@chorus/shared/bytes';
import type { ComposerAttachment } from '@/lib/chat/attachments';
import { cn } from '@/lib/utils';

const ChipIcon = ({ state }: { state: ComposerAttachment['state'] }) => {
  if (state === 'uploading') {
    return (
      <span
        aria-hidden="true"
        className="inline-block size-3.5 shrink-0 animate-spin rounded-full border-2 border-muted-foreground/30 border-t-primary"
      />
    );
  }
  if (state === 'failed') {
    return <AlertTriangle aria-hidden="true" className="size-3.5 shrink-0" />;
  }
  return <Paperclip aria-hidden="true" className="size-3.5 shrink-0 text-muted-foreground" />;
};

const detailOf = (item: ComposerAttachment) => {
  if (item.state === 'uploading') return 'Uploading…';
  if (item.state === 'failed') return item.error ?? 'Not uploaded';
  return formatBytes(item.sizeBytes);
};

/** The files of the message being written: uploading, ready, or refused with the reason. */
export const ComposerAttachmentChips = ({
  items,
  onRemove,
}: {
  items: ComposerAttachment[];
  onRemove: (key: string) => void;
}) => (
  <ul className="flex flex-wrap gap-1.5 px-2 pt-2" aria-label="Files to send">
    {items.map((item) => (
      <li
        key={item.key}
        data-state={item.state}
        className={cn(
          'flex max-w-full items-center gap-1.5 rounded-md border bg-muted/40 py-1 pr-1 pl-2 text-xs',
          item.state === 'failed' && 'border-destructive/50 bg-destructive/5 text-destructive',
        )}
      >
        <ChipIcon state={item.state} />
        <span className="max-w-48 shrink-0 truncate font-medium">{item.name}</span>
        <span
          className={cn('min-w-0', item.state !== 'failed' && 'text-muted-foreground')}
          role={item.state === 'failed' ? 'alert' : undefined}
        >
          {detailOf(item)}
        </span>
        <button
          type="button"
          className="rounded p-0.5 text-muted-foreground hover:bg-muted hover:text-foreground"
          aria-label={`Remove ${item.name}`}
          title="Remove"
          onClick={() => onRemove(item.key)}
        >
          <X aria-hidden="true" className="size-3.5" />
        </button>
      </li>
    ))}
  </ul>
);

import { AlertTriangle, Check, Copy, Pencil, RefreshCw } from 'lucide-react';
import { memo, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import type { Source } from '@chorus/shared/api/conversations';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { providerName } from '@/lib/providers';
import { cn } from '@/lib/utils';
import type { ChatRow } from '../hooks/chat-rows';
import { Markdown } from './markdown/markdown';
import { imageHost, safeUrl } from './markdown/safe-url';

const copyText = async (text: string) => {
  try {
    await navigator.clipboard.writeText(text);
    toast.success('Copied to clipboard');
  } catch {
    toast.error('Could not copy: the browser refused access to the clipboard');
  }
};

const SourceList = ({ sources }: { sources: Source[] }) => (
  <div className="mt-3 border-t pt-2">
    <p className="text-xs font-medium text-muted-foreground">Sources</p>
    <ol className="mt-1 grid gap-0.5 text-xs">
      {sources.map((source, index) => {
        const href = safeUrl(source.url);
        const label = source.title || imageHost(source.url) || source.url;
        return (
          <li key={source.url} className="flex gap-1.5">
            <span className="text-muted-foreground tabular-nums">[{index + 1}]</span>
            {href ? (
              <a
                href={href}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className="truncate text-primary underline-offset-4 hover:underline"
                title={source.url}
              >
                {label}
              </a>
            ) : (
              <span className="truncate">{label}</span>
            )}
          </li>
        );
      })}
    </ol>
  </div>
);

const EditForm = ({
  initial,
  onCancel,
  onSubmit,
}: {
  initial: string;
  onCancel: () => void;
  onSubmit: (text: string) => void;
}) => {
  const [text, setText] = useState(initial);
  const submit = () => {
    if (text.trim()) onSubmit(text);
  };
  return (
    <form
      className="grid w-full gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Textarea
        aria-label="Edit message"
        value={text}
        autoFocus
        rows={Math.min(10, Math.max(3, text.split('\n').length))}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onCancel();
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            submit();
          }
        }}
      />
      <div className="flex justify-end gap-2">
        <Button variant="ghost" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={!text.trim()}>
          Save and resend
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">
        The replies after this message are replaced by the new answer.
      </p>
    </form>
  );
};

type MessageItemProps = {
  row: ChatRow;
  /** The last reply, when nothing is streaming: it can be answered again. */
  canRegenerate: boolean;
  /** A stored user message, when nothing is streaming: it can be edited and resent. */
  canEdit: boolean;
  onRegenerate: () => void;
  onEdit: (messageId: string, text: string) => void;
};

const ActionButton = ({
  label,
  onClick,
  children,
}: {
  label: string;
  onClick: () => void;
  children: ReactNode;
}) => (
  <Button
    variant="ghost"
    size="icon"
    className="size-7 text-muted-foreground"
    aria-label={label}
    title={label}
    onClick={onClick}
  >
    {children}
  </Button>
);

const MessageItemView = ({
  row,
  canRegenerate,
  canEdit,
  onRegenerate,
  onEdit,
}: MessageItemProps) => {
  const [editing, setEditing] = useState(false);
  const [copied, setCopied] = useState(false);
  const isUser = row.role === 'user';
  const streaming = row.status === 'streaming';

  const copy = () => {
    void copyText(row.content);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };

  if (isUser) {
    return (
      <div className="group flex flex-col items-end px-4 py-3" data-role="user">
        {editing ? (
          <EditForm
            initial={row.content}
            onCancel={() => setEditing(false)}
            onSubmit={(text) => {
              setEditing(false);
              onEdit(row.id, text);
            }}
          />
        ) : (
          <>
            <div className="max-w-[85%] rounded-2xl rounded-br-sm bg-primary/10 px-4 py-2.5 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">
              {row.content}
            </div>
            <div className="mt-1 flex gap-0.5 opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100">
              <ActionButton label="Copy message" onClick={copy}>
                {copied ? <Check /> : <Copy />}
              </ActionButton>
              {canEdit ? (
                <ActionButton label="Edit and resend" onClick={() => setEditing(true)}>
                  <Pencil />
                </ActionButton>
              ) : null}
            </div>
          </>
        )}
      </div>
    );
  }

  const who = row.provider ? providerName(row.provider) : 'Assistant';
  return (
    <div className="group px-4 py-3" data-role="assistant" aria-busy={streaming || undefined}>
      <p className="mb-1 text-xs font-medium text-muted-foreground">
        {who}
        {row.model ? <span className="font-normal"> · {row.model}</span> : null}
      </p>
      {row.content ? (
        <Markdown content={row.content} className="text-sm" />
      ) : streaming ? (
        <p className="text-sm text-muted-foreground">
          <span className="inline-block animate-pulse">Thinking…</span>
        </p>
      ) : null}
      {streaming && row.content ? (
        <span
          aria-hidden="true"
          className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-foreground/60 align-text-bottom"
        />
      ) : null}
      {row.sources.length > 0 ? <SourceList sources={row.sources} /> : null}
      {row.status === 'interrupted' || row.status === 'error' ? (
        <p
          className={cn(
            'mt-2 flex items-center gap-1.5 text-xs',
            row.status === 'error' ? 'text-destructive' : 'text-muted-foreground',
          )}
        >
          <AlertTriangle aria-hidden="true" className="size-3.5" />
          {row.status === 'error' ? 'The reply failed' : 'Reply interrupted'}
          {canRegenerate ? (
            <Button variant="link" size="sm" className="h-auto p-0 text-xs" onClick={onRegenerate}>
              Regenerate
            </Button>
          ) : null}
        </p>
      ) : null}
      {streaming ? null : (
        <div className="mt-1 flex gap-0.5 opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100">
          <ActionButton label="Copy reply" onClick={copy}>
            {copied ? <Check /> : <Copy />}
          </ActionButton>
          {canRegenerate ? (
            <ActionButton label="Regenerate reply" onClick={onRegenerate}>
              <RefreshCw />
            </ActionButton>
          ) : null}
        </div>
      )}
    </div>
  );
};

/** Re-renders only when what it shows changes, not on every token of another message. */
export const MessageItem = memo(
  MessageItemView,
  (a, b) =>
    a.row.id === b.row.id &&
    a.row.content === b.row.content &&
    a.row.status === b.row.status &&
    a.row.sources.length === b.row.sources.length &&
    a.row.provider === b.row.provider &&
    a.row.model === b.row.model &&
    a.canRegenerate === b.canRegenerate &&
    a.canEdit === b.canEdit &&
    a.onRegenerate === b.onRegenerate &&
    a.onEdit === b.onEdit,
);

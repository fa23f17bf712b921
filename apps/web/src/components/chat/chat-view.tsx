import { useCallback, useMemo, type ReactNode } from 'react';
import type { ChatRow } from '@/lib/chat/chat-rows';
import { MessageItem, type UnsentActions } from './message-item';
import { MessageList, type OlderMessages } from './message-list';
import { isPersonaReply, type ReplyPersona } from './reply-persona';
import type { FocusRow } from './use-focus-row';

type ChatViewProps = {
  rows: ChatRow[];
  /** A reply is streaming or about to: nothing can be regenerated or edited meanwhile. */
  busy: boolean;
  /** Shown instead of the list (loading, not found, nothing yet). */
  placeholder?: ReactNode;
  older?: OlderMessages | undefined;
  /** Answers the last user message again; without it, replies cannot be regenerated. */
  onRegenerate?: (() => void) | undefined;
  /** Replaces a stored user message and what follows; without it, messages cannot be edited. */
  onEdit?: ((messageId: string, text: string) => void) | undefined;
  /** Retry, edit or discard a message marked "Not sent". */
  unsentActions?: UnsentActions | undefined;
  /** Offered on a failed reply: moves the reader to the model picker. */
  onSwitchModel?: (() => void) | undefined;
  /** Shows another version of a regenerated answer; without it, versions are not offered. */
  onSelectVersion?: ((messageId: string) => void) | undefined;
  /** Below the list: notices and the composer. */
  footer?: ReactNode;
  label?: string;
  /** Changes when the view shows another thread, so the list starts again at its end. */
  threadKey?: string;
  /** The custom AI the thread talks to: the replies that are its own show its avatar and name. */
  persona?: ReplyPersona | undefined;
  /** A message to scroll to and highlight once it is loaded (a search hit). */
  focusRow?: FocusRow | undefined;
};

/**
 * The chat engine's view: a thread of messages (markdown, tool calls, sources, attachments) with
 * regenerate and edit, and whatever the owner puts below it. It knows nothing of where the rows
 * come from: a conversation, an agent run, a scenario column or a widget session.
 */
export const ChatView = ({
  rows,
  busy,
  placeholder,
  older,
  onRegenerate,
  onEdit,
  unsentActions,
  onSwitchModel,
  onSelectVersion,
  footer,
  label = 'Chat',
  threadKey,
  focusRow,
  persona,
}: ChatViewProps) => {
  const last = rows.at(-1);
  const lastAssistantIndex = rows.findLastIndex((row) => row.role === 'assistant');
  // "Not sent" messages wait after the thread; the reply before them is still the last one.
  const lastSentIndex = rows.findLastIndex((row) => row.status !== 'not-sent');
  const tailVersion = last ? `${last.id}:${last.content.length}:${last.status}` : '';
  const regenerate = useCallback(() => onRegenerate?.(), [onRegenerate]);
  const edit = useCallback((id: string, text: string) => onEdit?.(id, text), [onEdit]);

  const renderRow = useMemo(
    () => (row: ChatRow, index: number) => (
      <div className="mx-auto max-w-3xl">
        <MessageItem
          row={row}
          canRegenerate={
            Boolean(onRegenerate) &&
            !busy &&
            row.stored &&
            index === lastAssistantIndex &&
            index === lastSentIndex
          }
          canEdit={Boolean(onEdit) && !busy && row.stored && row.role === 'user'}
          onRegenerate={regenerate}
          onEdit={edit}
          unsentActions={unsentActions}
          onSwitchModel={onSwitchModel}
          onSelectVersion={busy ? undefined : onSelectVersion}
          persona={isPersonaReply(row, persona) ? persona : undefined}
        />
      </div>
    ),
    [
      busy,
      lastAssistantIndex,
      lastSentIndex,
      onRegenerate,
      onEdit,
      regenerate,
      edit,
      unsentActions,
      onSwitchModel,
      onSelectVersion,
      persona,
    ],
  );

  return (
    <section aria-label={label} className="flex min-h-0 min-w-0 flex-col rounded-xl border bg-card">
      {placeholder ?? (
        <MessageList
          key={threadKey}
          rows={rows}
          renderRow={renderRow}
          tailVersion={tailVersion}
          older={older}
          focusRow={focusRow}
        />
      )}
      {footer ? <div className="grid gap-2 border-t p-3">{footer}</div> : null}
    </section>
  );
};

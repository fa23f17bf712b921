import {
  AlertTriangle,
  Bot,
  Check,
  ChevronLeft,
  ChevronRight,
  CloudOff,
  Copy,
  Pencil,
  RefreshCw,
  Trash2,
} from 'lucide-react';
import { lazy, memo, Suspense, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Source } from '@chorus/shared/api/conversations';
import { copyText } from '@/lib/clipboard';
import { helpPathFor } from '@/lib/help-links';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { providerName } from '@/lib/providers';
import { cn } from '@/lib/utils';
import type { ChatRow, ToolCallView } from '@/lib/chat/chat-rows';
import { describeReplyFailure, failureActions } from '@/lib/chat/describe-chat-error';
import { CustomAiAvatar } from '@/components/custom-ais/custom-ai-avatar';
import { CitationsContext, isPassage } from './citations';
import { MessageAttachments } from './message-attachments';
import { MessageSources } from './message-sources';
import type { ReplyPersona } from './reply-persona';
import { ToolCallPart } from './tool-call-part';
import { useAgentApprovals } from './agent-approvals';

// The renderer (remark, rehype, sanitising) loads with the first message it has to show; until
// then, and on a view with no messages, the text shows as written.
const Markdown = lazy(() =>
  import('./markdown/markdown').then((module) => ({ default: module.Markdown })),
);

// Opened from a citation: it fetches the passage, so it loads with the first one opened.
const PassageDialog = lazy(() =>
  import('./passage-dialog').then((module) => ({ default: module.PassageDialog })),
);

const PlainText = ({ content }: { content: string }) => (
  <p className="text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">{content}</p>
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

/** What can be done with a message that did not reach the server. */
export type UnsentActions = {
  retry: (id: string) => void;
  edit: (id: string) => void;
  discard: (id: string) => void;
};

type MessageItemProps = {
  row: ChatRow;
  /** The last reply, when nothing is streaming: it can be answered again. */
  canRegenerate: boolean;
  /** A stored user message, when nothing is streaming: it can be edited and resent. */
  canEdit: boolean;
  onRegenerate: () => void;
  onEdit: (messageId: string, text: string) => void;
  unsentActions?: UnsentActions | undefined;
  /** Moves the reader to the model picker, from a failed reply. */
  onSwitchModel?: (() => void) | undefined;
  /** Shows another version of a regenerated answer (its id). */
  onSelectVersion?: ((messageId: string) => void) | undefined;
  /** The custom AI that wrote this reply: its avatar and name head it. */
  persona?: ReplyPersona | undefined;
};

/** ‹ 2 / 3 › under a regenerated answer: the earlier answers are kept, one click away. */
const VersionPicker = ({
  version,
  onSelect,
}: {
  version: NonNullable<ChatRow['version']>;
  onSelect: ((messageId: string) => void) | undefined;
}) => {
  const { index, ids } = version;
  const previous = ids[index - 2];
  const next = ids[index];
  return (
    <div
      className="flex items-center gap-0.5 text-xs text-muted-foreground"
      role="group"
      aria-label="Answer versions"
    >
      <ActionButton
        label="Previous version"
        disabled={!previous || !onSelect}
        onClick={() => previous && onSelect?.(previous)}
      >
        <ChevronLeft />
      </ActionButton>
      <span className="min-w-10 text-center tabular-nums" data-testid="answer-version">
        {index} / {ids.length}
      </span>
      <ActionButton
        label="Next version"
        disabled={!next || !onSelect}
        onClick={() => next && onSelect?.(next)}
      >
        <ChevronRight />
      </ActionButton>
    </div>
  );
};

const linkClass = 'font-medium underline underline-offset-4';

/** The links a failure's code calls for: the API keys page, the plan, and the help on them. */
const FailureLinks = ({ code }: { code: string | undefined }) => {
  const actions = failureActions(code);
  const help = actions.keys || actions.plan ? helpPathFor(code) : null;
  return (
    <>
      {actions.keys ? (
        <Link to="/copy-api-keys" className={linkClass}>
          Open API keys
        </Link>
      ) : null}
      {actions.plan ? (
        <Link to="/profile" className={linkClass}>
          See your plan
        </Link>
      ) : null}
      {help ? (
        <Link to={help} className={linkClass}>
          Learn more
          <span className="sr-only">
            {actions.keys ? ' about provider keys' : ' about daily limits'}
          </span>
        </Link>
      ) : null}
    </>
  );
};

/** A user message that did not reach the server: its words, why, and Retry, Edit, Discard. */
const NotSent = ({ row, actions }: { row: ChatRow; actions: UnsentActions | undefined }) => (
  <div className="group flex flex-col items-end px-4 py-3" data-role="user" data-status="not-sent">
    <div className="max-w-[85%] rounded-2xl rounded-br-sm border border-dashed border-destructive/60 bg-destructive/5 px-4 py-2.5 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">
      {row.content}
    </div>
    <div
      role="status"
      className="mt-1.5 flex max-w-[85%] flex-wrap items-center justify-end gap-x-3 gap-y-1 text-xs text-destructive"
    >
      <span className="flex items-center gap-1.5">
        <CloudOff aria-hidden="true" className="size-3.5 shrink-0" />
        <span>
          <strong className="font-semibold">Not sent.</strong> {row.failure?.reason}
        </span>
      </span>
      <FailureLinks code={row.failure?.code} />
    </div>
    {actions ? (
      <div className="mt-1 flex gap-1">
        <Button size="sm" variant="outline" className="h-7" onClick={() => actions.retry(row.id)}>
          <RefreshCw aria-hidden="true" />
          Retry
        </Button>
        <Button size="sm" variant="ghost" className="h-7" onClick={() => actions.edit(row.id)}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        <Button
          size="sm"
          variant="ghost"
          className="h-7 text-muted-foreground"
          aria-label="Discard this message"
          title="Discard"
          onClick={() => actions.discard(row.id)}
        >
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
    ) : null}
  </div>
);

/** Why a reply failed or stopped, kept on the reply, with Retry, Switch model and the links. */
const ReplyFailure = ({
  row,
  canRegenerate,
  onRegenerate,
  onSwitchModel,
}: {
  row: ChatRow;
  canRegenerate: boolean;
  onRegenerate: () => void;
  onSwitchModel: (() => void) | undefined;
}) => {
  const failed = row.status === 'error';
  return (
    <div
      role={failed ? 'alert' : undefined}
      className={cn(
        'mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border px-3 py-2 text-xs',
        failed
          ? 'border-destructive/40 bg-destructive/5 text-destructive'
          : 'border-border bg-muted/40 text-muted-foreground',
      )}
    >
      <span className="flex items-start gap-1.5">
        <AlertTriangle aria-hidden="true" className="mt-px size-3.5 shrink-0" />
        <span>
          {describeReplyFailure({
            reason: row.failure?.reason,
            arrived: row.content.trim() !== '',
            failed,
          })}
        </span>
      </span>
      <span className="flex flex-wrap items-center gap-3">
        {canRegenerate ? (
          <Button variant="link" size="sm" className="h-auto p-0 text-xs" onClick={onRegenerate}>
            Retry
          </Button>
        ) : null}
        {onSwitchModel ? (
          <Button variant="link" size="sm" className="h-auto p-0 text-xs" onClick={onSwitchModel}>
            Switch model
          </Button>
        ) : null}
        <FailureLinks code={row.failure?.code} />
      </span>
    </div>
  );
};

function ActionButton({
  label,
  onClick,
  disabled,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Button
      variant="ghost"
      size="icon"
      className="size-7 text-muted-foreground"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}

const MessageItemView = ({
  row,
  canRegenerate,
  canEdit,
  onRegenerate,
  onEdit,
  unsentActions,
  onSwitchModel,
  onSelectVersion,
  persona,
}: MessageItemProps) => {
  const [editing, setEditing] = useState(false);
  const [copied, setCopied] = useState(false);
  const [passage, setPassage] = useState<Source | null>(null);
  const isUser = row.role === 'user';
  const streaming = row.status === 'streaming';
  const { sources } = row;
  const citable = sources.some(isPassage);
  const citations = useMemo(() => ({ sources, open: setPassage }), [sources]);

  const copy = async () => {
    if (!(await copyText(row.content))) return;
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };

  if (row.status === 'not-sent') return <NotSent row={row} actions={unsentActions} />;

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
            {row.attachments.length > 0 ? (
              <MessageAttachments attachments={row.attachments} />
            ) : null}
            <div className="mt-1 flex gap-0.5 opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100">
              <ActionButton label="Copy message" onClick={() => void copy()}>
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
      {row.agent ? (
        <p
          className="mb-1 flex items-center gap-1.5 text-xs text-muted-foreground"
          data-agent={row.agent.name}
        >
          <Bot aria-hidden="true" className="size-3.5" />
          <span className="font-medium text-foreground">{row.agent.name}</span>
          <span>
            · {who}
            {row.model ? ` · ${row.model}` : null}
          </span>
        </p>
      ) : persona ? (
        <p className="mb-1 flex items-center gap-1.5 text-xs text-muted-foreground">
          <CustomAiAvatar name={persona.name} avatar={persona.avatar} size="sm" />
          <span className="font-medium text-foreground">{persona.name}</span>
          <span>
            · {who}
            {row.model ? ` · ${row.model}` : null}
          </span>
        </p>
      ) : (
        <p className="mb-1 text-xs font-medium text-muted-foreground">
          {who}
          {row.model ? <span className="font-normal"> · {row.model}</span> : null}
        </p>
      )}
      {row.toolCalls.length > 0 ? <ReplyToolCalls row={row} /> : null}
      {row.content ? (
        <Suspense fallback={<PlainText content={row.content} />}>
          <CitationsContext.Provider value={citable ? citations : null}>
            <Markdown content={row.content} className="text-sm" citable={citable} />
          </CitationsContext.Provider>
        </Suspense>
      ) : streaming && row.toolCalls.length === 0 ? (
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
      {row.attachments.length > 0 ? <MessageAttachments attachments={row.attachments} /> : null}
      {row.sources.length > 0 ? (
        <MessageSources sources={row.sources} onOpenPassage={setPassage} />
      ) : null}
      {passage ? (
        <Suspense fallback={null}>
          <PassageDialog source={passage} onClose={() => setPassage(null)} />
        </Suspense>
      ) : null}
      {row.status === 'interrupted' || row.status === 'error' ? (
        <ReplyFailure
          row={row}
          canRegenerate={canRegenerate}
          onRegenerate={onRegenerate}
          onSwitchModel={onSwitchModel}
        />
      ) : null}
      {streaming ? null : (
        <div className="mt-1 flex items-center gap-0.5">
          {row.version ? <VersionPicker version={row.version} onSelect={onSelectVersion} /> : null}
          <div className="flex gap-0.5 opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100">
            <ActionButton label="Copy reply" onClick={() => void copy()}>
              {copied ? <Check /> : <Copy />}
            </ActionButton>
            {canRegenerate ? (
              <ActionButton label="Regenerate reply" onClick={onRegenerate}>
                <RefreshCw />
              </ActionButton>
            ) : null}
          </div>
        </div>
      )}
    </div>
  );
};

/** The tool calls of a reply; a run waiting for the user offers Approve and Refuse. */
const ReplyToolCalls = ({ row }: { row: ChatRow }) => {
  const approvals = useAgentApprovals();
  const sending = approvals?.sending(row.id) ?? false;
  const waiting = row.stored && row.agent?.status === 'awaiting_approval';
  const error = approvals?.errorOf(row.id);
  return (
    <div className="mb-2 grid gap-1.5" aria-label="Tool calls">
      {row.toolCalls.map((call) => {
        const approvalId = call.approvalId;
        const approval =
          approvals && (waiting || sending) && call.state === 'awaiting-approval' && approvalId
            ? {
                decision: approvals.decisionOf(approvalId),
                onDecide: (approved: boolean) => approvals.decide(row, approvalId, approved),
                sending,
              }
            : undefined;
        return <ToolCallPart key={call.id} call={call} approval={approval} />;
      })}
      {error ? (
        <p role="alert" className="text-xs text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
};

/** What of its tool calls a row shows: a change here re-renders it. */
const toolCallsKey = (calls: ToolCallView[]) =>
  calls.map((call) => `${call.id}:${call.state}:${call.output === undefined ? 0 : 1}`).join('|');

/** Re-renders only when what it shows changes, not on every token of another message. */
export const MessageItem = memo(
  MessageItemView,
  (a, b) =>
    a.row.id === b.row.id &&
    a.row.content === b.row.content &&
    a.row.status === b.row.status &&
    a.row.sources.length === b.row.sources.length &&
    a.row.attachments.length === b.row.attachments.length &&
    toolCallsKey(a.row.toolCalls) === toolCallsKey(b.row.toolCalls) &&
    a.row.agent?.status === b.row.agent?.status &&
    a.row.stored === b.row.stored &&
    a.row.provider === b.row.provider &&
    a.row.model === b.row.model &&
    a.persona === b.persona &&
    a.row.failure?.reason === b.row.failure?.reason &&
    a.row.failure?.code === b.row.failure?.code &&
    a.unsentActions === b.unsentActions &&
    a.onSwitchModel === b.onSwitchModel &&
    a.onSelectVersion === b.onSelectVersion &&
    a.row.version?.index === b.row.version?.index &&
    a.row.version?.ids.length === b.row.version?.ids.length &&
    a.canRegenerate === b.canRegenerate &&
    a.canEdit === b.canEdit &&
    a.onRegenerate === b.onRegenerate &&
    a.onEdit === b.onEdit,
);

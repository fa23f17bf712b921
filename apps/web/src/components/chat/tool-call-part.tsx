import { AlertTriangle, Ban, Check, ChevronRight, Hand, Loader2, Wrench } from 'lucide-react';
import { Button } from '@/components/ui/button';
import type { ToolCallView } from '@/lib/chat/chat-rows';
import { cn } from '@/lib/utils';

const stateView: Record<
  ToolCallView['state'],
  { label: string; icon: typeof Check; className: string }
> = {
  running: { label: 'Running', icon: Loader2, className: 'text-muted-foreground' },
  'awaiting-approval': {
    label: 'Waiting for your approval',
    icon: Hand,
    className: 'text-amber-600 dark:text-amber-400',
  },
  done: { label: 'Done', icon: Check, className: 'text-emerald-600 dark:text-emerald-400' },
  error: { label: 'Failed', icon: AlertTriangle, className: 'text-destructive' },
  denied: { label: 'Not allowed', icon: Ban, className: 'text-muted-foreground' },
};

/** Tool input and output are data: shown as JSON text, never rendered as markup. */
const asText = (value: unknown): string => {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
};

const Block = ({ title, value }: { title: string; value: string }) => (
  <div className="grid gap-1">
    <p className="text-xs font-medium text-muted-foreground">{title}</p>
    <pre className="max-h-64 overflow-auto rounded-md bg-muted/50 p-2 text-xs whitespace-pre-wrap [overflow-wrap:anywhere]">
      {value}
    </pre>
  </div>
);

/** A call waiting for the user: the answer given in this tab, and how to give one. */
export type ToolCallApproval = {
  decision: boolean | undefined;
  onDecide: (approved: boolean) => void;
  /** The answers went; the run is going on. */
  sending: boolean;
};

/**
 * One tool call of a reply: its name and status, with its arguments and result on demand. A call
 * waiting for approval shows its exact arguments open, with Approve and Refuse.
 */
export const ToolCallPart = ({
  call,
  approval,
}: {
  call: ToolCallView;
  approval?: ToolCallApproval | undefined;
}) => {
  const view = stateView[call.state];
  const Icon = view.icon;
  const input = asText(call.input);
  const output = asText(call.output);
  return (
    <details
      className={cn(
        'group/tool rounded-lg border bg-background/50 text-sm',
        approval && 'border-amber-500/60',
      )}
      data-tool={call.name}
      data-state={call.state}
      open={approval ? true : undefined}
    >
      <summary className="flex cursor-pointer list-none items-center gap-2 px-3 py-2 select-none">
        <ChevronRight
          aria-hidden="true"
          className="size-3.5 shrink-0 text-muted-foreground transition-transform group-open/tool:rotate-90"
        />
        <Wrench aria-hidden="true" className="size-3.5 shrink-0 text-muted-foreground" />
        <span className="font-mono text-xs font-medium">{call.name}</span>
        <span className={cn('ml-auto flex items-center gap-1 text-xs', view.className)}>
          <Icon
            aria-hidden="true"
            className={cn('size-3.5', call.state === 'running' && 'animate-spin')}
          />
          {view.label}
          {call.durationMs != null && call.state !== 'awaiting-approval' ? (
            <span className="text-muted-foreground"> · {formatDuration(call.durationMs)}</span>
          ) : null}
        </span>
      </summary>
      <div className="grid gap-2 border-t px-3 py-2">
        {input ? <Block title="Arguments" value={input} /> : null}
        {call.state === 'error' && call.errorText ? (
          <Block title="Error" value={call.errorText} />
        ) : null}
        {output ? <Block title="Result" value={output} /> : null}
        {!input && !output && call.state !== 'error' ? (
          <p className="text-xs text-muted-foreground">No arguments.</p>
        ) : null}
        {approval ? (
          <ApprovalActions name={call.name} scope={call.approvalScope} approval={approval} />
        ) : null}
      </div>
    </details>
  );
};

const formatDuration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

const ApprovalActions = ({
  name,
  scope,
  approval,
}: {
  name: string;
  /** What approving also covers, for a tool asked once per conversation. */
  scope: string | undefined;
  approval: ToolCallApproval;
}) => {
  const { decision, onDecide, sending } = approval;
  if (sending) {
    return (
      <p className="flex items-center gap-1.5 text-xs text-muted-foreground" role="status">
        <Loader2 aria-hidden="true" className="size-3.5 animate-spin" />
        {decision === false ? 'Refused; the agent goes on.' : 'Approved; the agent goes on.'}
      </p>
    );
  }
  if (decision !== undefined) {
    return (
      <p className="text-xs text-muted-foreground" role="status">
        {decision ? 'You approved this call.' : 'You refused this call.'} Answer the other waiting
        calls to let the agent go on.
      </p>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      <p className="mr-auto text-xs text-muted-foreground">
        The agent wants to run <span className="font-mono">{name}</span> with these arguments.
        {scope ? (
          <span className="mt-1 block text-amber-800 dark:text-amber-300">{scope}</span>
        ) : null}
      </p>
      <Button size="sm" variant="outline" onClick={() => onDecide(false)}>
        Refuse
      </Button>
      <Button size="sm" onClick={() => onDecide(true)}>
        Approve
      </Button>
    </div>
  );
};

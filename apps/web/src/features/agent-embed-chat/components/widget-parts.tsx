import { Bot, Sparkles, TriangleAlert } from 'lucide-react';
import type { Widget } from '@chorus/shared/api/widgets';
import { plural } from '@/components/forms/card-list';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { useUpdateWidget } from '../api/widgets';

/** "Agent: Travel planner", or that it was deleted and the widget answers no one (inline). */
export const TargetLine = ({ target }: { target: Widget['target'] }) => {
  const Icon = target.kind === 'agent' ? Bot : Sparkles;
  const kind = target.kind === 'agent' ? 'Agent' : 'Custom AI';
  if (target.name === null) {
    return (
      <span className="flex items-start gap-1 text-sm text-destructive">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
        <span>{kind}: deleted — visitors are told it is unavailable. Pick another in Edit.</span>
      </span>
    );
  }
  return (
    <span className="flex items-start gap-1 text-sm text-muted-foreground">
      <Icon aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
      <span className="min-w-0 break-words">
        {kind}: <span className="text-foreground">{target.name}</span>
      </span>
    </span>
  );
};

/** Said wherever a widget with no allowed origin is shown: no site can show it. */
export const noOriginWarning = 'No site can show it yet — add an allowed origin';

export const OriginsLine = ({ origins }: { origins: string[] }) =>
  origins.length === 0 ? (
    <p className="flex items-start gap-1 rounded-md border border-amber-500/40 bg-amber-500/10 px-2 py-1 text-xs">
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
      <span>{noOriginWarning}</span>
    </p>
  ) : (
    <p className="text-xs text-muted-foreground" title={origins.join('\n')}>
      {plural(origins.length, 'allowed origin', 'allowed origins')}
    </p>
  );

/** Tokens used against a budget, as a bar that turns red once it is spent. */
export const BudgetBar = ({
  label,
  used,
  budget,
}: {
  label: string;
  used: number;
  budget: number;
}) => {
  const share = budget > 0 ? Math.min(used / budget, 1) : 1;
  return (
    <div className="grid gap-1">
      <p className="flex justify-between gap-2 text-xs text-muted-foreground">
        <span>{label}</span>
        <span>
          {used.toLocaleString()} / {budget.toLocaleString()}
        </span>
      </p>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={budget}
        aria-valuenow={Math.min(used, budget)}
        className="h-1.5 overflow-hidden rounded-full bg-muted"
      >
        <div
          className={cn('h-full', share >= 1 ? 'bg-destructive' : 'bg-primary')}
          style={{ width: `${share * 100}%` }}
        />
      </div>
    </div>
  );
};

/** The widget on or off, saved at once: off, it answers no one. */
export const EnabledSwitch = ({ widget }: { widget: Widget }) => {
  const update = useUpdateWidget();
  const enabled = update.isPending
    ? (update.variables.patch.enabled ?? widget.enabled)
    : widget.enabled;
  return (
    <label className="inline-flex items-center gap-2 text-sm">
      <input
        type="checkbox"
        role="switch"
        className="size-4"
        checked={enabled}
        disabled={update.isPending}
        onChange={(event) => {
          const next = event.target.checked;
          update.mutate(
            { id: widget.id, patch: { enabled: next } },
            {
              onSuccess: () =>
                toast.success(next ? `“${widget.name}” is on` : `“${widget.name}” is off`),
              onError: (error) =>
                toast.error(`“${widget.name}” was not changed`, {
                  description: errorMessage(error),
                }),
            },
          );
        }}
      />
      Enabled
    </label>
  );
};

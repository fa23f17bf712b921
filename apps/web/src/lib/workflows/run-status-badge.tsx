import { cn } from '@/lib/utils';

const tones: Record<string, string> = {
  queued: 'border-muted-foreground/30 text-muted-foreground',
  pending: 'border-muted-foreground/30 text-muted-foreground',
  running: 'border-sky-500/40 bg-sky-500/10 text-sky-700 dark:text-sky-300',
  complete: 'border-emerald-500/40 bg-emerald-500/10 text-emerald-700 dark:text-emerald-300',
  done: 'border-emerald-500/40 bg-emerald-500/10 text-emerald-700 dark:text-emerald-300',
  failed: 'border-destructive/40 bg-destructive/10 text-destructive',
  stopped: 'border-amber-500/40 bg-amber-500/10 text-amber-700 dark:text-amber-300',
  cancelled: 'border-amber-500/40 bg-amber-500/10 text-amber-700 dark:text-amber-300',
  skipped: 'border-muted-foreground/30 text-muted-foreground',
};

const labels: Record<string, string> = {
  queued: 'Queued',
  pending: 'Waiting',
  running: 'Running',
  complete: 'Complete',
  done: 'Done',
  failed: 'Failed',
  stopped: 'Stopped for approval',
  cancelled: 'Cancelled',
  skipped: 'Skipped',
};

export const runStatusLabel = (status: string): string => labels[status] ?? status;

/** The status of a run, a step or an occurrence, in words with a colour that matches. */
export const RunStatusBadge = ({ status, className }: { status: string; className?: string }) => (
  <span
    className={cn(
      'inline-flex shrink-0 items-center rounded-full border px-2 py-0.5 text-xs font-medium',
      tones[status],
      className,
    )}
  >
    {runStatusLabel(status)}
  </span>
);

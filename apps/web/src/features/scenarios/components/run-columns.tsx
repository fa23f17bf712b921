import { AlertCircle, BookmarkPlus, Trophy } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { formatDuration, formatTokens, formatUsd } from '../utils/format-run';
import { modelLabel, providerLabel } from '../utils/model-label';
import type { ColumnStatus, RunColumn } from '../utils/run-state';
import { StarRating } from './star-rating';

const statusText: Record<ColumnStatus, string> = {
  waiting: 'Waiting',
  streaming: 'Writing…',
  done: 'Done',
  failed: 'Failed',
  stopped: 'Stopped',
};

const statusClass: Record<ColumnStatus, string> = {
  waiting: 'bg-muted text-muted-foreground',
  streaming: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-100',
  done: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
  failed: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100',
  stopped: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
};

/** The codes whose fix is on the API keys page. */
const needsKey = (code: string) => code.startsWith('keys:') || code === 'provider:auth';

export type ColumnActions = {
  onRate: (rating: number | null) => void;
  onToggleWinner: () => void;
  onSaveTestCase: () => void;
  busy: boolean;
};

const Figure = ({ label, value }: { label: string; value: string }) => (
  <div className="flex items-baseline justify-between gap-3">
    <dt className="text-muted-foreground">{label}</dt>
    <dd className="font-medium tabular-nums">{value}</dd>
  </div>
);

const dash = '—';

const Figures = ({ column }: { column: RunColumn }) => (
  <dl className="grid gap-1 border-t pt-3 text-xs">
    <Figure
      label="First token"
      value={column.ttftMs === null ? dash : formatDuration(column.ttftMs)}
    />
    <Figure
      label="Total time"
      value={column.latencyMs === null ? dash : formatDuration(column.latencyMs)}
    />
    <Figure
      label="Cost"
      value={
        column.costUsd === null
          ? column.status === 'done'
            ? 'unknown'
            : dash
          : formatUsd(column.costUsd)
      }
    />
    <Figure
      label="Input tokens"
      value={column.inputTokens === null ? dash : formatTokens(column.inputTokens)}
    />
    <Figure
      label="Output tokens"
      value={column.outputTokens === null ? dash : formatTokens(column.outputTokens)}
    />
  </dl>
);

const ColumnCard = ({
  column,
  winner,
  actions,
}: {
  column: RunColumn;
  winner: boolean;
  actions: ColumnActions | undefined;
}) => {
  const name = `${providerLabel(column.provider)} · ${modelLabel(column.provider, column.model)}`;
  return (
    <li
      aria-label={name}
      data-status={column.status}
      className={cn(
        'flex w-[85%] shrink-0 grow snap-start flex-col gap-3 rounded-xl border bg-card p-4 shadow-sm @xl:w-[calc(50%-0.5rem)] @4xl:w-[calc((100%-2rem)/3)] @5xl:w-[calc((100%-3rem)/4)]',
        winner && 'border-amber-500 ring-2 ring-amber-400/40',
      )}
    >
      <header className="grid gap-1">
        <div className="flex items-start justify-between gap-2">
          <p className="min-w-0">
            <span className="block text-sm font-semibold">{providerLabel(column.provider)}</span>
            <span className="block truncate text-xs text-muted-foreground">
              {modelLabel(column.provider, column.model)}
            </span>
          </p>
          <span
            className={cn(
              'shrink-0 rounded px-1.5 py-0.5 text-xs font-medium',
              statusClass[column.status],
            )}
          >
            {statusText[column.status]}
          </span>
        </div>
        {winner ? (
          <p className="flex items-center gap-1 text-xs font-medium text-amber-700 dark:text-amber-400">
            <Trophy aria-hidden="true" className="size-3.5" /> Winner
          </p>
        ) : null}
      </header>
      {column.error ? (
        <div className="flex gap-2 rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive">
          <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <p>
            {column.error.message}{' '}
            {needsKey(column.error.code) ? (
              <Link to="/copy-api-keys" className="font-medium underline underline-offset-4">
                Open API keys
              </Link>
            ) : null}
          </p>
        </div>
      ) : null}
      <div data-role="answer" className="min-h-16 flex-1 text-sm break-words whitespace-pre-wrap">
        {column.text ||
          (column.status === 'waiting' || column.status === 'streaming' ? (
            <span className="text-muted-foreground">Waiting for the first words…</span>
          ) : column.error ? null : (
            <span className="text-muted-foreground">No text.</span>
          ))}
      </div>
      {column.status === 'waiting' ||
      (column.error && column.latencyMs === null && column.outputTokens === null) ? null : (
        <Figures column={column} />
      )}
      {actions && !(column.error && column.text === '') ? (
        <div className="grid gap-2 border-t pt-3">
          <StarRating
            label={`Rating of ${name}`}
            value={column.rating}
            disabled={actions.busy}
            onChange={actions.onRate}
          />
          <div className="flex flex-wrap gap-2">
            <Button
              variant={winner ? 'default' : 'outline'}
              size="sm"
              aria-pressed={winner}
              disabled={actions.busy || column.error !== null}
              onClick={actions.onToggleWinner}
            >
              <Trophy aria-hidden="true" />
              {winner ? 'Winner' : 'Pick as winner'}
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={actions.busy || column.error !== null || column.text === ''}
              onClick={actions.onSaveTestCase}
            >
              <BookmarkPlus aria-hidden="true" /> Save as test case
            </Button>
          </div>
        </div>
      ) : null}
    </li>
  );
};

type RunColumnsProps = {
  columns: RunColumn[];
  winner: number | null;
  /** Rating, winner and test case for column `i`; none while the run still runs. */
  actionsFor?: ((index: number) => ColumnActions) | undefined;
};

/** How many columns fit beside each other, by the width the columns get (container queries). */
const hiddenWhenAllFit: Record<number, string> = {
  2: '@xl:hidden',
  3: '@4xl:hidden',
  4: '@5xl:hidden',
};

/**
 * One column per model, side by side: one in view and scrolled sideways on a phone, then 2, 3 or
 * 4 as the page is wider. Sized by the columns' own width, not the window's: the sidebar takes a
 * share of the window on a tablet.
 */
export const RunColumns = ({ columns, winner, actionsFor }: RunColumnsProps) => (
  <div className="@container grid gap-2">
    {columns.length > 1 ? (
      <p className={cn('text-xs text-muted-foreground', hiddenWhenAllFit[columns.length])}>
        {columns.length} columns: scroll sideways to see them all.
      </p>
    ) : null}
    <div
      role="region"
      aria-label="Answers side by side"
      // In the tab order: a keyboard must be able to scroll the columns sideways.
      tabIndex={0}
      className="-mx-1 overflow-x-auto px-1 pb-2 outline-none focus-visible:ring-2 focus-visible:ring-ring/50"
    >
      <ol aria-label="Answers" className="flex snap-x gap-4">
        {columns.map((column, i) => (
          <ColumnCard key={i} column={column} winner={winner === i} actions={actionsFor?.(i)} />
        ))}
      </ol>
    </div>
  </div>
);

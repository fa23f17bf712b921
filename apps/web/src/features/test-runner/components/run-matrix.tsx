import type { TestCell, TestRunMatrix, TestTargetTotals } from '@chorus/shared/api/test-runs';
import { formatCostUsd, formatDuration, formatTokens } from '@/lib/workflows/run-format';
import { cn } from '@/lib/utils';
import { formatPassRate, passTone, runOf, targetLabel, targetName } from './run-format';

export type OpenCell = { caseId: string; target: number };

/** "2 of 3 passed, 1 error, regressed": what a cell says to a screen reader. */
export const cellSummary = (cell: TestCell): string => {
  const parts = [`${cell.passed} of ${cell.runs} passed`];
  if (cell.errors > 0) parts.push(`${cell.errors} ${cell.errors === 1 ? 'error' : 'errors'}`);
  if (cell.change === 'regressed' || cell.change === 'improved') parts.push(cell.change);
  return parts.join(', ');
};

/** A badge that says in words, not colour alone, how a cell moved against the compared run. */
export const ChangeBadge = ({ cell }: { cell: TestCell }) => {
  if (cell.change !== 'regressed' && cell.change !== 'improved') return null;
  const regressed = cell.change === 'regressed';
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full border px-1.5 py-0.5 text-[11px] font-semibold',
        regressed
          ? 'border-destructive/50 bg-destructive/10 text-destructive'
          : 'border-emerald-600/50 bg-emerald-500/10 text-emerald-800 dark:text-emerald-300',
      )}
    >
      <span aria-hidden="true">{regressed ? '▼' : '▲'}</span>
      {regressed ? 'Regressed' : 'Improved'}
      {cell.previous_pass_rate !== null ? (
        <span className="font-normal">(was {formatPassRate(cell.previous_pass_rate)})</span>
      ) : null}
    </span>
  );
};

const Stats = ({
  p50,
  p95,
  input,
  output,
  cost,
}: {
  p50: number | null;
  p95: number | null;
  input: number;
  output: number;
  cost: number | null;
}) => (
  <span className="grid gap-0.5 text-[11px] leading-tight text-muted-foreground">
    <span>
      p50 {formatDuration(p50)} · p95 {formatDuration(p95)}
    </span>
    <span>{formatTokens(input, output)}</span>
    <span>{formatCostUsd(cost)}</span>
  </span>
);

const CellView = ({
  cell,
  label,
  onOpen,
}: {
  cell: TestCell | undefined;
  label: string;
  onOpen: () => void;
}) => {
  if (!cell || cell.runs === 0) {
    return <span className="text-xs text-muted-foreground">Not run yet</span>;
  }
  const regressed = cell.change === 'regressed';
  const improved = cell.change === 'improved';
  return (
    <button
      type="button"
      aria-label={`${label}: ${cellSummary(cell)}`}
      onClick={onOpen}
      className={cn(
        'grid w-full gap-1 rounded-md border p-2 text-left transition-colors outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50',
        regressed && 'border-destructive ring-1 ring-destructive',
        improved && 'border-emerald-600 ring-1 ring-emerald-600',
      )}
    >
      <span className="flex flex-wrap items-center gap-1.5">
        <span
          className={cn(
            'rounded border px-1.5 py-0.5 text-sm font-semibold tabular-nums',
            passTone(cell.passed, cell.runs),
          )}
        >
          {cell.passed}/{cell.runs}
        </span>
        {cell.errors > 0 ? (
          <span className="text-[11px] text-destructive">
            {cell.errors} {cell.errors === 1 ? 'error' : 'errors'}
          </span>
        ) : null}
        <ChangeBadge cell={cell} />
      </span>
      <Stats
        p50={cell.latency_p50_ms}
        p95={cell.latency_p95_ms}
        input={cell.input_tokens}
        output={cell.output_tokens}
        cost={cell.cost_usd}
      />
    </button>
  );
};

const TotalsView = ({ totals }: { totals: TestTargetTotals | undefined }) => {
  if (!totals || totals.runs === 0) return <span className="text-xs text-muted-foreground">—</span>;
  return (
    <span className="grid gap-1">
      <span className="flex items-center gap-1.5">
        <span
          className={cn(
            'rounded border px-1.5 py-0.5 text-sm font-semibold tabular-nums',
            passTone(totals.passed, totals.runs),
          )}
        >
          {totals.passed}/{totals.runs}
        </span>
        <span className="text-xs">{formatPassRate(totals.pass_rate)}</span>
        {totals.errors > 0 ? (
          <span className="text-[11px] text-destructive">
            {totals.errors} {totals.errors === 1 ? 'error' : 'errors'}
          </span>
        ) : null}
      </span>
      <Stats
        p50={totals.latency_p50_ms}
        p95={totals.latency_p95_ms}
        input={totals.input_tokens}
        output={totals.output_tokens}
        cost={totals.cost_usd}
      />
    </span>
  );
};

/**
 * Cases down, models across: each cell's pass rate over its repeats, speed, tokens and cost,
 * marked when it regressed or improved against the compared run; totals per model at the foot.
 */
export const RunMatrix = ({
  matrix,
  onOpenCell,
}: {
  matrix: TestRunMatrix;
  onOpenCell: (cell: OpenCell) => void;
}) => {
  const targets = matrix.run.targets;
  const cells = new Map(matrix.cells.map((cell) => [`${cell.case_id}:${cell.target}`, cell]));
  const totals = new Map(matrix.totals.map((t) => [t.target, t]));
  return (
    <div className="overflow-x-auto rounded-lg border">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">
          Results: one row per case, one column per model
          {matrix.compared_to ? `, compared with the ${runOf(matrix.compared_to)}` : ''}
        </caption>
        <thead className="bg-muted/50 text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Case
            </th>
            {targets.map((target, index) => (
              <th
                key={`${target.provider}:${target.model}:${index}`}
                scope="col"
                className="min-w-44 px-3 py-2 font-medium"
              >
                {targetLabel(target)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y">
          {matrix.cases.map((testCase) => (
            <tr key={testCase.id}>
              <th scope="row" className="max-w-60 px-3 py-2 align-top font-medium break-words">
                {testCase.name}
                <span className="block text-xs font-normal text-muted-foreground">
                  {testCase.assertions.length === 1
                    ? '1 assertion'
                    : `${testCase.assertions.length} assertions`}
                </span>
              </th>
              {targets.map((target, index) => (
                <td key={index} className="px-3 py-2 align-top">
                  <CellView
                    cell={cells.get(`${testCase.id}:${index}`)}
                    label={`${testCase.name} on ${targetName(target)}`}
                    onOpen={() => onOpenCell({ caseId: testCase.id, target: index })}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t-2 bg-muted/30">
          <tr>
            <th scope="row" className="px-3 py-2 align-top font-semibold">
              Totals
            </th>
            {targets.map((target, index) => (
              <td
                key={index}
                aria-label={`Totals on ${targetName(target)}`}
                className="px-3 py-2 align-top"
              >
                <TotalsView totals={totals.get(index)} />
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </div>
  );
};

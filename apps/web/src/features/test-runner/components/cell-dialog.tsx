import type { TestCell, TestResult, TestRunMatrix } from '@chorus/shared/api/test-runs';
import { CodeBlock } from '@/components/forms/json-call-form';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/utils';
import { formatCostUsd, formatDuration, formatTokens } from '@/lib/workflows/run-format';
import { useTestResults } from '../api/test-runs';
import { ChangeBadge, type OpenCell } from './run-matrix';
import { assertionTypeLabels, formatPassRate, targetLabel } from './run-format';

const Verdict = ({ passed }: { passed: boolean }) => (
  <span
    className={cn(
      'inline-flex rounded-full border px-2 py-0.5 text-xs font-medium',
      passed
        ? 'border-emerald-500/40 bg-emerald-500/10 text-emerald-800 dark:text-emerald-300'
        : 'border-destructive/40 bg-destructive/10 text-destructive',
    )}
  >
    {passed ? 'Passed' : 'Failed'}
  </span>
);

/** Each assertion over the cell's repeats: how many passed, and the last failure's reason. */
const AssertionTotals = ({ cell }: { cell: TestCell }) =>
  cell.assertions.length === 0 ? (
    <p className="text-sm text-muted-foreground">
      This case has no assertions: an answer passes when the model gives one.
    </p>
  ) : (
    <ul aria-label="Assertions over all repeats" className="grid gap-1 text-sm">
      {cell.assertions.map((assertion, index) => (
        <li key={index} className="flex flex-wrap items-baseline gap-2">
          <span className="font-medium">{assertionTypeLabels[assertion.type]}</span>
          <span className="tabular-nums">
            {assertion.passed} of {assertion.total} passed
          </span>
          {assertion.reason ? (
            <span className="text-xs text-muted-foreground">Last failure: {assertion.reason}</span>
          ) : null}
        </li>
      ))}
    </ul>
  );

const ResultView = ({ result, index }: { result: TestResult; index: number }) => (
  <li
    aria-label={`Repeat ${index + 1}: ${result.passed ? 'passed' : 'failed'}`}
    className="grid gap-2 rounded-lg border p-3"
  >
    <div className="flex flex-wrap items-center gap-2">
      <h3 className="text-sm font-semibold">Repeat {index + 1}</h3>
      <Verdict passed={result.passed} />
      <span className="text-xs text-muted-foreground">
        {formatDuration(result.latency_ms)} ·{' '}
        {formatTokens(result.input_tokens, result.output_tokens)} · {formatCostUsd(result.cost_usd)}
      </span>
    </div>
    <details>
      <summary className="cursor-pointer text-xs font-medium text-muted-foreground">
        Input sent
      </summary>
      <CodeBlock label={`Input of repeat ${index + 1}`} className="mt-1">
        {result.input}
      </CodeBlock>
    </details>
    <div className="grid gap-1">
      <p className="text-xs font-medium text-muted-foreground">Output</p>
      <CodeBlock label={`Output of repeat ${index + 1}`} className="max-h-80">
        {result.output || '(no answer)'}
      </CodeBlock>
    </div>
    {result.error ? (
      <p role="alert" className="text-sm text-destructive">
        The call failed: {result.error}
      </p>
    ) : null}
    {result.assertions.length > 0 ? (
      <ul aria-label={`Assertions of repeat ${index + 1}`} className="grid gap-1 text-sm">
        {result.assertions.map((assertion, i) => (
          <li key={i} className="flex flex-wrap items-baseline gap-2">
            <Verdict passed={assertion.passed} />
            <span className="font-medium">{assertionTypeLabels[assertion.type]}</span>
            {assertion.score !== null ? (
              <span className="text-xs tabular-nums">score {assertion.score.toFixed(2)}</span>
            ) : null}
            <span className="text-xs break-words text-muted-foreground">{assertion.reason}</span>
          </li>
        ))}
      </ul>
    ) : null}
  </li>
);

const CellBody = ({
  runId,
  open,
  cell,
  onClose,
}: {
  runId: string;
  open: OpenCell;
  cell: TestCell | undefined;
  onClose: () => void;
}) => {
  const results = useTestResults(runId, open);
  let body;
  if (results.isPending) body = <Spinner label="Loading the answers" />;
  else if (results.isError) {
    body = (
      <p role="alert" className="text-sm text-destructive">
        The answers could not be loaded: {errorMessage(results.error)} Close this and try again.
      </p>
    );
  } else if (results.data.items.length === 0) {
    body = <p className="text-sm text-muted-foreground">No answers yet: this cell has not run.</p>;
  } else {
    const sorted = [...results.data.items].sort((a, b) => a.repeat - b.repeat);
    body = (
      <ol aria-label="Repeats" className="grid gap-3">
        {sorted.map((result, index) => (
          <ResultView key={result.id} result={result} index={index} />
        ))}
      </ol>
    );
  }
  return (
    <div className="grid gap-4">
      {cell ? (
        <section
          aria-label="Summary of this cell"
          className="grid gap-2 rounded-md bg-muted/30 p-3"
        >
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-semibold tabular-nums">
              {cell.passed} of {cell.runs} passed ({formatPassRate(cell.pass_rate)})
            </span>
            {cell.errors > 0 ? (
              <span className="text-destructive">
                {cell.errors} {cell.errors === 1 ? 'call' : 'calls'} failed
              </span>
            ) : null}
            <ChangeBadge cell={cell} />
          </p>
          <AssertionTotals cell={cell} />
        </section>
      ) : null}
      <div className="max-h-[60vh] overflow-y-auto">{body}</div>
      <div className="flex justify-end">
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
      </div>
    </div>
  );
};

/** Every repeat of one cell in full: what was sent, the answer as text, and each verdict. */
export const CellDialog = ({
  runId,
  matrix,
  open,
  onClose,
}: {
  runId: string;
  matrix: TestRunMatrix | undefined;
  open: OpenCell | null;
  onClose: () => void;
}) => {
  const testCase = open ? matrix?.cases.find((c) => c.id === open.caseId) : undefined;
  const target = open ? matrix?.run.targets[open.target] : undefined;
  const cell = open
    ? matrix?.cells.find((c) => c.case_id === open.caseId && c.target === open.target)
    : undefined;
  const title =
    testCase && target ? `${testCase.name} on ${targetLabel(target)}` : 'Answers of this cell';
  return (
    <Dialog open={open !== null} title={title} onClose={onClose} className="max-w-3xl">
      {open ? (
        <CellBody
          key={`${open.caseId}:${open.target}`}
          runId={runId}
          open={open}
          cell={cell}
          onClose={onClose}
        />
      ) : null}
    </Dialog>
  );
};

import type { WorkflowStepRun } from '@chorus/shared/api/workflows';
import {
  formatCostUsd,
  formatDuration,
  formatTokens,
  outputText,
} from '@/lib/workflows/run-format';
import { RunStatusBadge } from '@/lib/workflows/run-status-badge';
import { stepKindLabels } from './workflow-draft';

/** A step's live elapsed time while it runs; its recorded duration once it ends. */
const durationOf = (step: WorkflowStepRun, now: number | null) => {
  if (step.duration_ms !== null) return step.duration_ms;
  if (now !== null && step.status === 'running' && step.started_at)
    return now - Date.parse(step.started_at);
  return null;
};

/** What each step of a run did: status, output (as text, never HTML), tokens, cost, time. */
export const StepRunList = ({
  steps,
  label = 'Steps',
  now = null,
}: {
  steps: WorkflowStepRun[];
  label?: string;
  /** The clock for the elapsed time of a step still running; null shows none. */
  now?: number | null;
}) => (
  <ol aria-label={label} className="grid gap-2">
    {steps.map((step, index) => {
      const output = outputText(step.output);
      const duration = durationOf(step, now);
      return (
        <li
          key={step.step_id}
          aria-label={`Step ${index + 1}: ${step.name || step.step_id}`}
          className="grid gap-2 rounded-lg border p-3"
        >
          <div className="flex flex-wrap items-center gap-2">
            <p className="min-w-0 flex-1 text-sm font-medium break-words">
              {index + 1}. {step.name || step.step_id}{' '}
              <span className="font-normal text-muted-foreground">
                · {stepKindLabels[step.kind]} · <code>{step.step_id}</code>
              </span>
            </p>
            <RunStatusBadge status={step.status} />
          </div>
          <p className="flex flex-wrap gap-x-3 text-xs text-muted-foreground">
            <span>Tokens: {formatTokens(step.input_tokens, step.output_tokens)}</span>
            <span>Cost: {formatCostUsd(step.cost_usd)}</span>
            <span>Time: {formatDuration(duration)}</span>
          </p>
          {step.error ? <p className="text-sm break-words text-destructive">{step.error}</p> : null}
          {output ? (
            <pre
              aria-label={`Output of step ${index + 1}`}
              className="max-h-64 overflow-auto rounded-md bg-muted/50 p-2 text-xs break-words whitespace-pre-wrap"
            >
              {output}
            </pre>
          ) : null}
        </li>
      );
    })}
  </ol>
);

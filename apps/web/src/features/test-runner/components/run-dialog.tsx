import { Play, Plus, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  startTestRunSchema,
  testRunLimits,
  type StartTestRun,
  type TestRunEstimate,
  type TestSet,
  type TestTarget,
} from '@chorus/shared/api/test-runs';
import { providers, type ProviderId } from '@chorus/shared/providers';
import { plural } from '@/components/forms/card-list';
import { Field } from '@/components/forms/field';
import { ModelSelect, ProviderSelect } from '@/components/persona/persona-fields';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { helpLinks } from '@/lib/help-links';
import { defaultAiProvider, providerName } from '@/lib/providers';
import { formatCostUsd } from '@/lib/workflows/run-format';
import { useStartTestRun, useTestRunEstimate } from '../api/test-runs';
import { useUpdateTestSet } from '../api/test-sets';
import { concreteModel, linkClass } from './run-format';

type TargetRow = { key: number; provider: ProviderId; model: string };

let nextKey = 0;
const rowOf = (target: { provider: ProviderId; model: string }): TargetRow => ({
  key: (nextKey += 1),
  ...target,
});

/** A value that follows `value` once it has stopped changing for `ms`. */
const useSettled = <T,>(value: T, ms: number): T => {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
};

const TargetsEditor = ({
  rows,
  onChange,
}: {
  rows: TargetRow[];
  onChange: (rows: TargetRow[]) => void;
}) => (
  <fieldset className="grid gap-2">
    <legend className="mb-1 text-sm font-medium">Models to run on</legend>
    <ol className="grid gap-2">
      {rows.map((row, index) => (
        <li key={row.key}>
          <fieldset
            aria-label={`Target ${index + 1}`}
            className="grid items-end gap-2 rounded-md border p-2 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto]"
          >
            <Field label="Provider">
              {({ id, describedBy }) => (
                <ProviderSelect
                  id={id}
                  describedBy={describedBy}
                  provider={row.provider}
                  onChange={(provider) =>
                    onChange(
                      rows.map((r, i) =>
                        i === index
                          ? { ...r, provider, model: providers[provider].defaultModel }
                          : r,
                      ),
                    )
                  }
                />
              )}
            </Field>
            <Field label="Model">
              {({ id }) => (
                <ModelSelect
                  id={id}
                  provider={row.provider}
                  model={row.model}
                  onChange={(model) =>
                    onChange(rows.map((r, i) => (i === index ? { ...r, model } : r)))
                  }
                />
              )}
            </Field>
            <Button
              variant="ghost"
              size="icon"
              className="text-muted-foreground"
              aria-label={`Remove target ${index + 1}`}
              title="Remove"
              disabled={rows.length === 1}
              onClick={() => onChange(rows.filter((_, i) => i !== index))}
            >
              <Trash2 aria-hidden="true" />
            </Button>
          </fieldset>
        </li>
      ))}
    </ol>
    <div>
      <Button
        variant="outline"
        size="sm"
        disabled={rows.length >= testRunLimits.targets}
        onClick={() => {
          const last = rows.at(-1);
          const provider = last?.provider ?? defaultAiProvider;
          onChange([...rows, rowOf({ provider, model: providers[provider].defaultModel })]);
        }}
      >
        <Plus aria-hidden="true" /> Add model
      </Button>
      <span className="ml-2 text-xs text-muted-foreground">
        Up to {testRunLimits.targets} models, side by side.
      </span>
    </div>
  </fieldset>
);

const EstimateView = ({
  estimate,
  pending,
  error,
}: {
  estimate: TestRunEstimate | undefined;
  pending: boolean;
  error: unknown;
}) => {
  let body;
  if (error) {
    body = (
      <p role="alert" className="text-destructive">
        No estimate: {errorMessage(error)}
      </p>
    );
  } else if (!estimate) {
    body = <Spinner className="size-5" label="Estimating the run" />;
  } else {
    const calls = estimate.calls + estimate.judge_calls;
    const short = estimate.prompts_left_today !== null && calls > estimate.prompts_left_today;
    body = (
      <>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-muted-foreground">Model calls</dt>
          <dd>
            {estimate.calls.toLocaleString()}
            {estimate.judge_calls > 0
              ? ` + ${plural(estimate.judge_calls, 'judge call', 'judge calls')}`
              : ''}
          </dd>
          <dt className="text-muted-foreground">Estimated cost</dt>
          <dd>
            {estimate.estimated_cost_usd === null
              ? 'Unknown: no price listed for these models'
              : `about ${formatCostUsd(estimate.estimated_cost_usd)}`}
          </dd>
          <dt className="text-muted-foreground">Tokens</dt>
          <dd>
            about {estimate.estimated_input_tokens.toLocaleString()} in ·{' '}
            {estimate.estimated_output_tokens.toLocaleString()} out
          </dd>
          <dt className="text-muted-foreground">Prompts left today</dt>
          <dd>
            {estimate.prompts_left_today === null
              ? 'No daily limit on your plan'
              : estimate.prompts_left_today.toLocaleString()}
          </dd>
        </dl>
        {short ? (
          <p
            role="note"
            className="rounded-md border border-amber-500/40 bg-amber-500/10 p-2 text-xs"
          >
            This run needs more prompts than your plan has left today: it will stop when they run
            out. Pick fewer models or repeats, or{' '}
            <Link to={helpLinks.dailyLimit} className={linkClass}>
              read about the daily limit
            </Link>
            .
          </p>
        ) : null}
        {estimate.missing_keys.length > 0 ? (
          <p
            role="note"
            className="rounded-md border border-amber-500/40 bg-amber-500/10 p-2 text-xs"
          >
            You have no key for {estimate.missing_keys.map(providerName).join(', ')}: those calls
            will fail until you{' '}
            <Link to="/copy-api-keys" className={linkClass}>
              add one on the API keys page
            </Link>
            .
          </p>
        ) : null}
      </>
    );
  }
  return (
    <section
      aria-label="Estimate"
      aria-live="polite"
      aria-busy={pending || undefined}
      className="grid gap-2 rounded-md border bg-muted/30 p-3 text-sm"
    >
      <h3 className="text-sm font-semibold">Before you start</h3>
      {body}
    </section>
  );
};

const sameTargets = (a: TestTarget[], b: TestTarget[]) =>
  a.length === b.length &&
  a.every((t, i) => t.provider === b[i]?.provider && t.model === b[i]?.model);

const RunForm = ({
  set,
  onStarted,
  onCancel,
}: {
  set: TestSet;
  onStarted: (runId: string) => void;
  onCancel: () => void;
}) => {
  const [rows, setRows] = useState<TargetRow[]>(() =>
    set.targets.length > 0
      ? set.targets.map(rowOf)
      : [rowOf({ provider: defaultAiProvider, model: providers[defaultAiProvider].defaultModel })],
  );
  const [repeats, setRepeats] = useState(String(set.repeats || 1));
  const [failure, setFailure] = useState<string | null>(null);
  const start = useStartTestRun();
  const remember = useUpdateTestSet();

  const parsed = useMemo(
    () =>
      startTestRunSchema.safeParse({
        test_set_id: set.id,
        targets: rows.map((row) => ({
          provider: row.provider,
          model: concreteModel(row.provider, row.model),
        })),
        repeats: Number(repeats),
      }),
    [set.id, rows, repeats],
  );
  const body: StartTestRun | null = parsed.success ? parsed.data : null;
  const settled = useSettled(body, 300);
  const estimate = useTestRunEstimate(settled);
  const repeatsError =
    parsed.success || !parsed.error.issues.some((issue) => issue.path[0] === 'repeats')
      ? undefined
      : `From 1 to ${testRunLimits.repeats}`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!body) {
      setFailure(parsed.error?.issues[0]?.message ?? 'Check the models and repeats');
      return;
    }
    start.mutate(body, {
      onSuccess: (run) => {
        // The next run of this set offers the same models first.
        if (!sameTargets(set.targets, body.targets) || set.repeats !== body.repeats) {
          remember.mutate({ id: set.id, patch: { targets: body.targets, repeats: body.repeats } });
        }
        onStarted(run.id);
      },
      onError: (error) => setFailure(`The run did not start: ${errorMessage(error)}`),
    });
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={submit}>
      <TargetsEditor rows={rows} onChange={setRows} />
      <Field
        label="Repeats"
        error={repeatsError}
        hint="Each case runs this many times on each model, to see how stable its answers are."
      >
        {({ id, describedBy, invalid }) => (
          <Input
            id={id}
            type="number"
            min={1}
            max={testRunLimits.repeats}
            className="w-24"
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            value={repeats}
            onChange={(event) => setRepeats(event.target.value)}
          />
        )}
      </Field>
      <p className="text-sm text-muted-foreground">
        {plural(set.case_count, 'case', 'cases')} × {plural(rows.length, 'model', 'models')} ×{' '}
        {plural(Number(repeats) || 0, 'repeat', 'repeats')}, on your own keys. The run goes on in
        the background; you can leave this page.
      </p>
      <EstimateView
        estimate={estimate.data}
        pending={estimate.isFetching}
        error={body ? estimate.error : null}
      />
      <FormActions
        error={failure}
        onCancel={onCancel}
        submitDisabled={start.isPending || !body}
        submitLabel={
          <>
            <Play aria-hidden="true" /> {start.isPending ? 'Starting…' : 'Start run'}
          </>
        }
      />
    </form>
  );
};

/** Picks the models and repeats, shows what the run would cost, then starts it. */
export const RunDialog = ({
  set,
  open,
  onStarted,
  onClose,
}: {
  set: TestSet;
  open: boolean;
  onStarted: (runId: string) => void;
  onClose: () => void;
}) => (
  <Dialog open={open} title={`Run “${set.name}”`} onClose={onClose} className="max-w-2xl">
    {open ? <RunForm set={set} onStarted={onStarted} onCancel={onClose} /> : null}
  </Dialog>
);

import { useQueryClient } from '@tanstack/react-query';
import { Pencil, Play, RotateCcw, Square } from 'lucide-react';
import { useEffect, useReducer, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Scenario, ScenarioRun, ScenarioRunRequest } from '@chorus/shared/api/scenarios';
import { missingVariables } from '@chorus/shared/template';
import { Button } from '@/components/ui/button';
import { LinkButton } from '@/components/ui/link-button';
import { PageHeader } from '@/components/ui/page-header';
import { CenteredSpinner } from '@/components/ui/spinner';
import { errorMessage, isApiError } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useScenarioDetail } from '../api/get-scenario';
import { scenariosQueryKey } from '../api/get-scenarios';
import { useScenarioRun } from '../api/get-scenario-run';
import { useRateScenarioRun } from '../api/rate-scenario-run';
import { runScenario } from '../api/run-scenario';
import { useSaveTestCase } from '../api/save-test-case';
import { parseFieldErrors, type FieldErrors } from '../utils/field-errors';
import {
  columnFromResult,
  idleRun,
  progressText,
  runReducer,
  type RunPhase,
} from '../utils/run-state';
import { draftFromRun, draftFromScenario, draftToSetup, emptyDraft } from '../utils/setup-draft';
import { CostEstimatePanel } from './cost-estimate-panel';
import { RunColumns, type ColumnActions } from './run-columns';
import { SetupFields } from './setup-fields';

const streamCutMessage =
  'The connection ended before the run finished. What arrived is shown; open the run again later to see what the server kept.';

const storedPhase = (run: ScenarioRun): RunPhase =>
  run.status === 'running' ? 'streaming' : run.status === 'interrupted' ? 'stopped' : 'done';

/** Rating, winner and "Save as test case" for the columns of a saved run. */
const useColumnActions = (run: ScenarioRun) => {
  const rate = useRateScenarioRun();
  const save = useSaveTestCase();
  const failed = (what: string) => (error: unknown) =>
    toast.error(what, { description: errorMessage(error) });
  return (index: number): ColumnActions => ({
    busy: save.isPending,
    onRate: (rating) =>
      rate.mutate(
        {
          runId: run.id,
          body: { ratings: run.results.map((r, i) => (i === index ? rating : r.rating)) },
        },
        { onError: failed('The rating was not saved') },
      ),
    onToggleWinner: () =>
      rate.mutate(
        { runId: run.id, body: { winner: run.winner === index ? null : index } },
        { onError: failed('The winner was not saved') },
      ),
    onSaveTestCase: () =>
      save.mutate(
        { runId: run.id, target: index },
        {
          onSuccess: () => toast.success('Saved as a test case'),
          onError: failed('The test case was not saved'),
        },
      ),
  });
};

const SavedRunColumns = ({ run }: { run: ScenarioRun }) => {
  const actionsFor = useColumnActions(run);
  const finished = run.status !== 'running';
  return (
    <RunColumns
      columns={run.results.map((result) => columnFromResult(result, finished))}
      winner={run.winner}
      actionsFor={finished ? actionsFor : undefined}
    />
  );
};

const SentPrompt = ({ run }: { run: ScenarioRun }) => (
  <details className="rounded-lg border p-3 text-sm">
    <summary className="cursor-pointer font-medium">The prompt as sent</summary>
    <div className="mt-3 grid gap-3">
      {run.system_prompt ? (
        <div>
          <p className="text-xs text-muted-foreground">System prompt</p>
          <p className="break-words whitespace-pre-wrap">{run.system_prompt}</p>
        </div>
      ) : null}
      <div>
        <p className="text-xs text-muted-foreground">Prompt</p>
        <p className="break-words whitespace-pre-wrap">{run.user_prompt}</p>
      </div>
    </div>
  </details>
);

const RunWorkspace = ({ scenario }: { scenario: Scenario | undefined }) => {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const runId = params.get('run');
  const [draft, setDraft] = useState(() => (scenario ? draftFromScenario(scenario) : emptyDraft()));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [live, dispatch] = useReducer(runReducer, idleRun);
  const controller = useRef<AbortController | null>(null);

  const active = live.phase === 'starting' || live.phase === 'streaming';
  const liveMatches =
    (live.phase === 'starting' && runId === null) || (live.runId !== null && live.runId === runId);
  const storedQuery = useScenarioRun(runId, !(active && liveMatches));
  const stored = storedQuery.data;
  const showStored =
    stored !== undefined && !(liveMatches && (active || stored.status === 'running'));

  // Leaving the page stops reading the run; the server keeps what it has. Going Back to the setup
  // does not: Forward shows the run still streaming, and the next Run replaces it.
  useEffect(() => () => controller.current?.abort(), []);
  // Run swaps the setup for the columns: focus (and so scroll to) their heading.
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (live.phase === 'starting') resultsHeading.current?.focus();
  }, [live.phase]);

  const setRunParam = (id: string | null) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      if (id === null) next.delete('run');
      else next.set('run', id);
      return next;
    });

  const refreshLists = () => {
    void queryClient.invalidateQueries({ queryKey: ['scenario-runs'] });
    void queryClient.invalidateQueries({ queryKey: scenariosQueryKey });
  };

  const start = () => {
    controller.current?.abort();
    const mine = new AbortController();
    controller.current = mine;
    setErrors({});
    dispatch({ type: 'begin', targets: draft.targets });
    const request: ScenarioRunRequest = {
      ...(scenario ? { scenario_id: scenario.id } : {}),
      ...draftToSetup(draft),
    };
    let ended = false;
    runScenario(request, {
      signal: mine.signal,
      onEvent: (event) => {
        if (controller.current !== mine) return;
        dispatch({ type: 'event', event });
        if (event.type === 'start') setRunParam(event.run_id);
        if (event.type === 'end') ended = true;
      },
    })
      .then(() => {
        if (controller.current === mine && !ended) {
          dispatch({ type: 'fail', message: streamCutMessage });
        }
      })
      .catch((error: unknown) => {
        if (controller.current !== mine) return;
        if (mine.signal.aborted) {
          dispatch({ type: 'stop' });
          return;
        }
        if (isApiError(error) && error.code === 'bad_request:validation') {
          setErrors(parseFieldErrors(error.message));
        }
        dispatch({
          type: 'fail',
          message: errorMessage(error, 'The run failed.'),
          code: isApiError(error) ? error.code : undefined,
        });
      })
      .finally(refreshLists);
  };

  const stop = () => {
    controller.current?.abort();
    dispatch({ type: 'stop' });
  };

  const editAndRunAgain = () => {
    if (!scenario && stored?.scenario_id) {
      setParams(new URLSearchParams({ scenario: stored.scenario_id }));
      return;
    }
    if (!scenario && stored && !liveMatches) setDraft(draftFromRun(stored));
    dispatch({ type: 'reset' });
    setRunParam(null);
  };

  if (runId === null && live.phase !== 'starting') {
    const missing = missingVariables([draft.systemPrompt, draft.userPrompt], draft.variables);
    const blocked =
      draft.userPrompt.trim() === ''
        ? 'Write the prompt to send.'
        : draft.targets.length === 0
          ? 'Add at least one model to compare.'
          : missing.length > 0
            ? `Fill in ${missing.map((name) => `{{${name}}}`).join(', ')}: ${missing.length === 1 ? 'it has' : 'they have'} no default.`
            : null;
    const failedBefore = live.phase === 'failed' && live.runId === null ? live.error : null;
    return (
      <section
        aria-labelledby="run-setup-title"
        className="grid gap-5 rounded-xl border bg-card p-4 shadow-sm sm:p-6"
      >
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h2 id="run-setup-title" className="text-lg font-semibold">
              {scenario ? scenario.title : 'Set up a run'}
            </h2>
            <p className="mt-1 text-sm text-muted-foreground">
              {scenario
                ? 'Changes here apply to this run only; edit the scenario to keep them.'
                : 'Write a prompt and pick the models, or start from one of your scenarios.'}
            </p>
          </div>
          {scenario ? (
            <LinkButton to={`/scenarios/${scenario.id}`} variant="outline" size="sm">
              <Pencil aria-hidden="true" /> Edit scenario
            </LinkButton>
          ) : (
            <LinkButton to="/scenarios" variant="outline" size="sm">
              Pick a scenario
            </LinkButton>
          )}
        </div>
        {failedBefore ? (
          <p
            role="alert"
            className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive"
          >
            The run did not start: {failedBefore.message}
          </p>
        ) : null}
        <SetupFields
          split
          draft={draft}
          onChange={setDraft}
          errors={errors}
          aside={
            <>
              <CostEstimatePanel draft={draft} />
              <div className="grid gap-2">
                <Button size="lg" disabled={blocked !== null} onClick={start}>
                  <Play aria-hidden="true" />
                  Run on {draft.targets.length} {draft.targets.length === 1 ? 'model' : 'models'}
                </Button>
                {blocked ? <p className="text-sm text-muted-foreground">{blocked}</p> : null}
              </div>
            </>
          }
        />
      </section>
    );
  }

  const phase: RunPhase = showStored ? storedPhase(stored) : liveMatches ? live.phase : 'idle';
  const columns = showStored
    ? stored.results.map((result) => columnFromResult(result, stored.status !== 'running'))
    : liveMatches
      ? live.columns
      : [];
  const title = stored?.title || scenario?.title || 'Run';
  const runError = liveMatches && live.phase === 'failed' ? live.error : null;
  const notFound = !liveMatches && storedQuery.isError;

  return (
    <section aria-labelledby="run-title" className="grid gap-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2
            id="run-title"
            ref={resultsHeading}
            tabIndex={-1}
            className="text-lg font-semibold break-words outline-none"
          >
            {title}
          </h2>
          {stored ? (
            <p className="text-sm text-muted-foreground">
              Run of {formatDateTime(stored.created_at)}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2">
          {active && liveMatches ? (
            <Button variant="destructive" onClick={stop}>
              <Square aria-hidden="true" /> Stop
            </Button>
          ) : (
            <Button variant="outline" onClick={editAndRunAgain}>
              <RotateCcw aria-hidden="true" /> Edit and run again
            </Button>
          )}
        </div>
      </div>
      <p role="status" aria-live="polite" className="text-sm font-medium">
        {notFound
          ? ''
          : phase === 'idle'
            ? storedQuery.isPending
              ? 'Loading the run'
              : ''
            : progressText(phase, columns)}
      </p>
      {notFound ? (
        <p
          role="alert"
          className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive"
        >
          {errorMessage(storedQuery.error, 'This run could not be loaded.')}
        </p>
      ) : null}
      {runError ? (
        <p
          role="alert"
          className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive"
        >
          {runError.message}
        </p>
      ) : null}
      {stored && showStored ? <SavedRunColumns run={stored} /> : null}
      {!showStored && columns.length > 0 ? <RunColumns columns={columns} winner={null} /> : null}
      {stored && showStored && stored.status !== 'running' ? (
        <p className="text-xs text-muted-foreground">
          Rate each answer, pick the best as the winner, or keep one as a test case with its prompt
          and answer.
        </p>
      ) : null}
      {stored ? <SentPrompt run={stored} /> : null}
    </section>
  );
};

export const ScenarioProxyPlusPage = () => {
  const [params] = useSearchParams();
  const scenarioId = params.get('scenario');
  const scenario = useScenarioDetail(scenarioId);
  return (
    <div>
      <PageHeader
        title="Scenario proxy plus"
        description="Send one prompt to several models at once and compare their answers, speed, tokens and cost side by side."
        actions={
          <LinkButton to="/scenarios" variant="outline">
            Your scenarios
          </LinkButton>
        }
      />
      {scenarioId !== null && scenario.isPending ? (
        <CenteredSpinner label="Loading the scenario" />
      ) : (
        <>
          {scenario.isError ? (
            <p
              role="alert"
              className="mb-4 rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive"
            >
              The scenario could not be opened: {errorMessage(scenario.error)} You can still set up
              a run here.
            </p>
          ) : null}
          <RunWorkspace key={scenario.data?.id ?? 'inline'} scenario={scenario.data} />
        </>
      )}
    </div>
  );
};

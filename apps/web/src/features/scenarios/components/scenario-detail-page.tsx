import { Play, SearchX, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { Scenario } from '@chorus/shared/api/scenarios';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TableLoadError } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { PageHeader } from '@/components/ui/page-header';
import { CenteredSpinner } from '@/components/ui/spinner';
import { errorMessage, isApiError } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useDeleteScenario } from '../api/delete-scenario';
import { useScenarioDetail } from '../api/get-scenario';
import { RunHistory } from './run-history';
import { runPath, ScenarioEditor } from './scenario-editor';

/** `/scenarios/new` creates a scenario with the same form that edits one. */
export const newScenarioId = 'new';

const NotFound = ({ id }: { id: string }) => (
  <div>
    <PageHeader title="Scenario not found" />
    <EmptyState
      icon={SearchX}
      title="Nothing here"
      action={
        <>
          <LinkButton to="/scenarios-cookbook" variant="outline">
            Browse the cookbook
          </LinkButton>
          <LinkButton to="/scenarios">Go to scenarios</LinkButton>
        </>
      }
    >
      There is no scenario “{id}” in your workspace: it was deleted, or it belongs to someone else.
      Open your scenarios to pick one, or copy a recipe from the cookbook.
    </EmptyState>
  </div>
);

const Existing = ({ scenario }: { scenario: Scenario }) => {
  const navigate = useNavigate();
  const remove = useDeleteScenario();
  const [confirming, setConfirming] = useState(false);
  return (
    <div>
      <PageHeader
        title={scenario.title}
        description={
          scenario.last_run_at
            ? `Last run ${formatDateTime(scenario.last_run_at)}. Edit the prompt and models, then run them side by side.`
            : 'Edit the prompt and models, then run them side by side.'
        }
        actions={
          <>
            <Button variant="ghost" onClick={() => setConfirming(true)}>
              <Trash2 aria-hidden="true" /> Delete
            </Button>
            <LinkButton to={runPath(scenario.id)}>
              <Play aria-hidden="true" /> Run
            </LinkButton>
          </>
        }
      />
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <ScenarioEditor key={scenario.id} scenario={scenario} />
        <RunHistory scenarioId={scenario.id} />
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Delete “${scenario.title}”?`}
        confirmLabel="Delete scenario"
        destructive
        onConfirm={() => {
          setConfirming(false);
          remove.mutate(scenario.id, {
            onSuccess: () => {
              toast.success(`“${scenario.title}” deleted`);
              void navigate('/scenarios', { replace: true });
            },
            onError: (error) =>
              toast.error(`Could not delete “${scenario.title}”`, {
                description: errorMessage(error),
              }),
          });
        }}
        onCancel={() => setConfirming(false)}
      >
        The scenario goes; its past runs and the test cases saved from them stay.
      </ConfirmDialog>
    </div>
  );
};

const ExistingScenario = ({ id }: { id: string }) => {
  const scenario = useScenarioDetail(id);
  if (scenario.isPending) return <CenteredSpinner label="Loading the scenario" />;
  if (scenario.isError) {
    if (
      isApiError(scenario.error) &&
      (scenario.error.status === 404 || scenario.error.status === 400)
    ) {
      return <NotFound id={id} />;
    }
    return (
      <div>
        <PageHeader title="Scenario" />
        <TableLoadError what="The scenario" error={scenario.error} />
      </div>
    );
  }
  return <Existing scenario={scenario.data} />;
};

export const ScenarioDetailPage = () => {
  const { id = '' } = useParams();
  if (id === newScenarioId) {
    return (
      <div>
        <PageHeader
          title="New scenario"
          description="Write a prompt once and pick the models to compare; each run shows their answers side by side with speed, tokens and cost."
        />
        <div className="max-w-3xl">
          <ScenarioEditor />
        </div>
      </div>
    );
  }
  return <ExistingScenario key={id} id={id} />;
};

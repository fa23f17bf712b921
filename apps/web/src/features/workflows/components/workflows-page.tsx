import {
  BookOpen,
  History,
  Layers,
  Pencil,
  Play,
  Plus,
  Workflow as WorkflowIcon,
  Wrench,
} from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Workflow } from '@chorus/shared/api/workflows';
import {
  CardDeleteButton,
  CardDescription,
  CardFact,
  CardList,
  DeleteConfirm,
  plural,
} from '@/components/forms/card-list';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { PageHeader } from '@/components/ui/page-header';
import { formatDateTime } from '@/lib/format';
import { helpLinks } from '@/lib/help-links';
import { RunStatusBadge } from '@/lib/workflows/run-status-badge';
import { useWorkflows } from '@/lib/workflows/workflow-queries';
import { useDeleteWorkflow, useWorkflow, useWorkflowRuns } from '../api/workflows';
import { RunViewDialog } from './run-view-dialog';
import { StartRunDialog } from './start-run-dialog';
import { WorkflowEditorDialog } from './workflow-editor-dialog';
import { WorkflowHistoryDialog } from './workflow-history-dialog';

const linkClass = 'text-primary underline underline-offset-4';

const LastRun = ({ workflow }: { workflow: Workflow }) => {
  const runs = useWorkflowRuns(workflow.id);
  const last = runs.data?.pages[0]?.runs[0];
  if (runs.isPending) return <span>Last run: …</span>;
  if (!last) return <span>Never run</span>;
  return (
    <span className="inline-flex items-center gap-1">
      Last run: <RunStatusBadge status={last.status} /> {formatDateTime(last.created_at)}
    </span>
  );
};

const WorkflowCard = ({
  workflow,
  onRun,
  onEdit,
  onHistory,
  onDelete,
}: {
  workflow: Workflow;
  onRun: () => void;
  onEdit: () => void;
  onHistory: () => void;
  onDelete: () => void;
}) => (
  <li
    aria-label={workflow.name}
    className="flex flex-col gap-3 rounded-xl border bg-card p-4 shadow-sm"
  >
    <h2 className="font-medium break-words">{workflow.name}</h2>
    <CardDescription text={workflow.description} />
    <p className="mt-auto flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground">
      <CardFact icon={Layers}>{plural(workflow.steps.length, 'step', 'steps')}</CardFact>
      <CardFact icon={History}>Version {workflow.version}</CardFact>
      <LastRun workflow={workflow} />
    </p>
    <div className="flex flex-wrap gap-2">
      <Button size="sm" onClick={onRun}>
        <Play aria-hidden="true" /> Run
      </Button>
      <Button variant="outline" size="sm" onClick={onEdit}>
        <Pencil aria-hidden="true" /> Edit
      </Button>
      <Button variant="outline" size="sm" onClick={onHistory}>
        <History aria-hidden="true" /> History
      </Button>
      <CardDeleteButton onClick={onDelete} />
    </div>
  </li>
);

/**
 * Workflows: steps that run one after another, each passing its output on. The editor, a run and
 * a workflow's history open over the list, named in the address (`?edit=`, `?run=`, `?history=`)
 * so that a link or a reload opens them again.
 */
export const WorkflowsPage = () => {
  const list = useWorkflows();
  const [params, setParams] = useSearchParams();
  const [starting, setStarting] = useState<Workflow | null>(null);
  const [deleting, setDeleting] = useState<Workflow | null>(null);
  const remove = useDeleteWorkflow();
  const workflows = list.data?.workflows ?? [];

  const editId = params.get('edit');
  const historyId = params.get('history');
  const runId = params.get('run');
  const wanted = editId && editId !== 'new' ? editId : historyId;
  const listed = wanted ? workflows.find((w) => w.id === wanted) : undefined;
  const fetched = useWorkflow(wanted ?? '', Boolean(wanted) && list.isSuccess && !listed);
  const target = listed ?? (fetched.data?.id === wanted ? fetched.data : undefined);

  const open = (name: 'edit' | 'history' | 'run', value: string) =>
    setParams(new URLSearchParams({ [name]: value }));
  const close = () => setParams(new URLSearchParams());

  const body = (
    <CardList
      list={list}
      count={workflows.length}
      noun="workflows"
      empty={
        <EmptyState
          icon={WorkflowIcon}
          title="No workflows yet"
          action={
            <>
              <Button onClick={() => open('edit', 'new')}>
                <Plus aria-hidden="true" /> New workflow
              </Button>
              <LinkButton to="/tools" variant="outline">
                <Wrench aria-hidden="true" /> Set up tools
              </LinkButton>
              <LinkButton to={helpLinks.prompts} variant="outline">
                <BookOpen aria-hidden="true" /> Templates and variables: the guide
              </LinkButton>
            </>
          }
        >
          A workflow runs steps one after another — a prompt to a model, a search of your knowledge
          bases, a call to one of your HTTP tools, a condition, a transform — each passing its
          output on to the next as {'{{steps.id.output}}'}. Create one, try it with a dry run, then
          run it here or on a schedule from the{' '}
          <Link to="/schedule-runs" className={linkClass}>
            Schedule runs
          </Link>{' '}
          page. Prompt steps answer with your own provider keys, so{' '}
          <Link to="/copy-api-keys" className={linkClass}>
            add a key
          </Link>{' '}
          first.
        </EmptyState>
      }
    >
      {workflows.map((workflow) => (
        <WorkflowCard
          key={workflow.id}
          workflow={workflow}
          onRun={() => setStarting(workflow)}
          onEdit={() => open('edit', workflow.id)}
          onHistory={() => open('history', workflow.id)}
          onDelete={() => setDeleting(workflow)}
        />
      ))}
    </CardList>
  );

  const missing = Boolean(wanted) && list.isSuccess && !target && !fetched.isPending;

  return (
    <div>
      <PageHeader
        title="Workflows"
        description={
          <>
            Chain prompts, knowledge searches and tools into steps that run on demand or on a
            schedule.{' '}
            <Link to="/schedule-runs" className={linkClass}>
              Schedule a workflow
            </Link>
          </>
        }
        actions={
          workflows.length > 0 ? (
            <Button onClick={() => open('edit', 'new')}>
              <Plus aria-hidden="true" /> New workflow
            </Button>
          ) : null
        }
      />
      {missing ? (
        <p
          role="alert"
          className="mb-4 rounded-md border border-destructive/40 p-3 text-sm text-destructive"
        >
          That workflow was not found: it may have been deleted.{' '}
          <button type="button" className={linkClass} onClick={close}>
            Back to the list
          </button>
        </p>
      ) : null}
      {body}
      <WorkflowEditorDialog
        open={editId === 'new' || (editId !== null && target !== undefined)}
        workflow={editId === 'new' ? null : (target ?? null)}
        onClose={close}
      />
      <WorkflowHistoryDialog
        workflow={historyId && target ? target : null}
        onOpenRun={(id) => open('run', id)}
        onClose={close}
      />
      <RunViewDialog runId={runId} onOpenRun={(id) => open('run', id)} onClose={close} />
      <StartRunDialog
        workflow={starting}
        onStarted={(id) => {
          setStarting(null);
          open('run', id);
        }}
        onClose={() => setStarting(null)}
      />
      <DeleteConfirm
        item={deleting}
        confirmLabel="Delete workflow"
        remove={remove}
        onClose={() => setDeleting(null)}
      >
        Its versions and run history go with it, and schedules that run it stop working. The
        prompts, tools and knowledge bases it uses are not deleted.
      </DeleteConfirm>
    </div>
  );
};

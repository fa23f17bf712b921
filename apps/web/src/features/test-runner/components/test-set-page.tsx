import {
  ArrowLeft,
  BookmarkPlus,
  FileUp,
  ListChecks,
  Pencil,
  Play,
  Plus,
  SearchX,
  Trash2,
} from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { TestSet, TestSetCase } from '@chorus/shared/api/test-runs';
import { DeleteConfirm } from '@/components/forms/card-list';
import { Button } from '@/components/ui/button';
import { DataTable, TableLoadError, TableLoading } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { PageHeader } from '@/components/ui/page-header';
import { CenteredSpinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-error';
import { usePageMeta } from '@/lib/use-page-meta';
import { helpLinks } from '@/lib/help-links';
import { subjectKindLabels, takesInput } from '../api/subjects';
import { testRunPagePath } from '../api/test-runs';
import { useDeleteTestCase, useDeleteTestSet, useTestSet, useTestSetCases } from '../api/test-sets';
import { CaseDialog } from './case-dialog';
import { ImportDialog } from './import-dialog';
import { RunDialog } from './run-dialog';
import { assertionTypeLabels, linkClass, subjectText } from './run-format';
import { RunsTable } from './runs-table';
import { SavedCasesDialog } from './saved-cases-dialog';
import { TestSetDialog } from './test-set-dialog';

const NotFound = () => (
  <div>
    <PageHeader title="Test set not found" />
    <EmptyState
      icon={SearchX}
      title="Nothing here"
      action={<LinkButton to="/test-runner">Go to the test runner</LinkButton>}
    >
      This test set does not exist in your workspace: it was deleted, or it belongs to someone else.
      Open the test runner to pick one of yours.
    </EmptyState>
  </div>
);

/** What a case sends: its input, else its variables, cut short. */
const caseSummary = (testCase: TestSetCase, withInput: boolean): string => {
  if (withInput && testCase.input) return testCase.input;
  const vars = Object.entries(testCase.variables);
  if (vars.length === 0) return withInput ? 'No input' : 'No variables';
  return vars.map(([name, value]) => `${name} = ${value}`).join(' · ');
};

type CaseDialogState = { testCase: TestSetCase | null } | null;

const CasesSection = ({
  set,
  onEdit,
  onDelete,
  onImport,
  onAddSaved,
}: {
  set: TestSet;
  onEdit: (state: CaseDialogState) => void;
  onDelete: (testCase: TestSetCase) => void;
  onImport: () => void;
  onAddSaved: () => void;
}) => {
  const cases = useTestSetCases(set.id);
  const withInput = takesInput(set.subject.kind);
  const buttons = (
    <>
      <Button onClick={() => onEdit({ testCase: null })}>
        <Plus aria-hidden="true" /> Add case
      </Button>
      <Button variant="outline" onClick={onImport}>
        <FileUp aria-hidden="true" /> Import
      </Button>
      <Button variant="outline" onClick={onAddSaved}>
        <BookmarkPlus aria-hidden="true" /> Add saved cases
      </Button>
    </>
  );
  let body;
  if (cases.isPending) body = <TableLoading label="Loading the cases" />;
  else if (cases.isError) body = <TableLoadError what="The cases" error={cases.error} />;
  else if (cases.data.items.length === 0) {
    body = (
      <EmptyState icon={ListChecks} title="No cases yet" action={buttons}>
        A case is one {withInput ? 'message' : 'set of variable values'} to send to the{' '}
        {subjectKindLabels[set.subject.kind].toLowerCase()}, and what its answer must hold: a text
        it contains, a pattern, valid JSON, a length, a time or cost limit, or a rubric an AI judge
        grades. Add cases one by one, import a CSV or JSON file, or add ones saved from scenario
        answers.{' '}
        <Link to={helpLinks.testAssertions} className={linkClass}>
          Writing good cases: the guide
        </Link>
      </EmptyState>
    );
  } else {
    body = (
      <DataTable
        caption="Cases"
        columns={[
          { label: 'Case' },
          { label: withInput ? 'Input' : 'Variables' },
          { label: 'Assertions' },
          { label: 'Actions', end: true, hidden: true },
        ]}
      >
        {cases.data.items.map((testCase) => (
          <tr key={testCase.id}>
            <td className="px-4 py-3 font-medium break-words">{testCase.name}</td>
            <td className="max-w-sm px-4 py-3 text-muted-foreground">
              <span className="line-clamp-2 break-words">{caseSummary(testCase, withInput)}</span>
            </td>
            <td className="px-4 py-3 text-xs text-muted-foreground">
              {testCase.assertions.length === 0
                ? 'None'
                : testCase.assertions.map((a) => assertionTypeLabels[a.type]).join(', ')}
            </td>
            <td className="px-4 py-3 text-right whitespace-nowrap">
              <Button
                variant="ghost"
                size="icon"
                className="size-8"
                aria-label={`Edit “${testCase.name}”`}
                title="Edit"
                onClick={() => onEdit({ testCase })}
              >
                <Pencil aria-hidden="true" />
              </Button>
              <Button
                variant="ghost"
                size="icon"
                className="size-8 text-muted-foreground"
                aria-label={`Delete “${testCase.name}”`}
                title="Delete"
                onClick={() => onDelete(testCase)}
              >
                <Trash2 aria-hidden="true" />
              </Button>
            </td>
          </tr>
        ))}
      </DataTable>
    );
  }
  const count = cases.data?.items.length;
  return (
    <section aria-labelledby="cases-heading" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="cases-heading" className="text-lg font-semibold">
          Cases{count !== undefined ? ` (${count})` : ''}
        </h2>
        {count ? <div className="flex flex-wrap gap-2">{buttons}</div> : null}
      </div>
      {body}
    </section>
  );
};

const Existing = ({ set }: { set: TestSet }) => {
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState<TestSet | null>(null);
  const [running, setRunning] = useState(false);
  const [importing, setImporting] = useState(false);
  const [addingSaved, setAddingSaved] = useState(false);
  const [caseDialog, setCaseDialog] = useState<CaseDialogState>(null);
  const [deletingCase, setDeletingCase] = useState<TestSetCase | null>(null);
  const removeSet = useDeleteTestSet();
  const removeCase = useDeleteTestCase(set.id);
  usePageMeta({ title: set.name, description: `The test set “${set.name}” and its runs.` });
  const subjectGone = set.subject_name === null;
  const noCases = set.case_count === 0;

  return (
    <div className="grid gap-10">
      <div>
        <Link
          to="/test-runner"
          className="mb-4 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
        >
          <ArrowLeft aria-hidden="true" className="size-4" /> All test sets
        </Link>
        <PageHeader
          title={set.name}
          description={
            <>
              {subjectText(set)}
              {set.description ? ` — ${set.description}` : ''}
              {set.notify ? ' · You get an e-mail when a run ends.' : ''}
            </>
          }
          actions={
            <>
              <Button variant="ghost" onClick={() => setDeleting(set)}>
                <Trash2 aria-hidden="true" /> Delete
              </Button>
              <Button variant="outline" onClick={() => setEditing(true)}>
                <Pencil aria-hidden="true" /> Edit
              </Button>
              <Button
                disabled={subjectGone || noCases}
                title={
                  subjectGone ? 'Pick what to test first' : noCases ? 'Add a case first' : undefined
                }
                onClick={() => setRunning(true)}
              >
                <Play aria-hidden="true" /> Run
              </Button>
            </>
          }
        />
        {subjectGone ? (
          <p
            role="alert"
            className="rounded-md border border-destructive/40 p-3 text-sm text-destructive"
          >
            The {subjectKindLabels[set.subject.kind].toLowerCase()} this set tests was deleted.{' '}
            <button type="button" className={linkClass} onClick={() => setEditing(true)}>
              Edit the set
            </button>{' '}
            to pick another before running it.
          </p>
        ) : null}
      </div>
      <CasesSection
        set={set}
        onEdit={setCaseDialog}
        onDelete={setDeletingCase}
        onImport={() => setImporting(true)}
        onAddSaved={() => setAddingSaved(true)}
      />
      <section aria-labelledby="set-runs-heading" className="grid gap-4">
        <h2 id="set-runs-heading" className="text-lg font-semibold">
          Runs
        </h2>
        <RunsTable
          setId={set.id}
          empty={
            noCases
              ? 'No runs yet. Add a case, then press Run.'
              : 'No runs yet. Press Run to check the cases on the models you pick.'
          }
        />
      </section>
      <TestSetDialog
        open={editing}
        set={set}
        onClose={() => setEditing(false)}
        onSaved={() => setEditing(false)}
      />
      <CaseDialog
        open={caseDialog !== null}
        set={set}
        testCase={caseDialog?.testCase ?? null}
        onClose={() => setCaseDialog(null)}
      />
      <ImportDialog set={set} open={importing} onClose={() => setImporting(false)} />
      <SavedCasesDialog set={set} open={addingSaved} onClose={() => setAddingSaved(false)} />
      <RunDialog
        set={set}
        open={running}
        onClose={() => setRunning(false)}
        onStarted={(runId) => {
          setRunning(false);
          void navigate(testRunPagePath(runId));
        }}
      />
      <DeleteConfirm
        item={deletingCase}
        confirmLabel="Delete case"
        remove={removeCase}
        onClose={() => setDeletingCase(null)}
      >
        Its results in earlier runs stay readable there.
      </DeleteConfirm>
      <DeleteConfirm
        item={deleting}
        confirmLabel="Delete test set"
        remove={{
          mutate: (id, on) =>
            removeSet.mutate(id, {
              onSuccess: () => {
                on.onSuccess();
                void navigate('/test-runner', { replace: true });
              },
              onError: on.onError,
            }),
        }}
        onClose={() => setDeleting(null)}
      >
        Its cases and the results of all its runs go with it. The{' '}
        {subjectKindLabels[set.subject.kind].toLowerCase()} it tests is not deleted.
      </DeleteConfirm>
    </div>
  );
};

/** `/test-runner/sets/:id`: one set's settings, its cases and its runs. */
export const TestSetPage = () => {
  const { id = '' } = useParams();
  const set = useTestSet(id);
  if (set.isPending) return <CenteredSpinner label="Loading the test set" />;
  if (set.isError) {
    if (isApiError(set.error) && (set.error.status === 404 || set.error.status === 400)) {
      return <NotFound />;
    }
    return (
      <div>
        <PageHeader title="Test set" />
        <TableLoadError what="The test set" error={set.error} />
      </div>
    );
  }
  return <Existing key={set.data.id} set={set.data} />;
};

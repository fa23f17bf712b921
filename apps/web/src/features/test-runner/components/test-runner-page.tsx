import { BookOpen, FlaskConical, ListChecks, Plus, Target } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { TestSet } from '@chorus/shared/api/test-runs';
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
import { RunStatusBadge } from '@/lib/workflows/run-status-badge';
import { helpLinks } from '@/lib/help-links';
import { useDeleteTestSet, testSetPagePath, useTestSets } from '../api/test-sets';
import { AccessTokensSection } from './access-tokens-section';
import { formatPassRate, linkClass, subjectText } from './run-format';
import { RunsTable } from './runs-table';
import { TestSetDialog } from './test-set-dialog';

const LastRun = ({ set }: { set: TestSet }) => {
  const last = set.last_run;
  if (!last) return <span>Never run</span>;
  return (
    <span className="inline-flex items-center gap-1">
      Last run: <RunStatusBadge status={last.status} />
      {last.pass_rate !== null ? ` ${formatPassRate(last.pass_rate)} passed` : null}
    </span>
  );
};

const TestSetCard = ({ set, onDelete }: { set: TestSet; onDelete: () => void }) => (
  <li aria-label={set.name} className="flex flex-col gap-3 rounded-xl border bg-card p-4 shadow-sm">
    <h3 className="font-medium break-words">
      <Link to={testSetPagePath(set.id)} className="hover:underline">
        {set.name}
      </Link>
    </h3>
    <CardDescription text={set.description} />
    <p className="mt-auto flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground">
      <CardFact icon={Target}>
        <span className={set.subject_name === null ? 'text-destructive' : undefined}>
          {subjectText(set)}
        </span>
      </CardFact>
      <CardFact icon={ListChecks}>{plural(set.case_count, 'case', 'cases')}</CardFact>
      <LastRun set={set} />
    </p>
    <div className="flex flex-wrap gap-2">
      <LinkButton to={testSetPagePath(set.id)} size="sm" variant="outline">
        Open
        <span className="sr-only"> “{set.name}”</span>
      </LinkButton>
      <CardDeleteButton onClick={onDelete} />
    </div>
  </li>
);

/**
 * The test runner: the user's test sets (cases with assertions, run on several models), the runs
 * of all of them as they go, and personal access tokens to run them from CI.
 */
export const TestRunnerPage = () => {
  const list = useTestSets();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<TestSet | null>(null);
  const remove = useDeleteTestSet();
  const sets = useMemo(() => list.data?.items ?? [], [list.data]);

  const newButton = (
    <Button onClick={() => setCreating(true)}>
      <Plus aria-hidden="true" /> New test set
    </Button>
  );

  return (
    <div className="grid gap-10">
      <PageHeader
        title="Test runner"
        description={
          <>
            Check a prompt, scenario, custom AI or agent against your own cases on several models at
            once, repeat each to see how stable it is, and compare with the last run to catch
            regressions.{' '}
            <Link to={helpLinks.testRunner} className={linkClass}>
              How it works
            </Link>
          </>
        }
        actions={sets.length > 0 ? newButton : null}
      />
      <section aria-labelledby="test-sets-heading" className="grid gap-4">
        <h2 id="test-sets-heading" className="text-lg font-semibold">
          Test sets
        </h2>
        <CardList
          list={list}
          count={sets.length}
          noun="test sets"
          empty={
            <EmptyState
              icon={FlaskConical}
              title="No test sets yet"
              action={
                <>
                  {newButton}
                  <LinkButton to={helpLinks.testAssertions} variant="outline">
                    <BookOpen aria-hidden="true" /> Test sets and assertions: the guide
                  </LinkButton>
                </>
              }
            >
              A test set is a list of cases for one of your prompts, scenarios, custom AIs or
              agents: the input or variables of each, and what its answer must hold — a text, a
              pattern, valid JSON, a time or cost limit, or a rubric an AI judge grades. Run it on
              up to six models, a few times each, and read the results side by side. Runs use your
              own provider keys, so{' '}
              <Link to="/copy-api-keys" className={linkClass}>
                add a key
              </Link>{' '}
              first; cases can also be saved from a{' '}
              <Link to="/scenarios" className={linkClass}>
                scenario
              </Link>
              ’s answers.
            </EmptyState>
          }
        >
          {sets.map((set) => (
            <TestSetCard key={set.id} set={set} onDelete={() => setDeleting(set)} />
          ))}
        </CardList>
      </section>
      {sets.length > 0 ? (
        <section aria-labelledby="recent-runs-heading" className="grid gap-4">
          <h2 id="recent-runs-heading" className="text-lg font-semibold">
            Recent runs
          </h2>
          <RunsTable
            setId={null}
            empty="No runs yet. Open a test set and press Run to start its first."
          />
        </section>
      ) : null}
      <AccessTokensSection />
      <TestSetDialog
        open={creating}
        set={null}
        onClose={() => setCreating(false)}
        onSaved={(saved) => {
          setCreating(false);
          void navigate(testSetPagePath(saved.id));
        }}
      />
      <DeleteConfirm
        item={deleting}
        confirmLabel="Delete test set"
        remove={remove}
        onClose={() => setDeleting(null)}
      >
        Its cases and the results of all its runs go with it. The prompt, scenario, custom AI or
        agent it tests is not deleted.
      </DeleteConfirm>
    </div>
  );
};

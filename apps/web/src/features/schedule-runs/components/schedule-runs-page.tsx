import { BookOpen, CalendarClock, History, Pause, Pencil, Play, Plus, Zap } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Schedule } from '@chorus/shared/api/schedules';
import { CardDeleteButton, CardList, DeleteConfirm } from '@/components/forms/card-list';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { PageHeader } from '@/components/ui/page-header';
import { errorMessage } from '@/lib/api-error';
import { helpLinks } from '@/lib/help-links';
import { toast } from '@/lib/toast';
import { RunStatusBadge } from '@/lib/workflows/run-status-badge';
import {
  useDeleteSchedule,
  usePauseSchedule,
  useResumeSchedule,
  useRunScheduleNow,
  useSchedules,
} from '../api/schedules';
import { ScheduleDialog } from './schedule-dialog';
import { targetKindLabels } from './schedule-draft';
import { ScheduleHistoryDialog } from './schedule-history-dialog';
import { formatInUserZone, userTimeZone } from './schedule-times';

const linkClass = 'text-primary underline underline-offset-4';

const StateBadge = ({ schedule }: { schedule: Schedule }) => {
  if (schedule.enabled) {
    return (
      <span className="rounded-full border border-emerald-500/40 bg-emerald-500/10 px-2 py-0.5 text-xs text-emerald-700 dark:text-emerald-300">
        Active
      </span>
    );
  }
  return (
    <span className="rounded-full border border-amber-500/40 bg-amber-500/10 px-2 py-0.5 text-xs text-amber-700 dark:text-amber-300">
      {schedule.disabled_reason ? 'Turned off' : 'Paused'}
    </span>
  );
};

const ScheduleCard = ({
  schedule,
  busy,
  onRunNow,
  onToggle,
  onEdit,
  onHistory,
  onDelete,
}: {
  schedule: Schedule;
  busy: boolean;
  onRunNow: () => void;
  onToggle: () => void;
  onEdit: () => void;
  onHistory: () => void;
  onDelete: () => void;
}) => {
  const sameZone = schedule.time_zone === userTimeZone();
  return (
    <li
      aria-label={schedule.name}
      className="flex flex-col gap-3 rounded-xl border bg-card p-4 shadow-sm"
    >
      <div className="flex flex-wrap items-start gap-2">
        <div className="min-w-0 flex-1">
          <h2 className="font-medium break-words">{schedule.name}</h2>
          <p className="text-xs text-muted-foreground">
            {targetKindLabels[schedule.target.kind]}: {schedule.target_name}
          </p>
        </div>
        <StateBadge schedule={schedule} />
      </div>
      {schedule.disabled_reason ? (
        <p
          role="note"
          className="rounded-md border border-amber-500/40 bg-amber-500/10 p-2 text-xs"
        >
          {schedule.disabled_reason} Fix the cause, then resume it.
        </p>
      ) : null}
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted-foreground">When</dt>
        <dd>
          {schedule.description}{' '}
          <span className="text-xs text-muted-foreground">
            (<code>{schedule.cron}</code>, {schedule.time_zone})
          </span>
        </dd>
        <dt className="text-muted-foreground">Next run</dt>
        <dd>
          {schedule.enabled
            ? formatInUserZone(schedule.next_runs[0], 'None due')
            : 'None while it is off'}
          {schedule.enabled && !sameZone && schedule.next_runs[0] ? (
            <span className="block text-xs text-muted-foreground">in your time zone</span>
          ) : null}
        </dd>
        <dt className="text-muted-foreground">Last run</dt>
        <dd>
          {schedule.last_run ? (
            <span className="inline-flex flex-wrap items-center gap-1">
              <RunStatusBadge status={schedule.last_run.status} />
              {formatInUserZone(schedule.last_run.occurrence_at)}
            </span>
          ) : (
            'Not run yet'
          )}
        </dd>
      </dl>
      <div className="mt-auto flex flex-wrap gap-2">
        <Button size="sm" disabled={busy} onClick={onRunNow}>
          <Zap aria-hidden="true" /> Run now
        </Button>
        <Button variant="outline" size="sm" disabled={busy} onClick={onToggle}>
          {schedule.enabled ? (
            <>
              <Pause aria-hidden="true" /> Pause
            </>
          ) : (
            <>
              <Play aria-hidden="true" /> Resume
            </>
          )}
        </Button>
        <Button variant="outline" size="sm" onClick={onEdit}>
          <Pencil aria-hidden="true" /> Edit
        </Button>
        <Button variant="outline" size="sm" onClick={onHistory}>
          <History aria-hidden="true" /> Runs
        </Button>
        <CardDeleteButton onClick={onDelete} />
      </div>
    </li>
  );
};

/**
 * Schedules: a saved prompt, a scenario, an agent task or a workflow, run on a cron expression in
 * a time zone, each result e-mailed.
 */
export const ScheduleRunsPage = () => {
  const list = useSchedules();
  const [editing, setEditing] = useState<{ schedule: Schedule | null } | null>(null);
  const [history, setHistory] = useState<Schedule | null>(null);
  const [deleting, setDeleting] = useState<Schedule | null>(null);
  const runNow = useRunScheduleNow();
  const pause = usePauseSchedule();
  const resume = useResumeSchedule();
  const remove = useDeleteSchedule();
  const schedules = list.data?.schedules ?? [];
  const busyId =
    (runNow.isPending && runNow.variables) ||
    (pause.isPending && pause.variables) ||
    (resume.isPending && resume.variables) ||
    null;

  const toggle = (schedule: Schedule) => {
    const action = schedule.enabled ? pause : resume;
    action.mutate(schedule.id, {
      onSuccess: () =>
        toast.success(
          schedule.enabled ? `“${schedule.name}” paused` : `“${schedule.name}” resumed`,
        ),
      onError: (error) =>
        toast.error(
          schedule.enabled
            ? `Could not pause “${schedule.name}”`
            : `Could not resume “${schedule.name}”`,
          { description: errorMessage(error) },
        ),
    });
  };

  const body = (
    <CardList
      list={list}
      count={schedules.length}
      noun="schedules"
      className="grid gap-4 lg:grid-cols-2"
      empty={
        <EmptyState
          icon={CalendarClock}
          title="No schedules yet"
          action={
            <>
              <Button onClick={() => setEditing({ schedule: null })}>
                <Plus aria-hidden="true" /> New schedule
              </Button>
              <LinkButton to="/prompts" variant="outline">
                Open the prompt library
              </LinkButton>
              <LinkButton to={helpLinks.prompts} variant="outline">
                <BookOpen aria-hidden="true" /> Prompts and variables: the guide
              </LinkButton>
            </>
          }
        >
          A schedule runs a saved prompt, a scenario, an agent task or a{' '}
          <Link to="/workflows" className={linkClass}>
            workflow
          </Link>{' '}
          at the times you set — every weekday at 09:00 in your time zone, say — and e-mails you the
          result. Save a prompt in the library or build a workflow first, then schedule it here.
          Runs use your own provider keys.
        </EmptyState>
      }
    >
      {schedules.map((schedule) => (
        <ScheduleCard
          key={schedule.id}
          schedule={schedule}
          busy={busyId === schedule.id}
          onRunNow={() =>
            runNow.mutate(schedule.id, {
              onSuccess: () =>
                toast.success(`“${schedule.name}” started`, {
                  description: 'Its result shows under Runs when it finishes.',
                }),
              onError: (error) =>
                toast.error(`Could not run “${schedule.name}”`, {
                  description: errorMessage(error),
                }),
            })
          }
          onToggle={() => toggle(schedule)}
          onEdit={() => setEditing({ schedule })}
          onHistory={() => setHistory(schedule)}
          onDelete={() => setDeleting(schedule)}
        />
      ))}
    </CardList>
  );

  return (
    <div>
      <PageHeader
        title="Schedule runs"
        description={
          <>
            Run a prompt, a scenario, an agent or a workflow on a schedule and receive an e-mail
            when each run starts and completes. Times are shown in your time zone ({userTimeZone()}
            ).
          </>
        }
        actions={
          schedules.length > 0 ? (
            <Button onClick={() => setEditing({ schedule: null })}>
              <Plus aria-hidden="true" /> New schedule
            </Button>
          ) : null
        }
      />
      {body}
      <ScheduleDialog
        open={editing !== null}
        schedule={editing?.schedule ?? null}
        onClose={() => setEditing(null)}
      />
      <ScheduleHistoryDialog schedule={history} onClose={() => setHistory(null)} />
      <DeleteConfirm
        item={deleting}
        confirmLabel="Delete schedule"
        remove={remove}
        onClose={() => setDeleting(null)}
      >
        It stops running and its run history goes with it. What it ran — the prompt, scenario, agent
        or workflow — is not deleted.
      </DeleteConfirm>
    </div>
  );
};

import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { scheduleLimits, type Schedule } from '@chorus/shared/api/schedules';
import { EditorDialog } from '@/components/forms/draft-form';
import { Field, TextAreaField, TextField } from '@/components/forms/field';
import { FormActions } from '@/components/ui/form-actions';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage, isApiError } from '@/lib/api-error';
import { defaultAiProvider } from '@/lib/providers';
import { usePrompts } from '@/lib/queries/prompts';
import { toast } from '@/lib/toast';
import { ProviderModelFields } from '@/lib/workflows/provider-model-fields';
import { WorkflowInputsFields, initialInputValues } from '@/lib/workflows/workflow-inputs-fields';
import {
  useAgentChoices,
  useScenarioChoices,
  useWorkflows,
} from '@/lib/workflows/workflow-queries';
import { useCreateSchedule, useUpdateSchedule } from '../api/schedules';
import { CronPreview } from './cron-preview';
import {
  bodyOf,
  draftOf,
  targetKindLabels,
  type DraftErrors,
  type ScheduleDraft,
  type TargetKind,
} from './schedule-draft';
import { timeZoneChoices, userTimeZone } from './schedule-times';

const linkClass = 'text-primary underline underline-offset-4';

const noPrompts = { search: '', category: '', favorite: false };

type SetField = <K extends keyof ScheduleDraft>(field: K, value: ScheduleDraft[K]) => void;

type TargetProps = { draft: ScheduleDraft; set: SetField; errors: DraftErrors };

/** "You have no … yet. <Create one> first.", said where a picker has nothing to pick. */
const NoneYet = ({ what, to, action }: { what: string; to: string; action: string }) => (
  <>
    You have no {what} yet.{' '}
    <Link to={to} className={linkClass}>
      {action}
    </Link>{' '}
    first.
  </>
);

/** A picker of one of the user's things, with what to do when there are none. */
const Choice = ({
  label,
  error,
  value,
  onChange,
  pending,
  options,
  none,
}: {
  label: string;
  error: string | undefined;
  value: string;
  onChange: (value: string) => void;
  pending: boolean;
  options: { id: string; name: string }[];
  none: ReactNode;
}) => (
  <Field label={label} error={error}>
    {({ id, describedBy, invalid }) =>
      pending ? (
        <Spinner className="size-5" label={`Loading: ${label}`} />
      ) : options.length === 0 ? (
        <p className="text-sm text-muted-foreground">{none}</p>
      ) : (
        <NativeSelect
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">Pick one</option>
          {options.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))}
        </NativeSelect>
      )
    }
  </Field>
);

const PromptTarget = ({ draft, set, errors }: TargetProps) => {
  const prompts = usePrompts(noPrompts);
  const all = prompts.data?.pages.flatMap((page) => page.items) ?? [];
  const prompt = all.find((p) => p.id === draft.promptId);
  return (
    <>
      <Choice
        label="Saved prompt"
        error={errors.target}
        value={draft.promptId}
        onChange={(id) => {
          set('promptId', id);
          set('variables', {});
        }}
        pending={prompts.isPending}
        options={all.map((p) => ({ id: p.id, name: p.title }))}
        none={
          <NoneYet what="saved prompts" to="/prompts" action="Save one in the prompt library" />
        }
      />
      {prompt && prompt.variables.length > 0 ? (
        <fieldset className="grid gap-3">
          <legend className="mb-1.5 text-sm font-medium">Variables</legend>
          {prompt.variables.map((variable) => (
            <TextField
              key={variable.name}
              label={variable.name}
              hint={variable.default !== null ? `Default: ${variable.default}` : 'Required'}
              value={draft.variables[variable.name] ?? ''}
              placeholder={variable.default ?? ''}
              onChange={(value) => set('variables', { ...draft.variables, [variable.name]: value })}
            />
          ))}
          {errors.variables ? <p className="text-sm text-destructive">{errors.variables}</p> : null}
        </fieldset>
      ) : null}
      <ProviderModelFields
        provider={draft.provider}
        model={draft.model}
        onChange={({ provider, model }) => {
          set('provider', provider);
          set('model', model);
        }}
      />
    </>
  );
};

const WorkflowTarget = ({ draft, set, errors }: TargetProps) => {
  const workflows = useWorkflows();
  const all = workflows.data?.workflows ?? [];
  const workflow = all.find((w) => w.id === draft.workflowId);
  return (
    <>
      <Choice
        label="Workflow"
        error={errors.target}
        value={draft.workflowId}
        onChange={(id) => {
          set('workflowId', id);
          set('version', '');
          const picked = all.find((w) => w.id === id);
          set('workflowInputs', picked ? initialInputValues(picked.inputs) : {});
        }}
        pending={workflows.isPending}
        options={all}
        none={<NoneYet what="workflows" to="/workflows?edit=new" action="Build one" />}
      />
      {workflow ? (
        <>
          <Field
            label="Version"
            hint="Follow the latest to run each saved change; pin one to keep running it as it is."
          >
            {({ id, describedBy }) => (
              <NativeSelect
                id={id}
                aria-describedby={describedBy}
                value={draft.version}
                onChange={(event) => set('version', event.target.value)}
              >
                <option value="">Latest (now version {workflow.version})</option>
                {Array.from({ length: workflow.version }, (_, i) => workflow.version - i).map(
                  (version) => (
                    <option key={version} value={String(version)}>
                      Version {version}
                    </option>
                  ),
                )}
              </NativeSelect>
            )}
          </Field>
          <fieldset className="grid gap-2">
            <legend className="mb-1.5 text-sm font-medium">Inputs</legend>
            <WorkflowInputsFields
              inputs={workflow.inputs}
              values={{ ...initialInputValues(workflow.inputs), ...draft.workflowInputs }}
              errors={errors.inputs}
              onChange={(values) => set('workflowInputs', values)}
            />
          </fieldset>
        </>
      ) : null}
    </>
  );
};

const TargetFields = ({ draft, set, errors }: TargetProps) => {
  const scenarios = useScenarioChoices(draft.kind === 'scenario');
  const agents = useAgentChoices(draft.kind === 'agent');
  switch (draft.kind) {
    case 'prompt':
      return <PromptTarget draft={draft} set={set} errors={errors} />;
    case 'workflow':
      return <WorkflowTarget draft={draft} set={set} errors={errors} />;
    case 'scenario':
      return (
        <Choice
          label="Scenario"
          error={errors.target}
          value={draft.scenarioId}
          onChange={(id) => set('scenarioId', id)}
          pending={scenarios.isPending}
          options={(scenarios.data?.items ?? []).map((s) => ({ id: s.id, name: s.title }))}
          none={<NoneYet what="scenarios" to="/scenarios" action="Create one" />}
        />
      );
    case 'agent':
      return (
        <>
          <Choice
            label="Agent"
            error={errors.target}
            value={draft.agentId}
            onChange={(id) => set('agentId', id)}
            pending={agents.isPending}
            options={agents.data?.agents ?? []}
            none={<NoneYet what="agents" to="/agents" action="Create one" />}
          />
          <TextAreaField
            label="Task"
            error={errors.task}
            hint="What the agent is asked each time. A tool that needs your approval stops the run: unattended runs never approve, and you are told."
            rows={3}
            maxLength={scheduleLimits.task}
            value={draft.task}
            onChange={(task) => set('task', task)}
          />
        </>
      );
  }
};

const ScheduleForm = ({
  schedule,
  onDone,
  onCancel,
}: {
  schedule: Schedule | null;
  onDone: () => void;
  onCancel: () => void;
}) => {
  const [draft, setDraft] = useState(() =>
    draftOf(schedule, { provider: defaultAiProvider, timeZone: userTimeZone() }),
  );
  const [errors, setErrors] = useState<DraftErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateSchedule();
  const update = useUpdateSchedule();
  const workflows = useWorkflows(draft.kind === 'workflow');
  const zones = useMemo(() => timeZoneChoices(), []);
  const formRef = useRef<HTMLFormElement>(null);
  const set: SetField = (field, value) => setDraft((current) => ({ ...current, [field]: value }));

  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const workflow = workflows.data?.workflows.find((w) => w.id === draft.workflowId);
    const checked = bodyOf(draft, workflow);
    if (!checked.body) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    try {
      const saved = schedule
        ? await update.mutateAsync({ id: schedule.id, patch: checked.body })
        : await create.mutateAsync(checked.body);
      toast.success(schedule ? `“${saved.name}” saved` : `“${saved.name}” scheduled`);
      onDone();
    } catch (cause) {
      const code = isApiError(cause) ? cause.code : undefined;
      if (code === 'schedules:bad_cron' || code === 'schedules:too_frequent') {
        setErrors({ cron: errorMessage(cause) });
      } else if (code === 'schedules:bad_time_zone') setErrors({ timeZone: errorMessage(cause) });
      else setFailure(`Not saved: ${errorMessage(cause)}`);
    }
  };

  return (
    <form ref={formRef} noValidate className="grid gap-5" onSubmit={(event) => void submit(event)}>
      <TextField
        label="Name"
        error={errors.name}
        maxLength={scheduleLimits.name}
        value={draft.name}
        placeholder="e.g. Weekday news digest"
        onChange={(name) => set('name', name)}
      />
      <Field label="What it runs">
        {({ id }) => (
          <NativeSelect
            id={id}
            value={draft.kind}
            onChange={(event) => {
              set('kind', event.target.value as TargetKind);
              setErrors({});
            }}
          >
            {(Object.keys(targetKindLabels) as TargetKind[]).map((kind) => (
              <option key={kind} value={kind}>
                {targetKindLabels[kind]}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      <TargetFields draft={draft} set={set} errors={errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Cron expression"
          error={errors.cron}
          hint="Minute, hour, day of the month, month, day of the week."
          className="font-mono"
          maxLength={120}
          value={draft.cron}
          onChange={(cron) => set('cron', cron)}
        />
        <Field
          label="Time zone"
          error={errors.timeZone}
          hint="Runs keep to this zone’s clock across daylight saving changes."
        >
          {({ id, describedBy, invalid }) => (
            <NativeSelect
              id={id}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              value={draft.timeZone}
              onChange={(event) => set('timeZone', event.target.value)}
            >
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
      </div>
      <CronPreview cron={draft.cron} timeZone={draft.timeZone} />
      <Field label="Missed runs" hint="What happens to the runs missed while the service was down.">
        {({ id, describedBy }) => (
          <NativeSelect
            id={id}
            aria-describedby={describedBy}
            value={draft.missed}
            onChange={(event) =>
              set('missed', event.target.value === 'run_once' ? 'run_once' : 'skip')
            }
          >
            <option value="skip">Skip them</option>
            <option value="run_once">Run once for all of them</option>
          </NativeSelect>
        )}
      </Field>
      <fieldset className="grid gap-1.5">
        <legend className="mb-1.5 text-sm font-medium">E-mail me when a run</legend>
        {(
          [
            ['emailStarted', 'Starts'],
            ['emailCompleted', 'Completes, with the result'],
            ['emailFailed', 'Fails, with the reason'],
          ] as const
        ).map(([field, label]) => (
          <label key={field} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={draft[field]}
              onChange={(event) => set(field, event.target.checked)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <p className="text-xs text-muted-foreground">
        After {scheduleLimits.failuresBeforeDisable} failures in a row the schedule is turned off,
        and you get an e-mail saying so.
      </p>
      <FormActions
        error={failure}
        onCancel={onCancel}
        submitLabel={schedule ? 'Save' : 'Create schedule'}
        submitDisabled={create.isPending || update.isPending}
      />
    </form>
  );
};

/** Creates a schedule, or edits one. */
export const ScheduleDialog = ({
  open,
  schedule,
  onClose,
}: {
  open: boolean;
  schedule: Schedule | null;
  onClose: () => void;
}) => (
  <EditorDialog open={open} item={schedule} newTitle="New schedule" onClose={onClose}>
    {(item) => <ScheduleForm schedule={item} onDone={onClose} onCancel={onClose} />}
  </EditorDialog>
);

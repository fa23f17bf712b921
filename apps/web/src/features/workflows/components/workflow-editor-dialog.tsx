import { FlaskConical, Plus, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  workflowInputTypes,
  workflowLimits,
  workflowStepKinds,
  type Workflow,
  type WorkflowRun,
} from '@chorus/shared/api/workflows';
import { Button } from '@/components/ui/button';
import { EditorDialog } from '@/components/forms/draft-form';
import { Field, TextAreaField, TextField } from '@/components/forms/field';
import { FormActions } from '@/components/ui/form-actions';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { errorMessage, isApiError } from '@/lib/api-error';
import { defaultAiProvider } from '@/lib/providers';
import { toast } from '@/lib/toast';
import { formatCostUsd, formatTokens } from '@/lib/workflows/run-format';
import { RunStatusBadge } from '@/lib/workflows/run-status-badge';
import {
  initialInputValues,
  inputValuesOf,
  WorkflowInputsFields,
  type InputValues,
} from '@/lib/workflows/workflow-inputs-fields';
import { useCreateWorkflow, useDryRunWorkflow, useUpdateWorkflow } from '../api/workflows';
import { StepEditor } from './step-editor';
import { StepRunList } from './step-run-list';
import {
  bodyOf,
  draftOf,
  moveItem,
  newInput,
  newStep,
  inputsOf,
  stepKindLabels,
  type DraftErrors,
  type DraftInput,
  type WorkflowDraft,
} from './workflow-draft';
import { scopeOf } from './workflow-references';

const InputRow = ({
  input,
  index,
  errors,
  onChange,
  onRemove,
}: {
  input: DraftInput;
  index: number;
  errors: DraftErrors;
  onChange: (input: DraftInput) => void;
  onRemove: () => void;
}) => {
  const errorOf = (field: string) => errors[`inputs.${input.key}.${field}`];
  return (
    <li
      aria-label={`Input ${index + 1}: ${input.name}`}
      className="grid items-start gap-3 rounded-lg border p-3 sm:grid-cols-[1fr_1fr_8rem_1fr_auto]"
    >
      <TextField
        label="Name"
        error={errorOf('name')}
        className="font-mono"
        maxLength={40}
        value={input.name}
        onChange={(name) => onChange({ ...input, name })}
      />
      <TextField
        label="Label"
        error={errorOf('label')}
        maxLength={80}
        value={input.label}
        placeholder={input.name}
        onChange={(label) => onChange({ ...input, label })}
      />
      <Field label="Type">
        {({ id }) => (
          <NativeSelect
            id={id}
            value={input.type}
            onChange={(event) =>
              onChange({
                ...input,
                type: event.target.value as DraftInput['type'],
                defaultText: '',
              })
            }
          >
            {workflowInputTypes.map((type) => (
              <option key={type} value={type}>
                {type === 'text' ? 'Text' : type === 'number' ? 'Number' : 'Yes / no'}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      <Field label="Default" error={errorOf('default')}>
        {({ id, describedBy, invalid }) =>
          input.type === 'boolean' ? (
            <NativeSelect
              id={id}
              value={input.defaultText}
              onChange={(event) => onChange({ ...input, defaultText: event.target.value })}
            >
              <option value="">None</option>
              <option value="true">Yes</option>
              <option value="false">No</option>
            </NativeSelect>
          ) : (
            <Input
              id={id}
              inputMode={input.type === 'number' ? 'decimal' : undefined}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              value={input.defaultText}
              onChange={(event) => onChange({ ...input, defaultText: event.target.value })}
            />
          )
        }
      </Field>
      <div className="flex items-center gap-2 sm:pt-6">
        <label className="flex items-center gap-1.5 text-sm">
          <input
            type="checkbox"
            checked={input.required}
            onChange={(event) => onChange({ ...input, required: event.target.checked })}
          />
          Required
        </label>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-8 text-muted-foreground"
          aria-label={`Remove input ${input.name || index + 1}`}
          title="Remove"
          onClick={onRemove}
        >
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
    </li>
  );
};

const DryRun = ({ draft }: { draft: WorkflowDraft }) => {
  const dryRun = useDryRunWorkflow();
  const [values, setValues] = useState<InputValues>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<WorkflowRun | null>(null);
  const inputs = inputsOf(draft);
  const shown = { ...initialInputValues(inputs), ...values };

  const run = () => {
    setProblem(null);
    const checked = bodyOf(draft);
    if (!checked.body) {
      setProblem(
        'Fix the fields marked above first: a dry run runs the workflow as it is drafted.',
      );
      return;
    }
    const given = inputValuesOf(checked.body.inputs, shown);
    setErrors(given.errors);
    if (Object.keys(given.errors).length > 0) return;
    setResult(null);
    dryRun.mutate(
      { workflow: checked.body, inputs: given.values },
      {
        onSuccess: setResult,
        onError: (error) => setProblem(`The dry run could not run: ${errorMessage(error)}`),
      },
    );
  };

  return (
    <section aria-labelledby="dry-run-title" className="grid gap-3 rounded-lg border p-4">
      <h3 id="dry-run-title" className="text-sm font-semibold">
        Dry run
      </h3>
      <p className="text-xs text-muted-foreground">
        Runs this draft now with sample inputs and shows what each step gives, without saving it.
        Model calls are made on your keys and count towards your usage.
      </p>
      <WorkflowInputsFields inputs={inputs} values={shown} errors={errors} onChange={setValues} />
      <div>
        <Button type="button" variant="outline" disabled={dryRun.isPending} onClick={run}>
          <FlaskConical aria-hidden="true" />
          {dryRun.isPending ? 'Running…' : 'Dry run'}
        </Button>
      </div>
      {dryRun.isPending ? (
        <p role="status" className="text-sm text-muted-foreground">
          Running the steps one after another…
        </p>
      ) : null}
      {problem ? (
        <p role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      ) : null}
      {result ? (
        <div className="grid gap-2" aria-label="Dry run result">
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <RunStatusBadge status={result.status} />
            <span className="text-muted-foreground">
              {formatTokens(result.input_tokens, result.output_tokens)} ·{' '}
              {formatCostUsd(result.cost_usd)}
            </span>
          </p>
          {result.error ? <p className="text-sm text-destructive">{result.error.message}</p> : null}
          <StepRunList steps={result.steps} label="Dry run steps" />
        </div>
      ) : null}
    </section>
  );
};

const WorkflowForm = ({
  workflow,
  onDone,
  onCancel,
}: {
  workflow: Workflow | null;
  onDone: (saved: Workflow) => void;
  onCancel: () => void;
}) => {
  const [draft, setDraft] = useState(() => draftOf(workflow));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateWorkflow();
  const update = useUpdateWorkflow();
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const change = (next: Partial<WorkflowDraft>) => setDraft((current) => ({ ...current, ...next }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const checked = bodyOf(draft);
    if (!checked.body) {
      setErrors(checked.errors);
      if (checked.errors.steps) setFailure(checked.errors.steps);
      return;
    }
    setErrors({});
    try {
      const saved = workflow
        ? await update.mutateAsync({ id: workflow.id, patch: checked.body })
        : await create.mutateAsync(checked.body);
      toast.success(
        workflow ? `“${saved.name}” saved as version ${saved.version}` : `“${saved.name}” created`,
      );
      onDone(saved);
    } catch (cause) {
      const reference = isApiError(cause) && cause.code === 'workflows:unknown_reference';
      setFailure(
        reference
          ? `Not saved: ${errorMessage(cause)} Fix the reference and save again.`
          : `Not saved: ${errorMessage(cause)}`,
      );
    }
  };

  return (
    <form ref={formRef} noValidate className="grid gap-5" onSubmit={(event) => void submit(event)}>
      <TextField
        label="Name"
        error={errors.name}
        maxLength={workflowLimits.name}
        value={draft.name}
        placeholder="e.g. Morning news digest"
        onChange={(name) => change({ name })}
      />
      <TextAreaField
        label="Description"
        error={errors.description}
        hint="What it is for."
        rows={2}
        maxLength={workflowLimits.description}
        value={draft.description}
        onChange={(description) => change({ description })}
      />

      <section aria-labelledby="inputs-title" className="grid gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id="inputs-title" className="flex-1 text-sm font-semibold">
            Inputs
          </h3>
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={draft.inputs.length >= workflowLimits.inputs}
            onClick={() => change({ inputs: [...draft.inputs, newInput(draft.inputs)] })}
          >
            <Plus aria-hidden="true" /> Add input
          </Button>
        </div>
        <p className="-mt-2 text-xs text-muted-foreground">
          What each run is given. Steps use them as {'{{inputs.name}}'}.
        </p>
        {draft.inputs.length > 0 ? (
          <ul aria-label="Inputs" className="grid gap-2">
            {draft.inputs.map((input, index) => (
              <InputRow
                key={input.key}
                input={input}
                index={index}
                errors={errors}
                onChange={(next) =>
                  change({ inputs: draft.inputs.map((i) => (i.key === input.key ? next : i)) })
                }
                onRemove={() => change({ inputs: draft.inputs.filter((i) => i.key !== input.key) })}
              />
            ))}
          </ul>
        ) : null}
      </section>

      <section aria-labelledby="steps-title" className="grid gap-3">
        <h3 id="steps-title" className="text-sm font-semibold">
          Steps
        </h3>
        <p className="-mt-2 text-xs text-muted-foreground">
          They run in order, top to bottom. A step uses the output of a step above it as{' '}
          {'{{steps.id.output}}'}; a condition skips the rest unless it holds.
        </p>
        {draft.steps.length === 0 ? (
          <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
            No steps yet. Add a prompt step to start: it sends a prompt to a model and passes its
            answer on.
          </p>
        ) : (
          <ol aria-label="Steps" className="grid gap-3">
            {draft.steps.map((step, index) => (
              <StepEditor
                key={step.key}
                step={step}
                index={index}
                count={draft.steps.length}
                scope={scopeOf(draft.inputs, draft.steps, index)}
                errors={errors}
                onChange={(next) =>
                  change({ steps: draft.steps.map((s) => (s.key === step.key ? next : s)) })
                }
                onMove={(by) => change({ steps: moveItem(draft.steps, index, by) })}
                onRemove={() => change({ steps: draft.steps.filter((s) => s.key !== step.key) })}
              />
            ))}
          </ol>
        )}
        <div role="group" aria-label="Add a step" className="flex flex-wrap items-center gap-2">
          <span className="text-sm text-muted-foreground">Add a step:</span>
          {workflowStepKinds.map((kind) => (
            <Button
              key={kind}
              type="button"
              variant="outline"
              size="sm"
              disabled={draft.steps.length >= workflowLimits.steps}
              onClick={() =>
                change({ steps: [...draft.steps, newStep(kind, draft.steps, defaultAiProvider)] })
              }
            >
              <Plus aria-hidden="true" /> {stepKindLabels[kind]}
            </Button>
          ))}
        </div>
      </section>

      <DryRun draft={draft} />

      <p className="text-xs text-muted-foreground">
        Each save is a new version; runs record the version they ran, and older versions can be
        restored from the workflow’s history.
      </p>
      <FormActions
        error={failure}
        onCancel={onCancel}
        submitLabel={workflow ? 'Save' : 'Create workflow'}
        submitDisabled={create.isPending || update.isPending}
      />
    </form>
  );
};

/** Creates a workflow, or edits one. */
export const WorkflowEditorDialog = ({
  open,
  workflow,
  onClose,
}: {
  open: boolean;
  workflow: Workflow | null;
  onClose: () => void;
}) => (
  <EditorDialog
    open={open}
    item={workflow}
    newTitle="New workflow"
    onClose={onClose}
    className="max-w-4xl"
  >
    {(item) => <WorkflowForm workflow={item} onDone={onClose} onCancel={onClose} />}
  </EditorDialog>
);

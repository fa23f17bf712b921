import { Play } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { Workflow } from '@chorus/shared/api/workflows';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { errorMessage } from '@/lib/api-error';
import {
  initialInputValues,
  inputValuesOf,
  WorkflowInputsFields,
} from '@/lib/workflows/workflow-inputs-fields';
import { useStartWorkflowRun } from '../api/workflows';

const StartForm = ({
  workflow,
  onStarted,
  onCancel,
}: {
  workflow: Workflow;
  onStarted: (runId: string) => void;
  onCancel: () => void;
}) => {
  const [values, setValues] = useState(() => initialInputValues(workflow.inputs));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const start = useStartWorkflowRun();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const given = inputValuesOf(workflow.inputs, values);
    setErrors(given.errors);
    if (Object.keys(given.errors).length > 0) return;
    start.mutate(
      { workflow_id: workflow.id, inputs: given.values },
      {
        onSuccess: (run) => onStarted(run.id),
        onError: (error) => setFailure(`The run did not start: ${errorMessage(error)}`),
      },
    );
  };
  return (
    <form noValidate className="grid gap-4" onSubmit={submit}>
      <WorkflowInputsFields
        inputs={workflow.inputs}
        values={values}
        errors={errors}
        onChange={setValues}
      />
      <p className="text-xs text-muted-foreground">
        Runs version {workflow.version} in the background; its steps show live as they finish.
      </p>
      <FormActions
        error={failure}
        onCancel={onCancel}
        submitDisabled={start.isPending}
        submitLabel={
          <>
            <Play aria-hidden="true" /> {start.isPending ? 'Starting…' : 'Start run'}
          </>
        }
      />
    </form>
  );
};

/** Asks for a workflow's inputs, then starts a run. */
export const StartRunDialog = ({
  workflow,
  onStarted,
  onClose,
}: {
  workflow: Workflow | null;
  onStarted: (runId: string) => void;
  onClose: () => void;
}) => (
  <Dialog
    open={workflow !== null}
    title={workflow ? `Run “${workflow.name}”` : 'Run'}
    onClose={onClose}
  >
    {workflow ? (
      <StartForm key={workflow.id} workflow={workflow} onStarted={onStarted} onCancel={onClose} />
    ) : null}
  </Dialog>
);

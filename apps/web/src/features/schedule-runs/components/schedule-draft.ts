import {
  createScheduleSchema,
  type CreateSchedule,
  type Schedule,
  type ScheduleTarget,
} from '@chorus/shared/api/schedules';
import type { Workflow } from '@chorus/shared/api/workflows';
import type { ProviderId } from '@chorus/shared/providers';
import {
  initialInputValues,
  inputValuesOf,
  type InputValues,
} from '@/lib/workflows/workflow-inputs-fields';

export type TargetKind = ScheduleTarget['kind'];

export const targetKindLabels: Record<TargetKind, string> = {
  prompt: 'A saved prompt',
  scenario: 'A scenario',
  agent: 'An agent task',
  workflow: 'A workflow',
};

/** The form's fields as typed; each target kind keeps what was picked for it. */
export type ScheduleDraft = {
  name: string;
  kind: TargetKind;
  promptId: string;
  variables: Record<string, string>;
  provider: ProviderId;
  /** '' for the provider's default model. */
  model: string;
  scenarioId: string;
  agentId: string;
  task: string;
  workflowId: string;
  workflowInputs: InputValues;
  /** '' follows the latest version. */
  version: string;
  cron: string;
  timeZone: string;
  missed: Schedule['missed'];
  emailStarted: boolean;
  emailCompleted: boolean;
  emailFailed: boolean;
};

export type DraftField = 'name' | 'target' | 'cron' | 'timeZone' | 'task' | 'variables';
export type DraftErrors = Partial<Record<DraftField, string>> & {
  inputs?: Record<string, string>;
};

export const draftOf = (
  schedule: Schedule | null,
  defaults: { provider: ProviderId; timeZone: string },
): ScheduleDraft => {
  const target = schedule?.target;
  return {
    name: schedule?.name ?? '',
    kind: target?.kind ?? 'prompt',
    promptId: target?.kind === 'prompt' ? target.prompt_id : '',
    variables: target?.kind === 'prompt' ? target.variables : {},
    provider: target?.kind === 'prompt' ? target.provider : defaults.provider,
    model: target?.kind === 'prompt' ? (target.model ?? '') : '',
    scenarioId: target?.kind === 'scenario' ? target.scenario_id : '',
    agentId: target?.kind === 'agent' ? target.agent_id : '',
    task: target?.kind === 'agent' ? target.task : '',
    workflowId: target?.kind === 'workflow' ? target.workflow_id : '',
    workflowInputs:
      target?.kind === 'workflow'
        ? Object.fromEntries(
            Object.entries(target.inputs).map(([key, value]) => [
              key,
              typeof value === 'boolean' ? value : String(value),
            ]),
          )
        : {},
    version: target?.kind === 'workflow' && target.version !== null ? String(target.version) : '',
    cron: schedule?.cron ?? '0 9 * * 1-5',
    timeZone: schedule?.time_zone ?? defaults.timeZone,
    missed: schedule?.missed ?? 'skip',
    emailStarted: schedule?.email_started ?? false,
    emailCompleted: schedule?.email_completed ?? true,
    emailFailed: schedule?.email_failed ?? true,
  };
};

const targetOf = (
  draft: ScheduleDraft,
  workflow: Workflow | undefined,
): { target: unknown; inputErrors: Record<string, string> } => {
  switch (draft.kind) {
    case 'prompt':
      return {
        target: {
          kind: 'prompt',
          prompt_id: draft.promptId,
          variables: Object.fromEntries(
            Object.entries(draft.variables).filter(([, value]) => value.trim() !== ''),
          ),
          provider: draft.provider,
          model: draft.model === '' ? null : draft.model,
        },
        inputErrors: {},
      };
    case 'scenario':
      return { target: { kind: 'scenario', scenario_id: draft.scenarioId }, inputErrors: {} };
    case 'agent':
      return {
        target: { kind: 'agent', agent_id: draft.agentId, task: draft.task },
        inputErrors: {},
      };
    case 'workflow': {
      const inputs = workflow?.inputs ?? [];
      const given = inputValuesOf(inputs, {
        ...initialInputValues(inputs),
        ...draft.workflowInputs,
      });
      return {
        target: {
          kind: 'workflow',
          workflow_id: draft.workflowId,
          inputs: given.values,
          version: draft.version === '' ? null : Number(draft.version),
        },
        inputErrors: given.errors,
      };
    }
  }
};

/**
 * The request body for the draft, checked against the contract in the browser first: the same
 * messages the server would give, beside each field.
 */
export const bodyOf = (
  draft: ScheduleDraft,
  workflow: Workflow | undefined,
): { body: CreateSchedule; errors: null } | { body: null; errors: DraftErrors } => {
  const { target, inputErrors } = targetOf(draft, workflow);
  const parsed = createScheduleSchema.safeParse({
    name: draft.name,
    target,
    cron: draft.cron,
    time_zone: draft.timeZone,
    missed: draft.missed,
    email_started: draft.emailStarted,
    email_completed: draft.emailCompleted,
    email_failed: draft.emailFailed,
  });
  const errors: DraftErrors = {};
  if (Object.keys(inputErrors).length > 0) errors.inputs = inputErrors;
  if (parsed.success && !errors.inputs) return { body: parsed.data, errors: null };
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const [area, field] = issue.path;
    const place: DraftField =
      area === 'target'
        ? field === 'task'
          ? 'task'
          : field === 'variables'
            ? 'variables'
            : 'target'
        : area === 'cron'
          ? 'cron'
          : area === 'time_zone'
            ? 'timeZone'
            : 'name';
    errors[place] ??= issue.message;
  }
  return { body: null, errors };
};

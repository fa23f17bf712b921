import {
  createWorkflowSchema,
  type CreateWorkflow,
  type Workflow,
  type WorkflowInput,
  type WorkflowStep,
  type WorkflowStepKind,
} from '@chorus/shared/api/workflows';
import type { ProviderId } from '@chorus/shared/providers';

type WorkflowBody = ReturnType<typeof createWorkflowSchema.parse>;

/** A step as edited, with a key of its own: its id can be changed while it is edited. */
export type DraftStep = WorkflowStep & { key: string };

/** An input as edited: its default stays text until sent. */
export type DraftInput = Omit<WorkflowInput, 'default'> & { key: string; defaultText: string };

export type WorkflowDraft = {
  name: string;
  description: string;
  inputs: DraftInput[];
  steps: DraftStep[];
};

/** Errors by place: `name`, `steps`, `inputs.<key>.name`, `steps.<key>.prompt`… */
export type DraftErrors = Record<string, string>;

export const stepKindLabels: Record<WorkflowStepKind, string> = {
  prompt: 'Prompt',
  knowledge_search: 'Knowledge search',
  http_tool: 'HTTP tool',
  condition: 'Condition',
  transform: 'Transform',
};

const idStems: Record<WorkflowStepKind, string> = {
  prompt: 'prompt',
  knowledge_search: 'search',
  http_tool: 'tool',
  condition: 'check',
  transform: 'transform',
};

let keys = 0;
const nextKey = () => `k${++keys}`;

/** The first free id for a new step of this kind: `prompt_1`, `prompt_2`… */
export const freeStepId = (kind: WorkflowStepKind, steps: Pick<WorkflowStep, 'id'>[]): string => {
  const taken = new Set(steps.map((step) => step.id));
  let n = 1;
  while (taken.has(`${idStems[kind]}_${n}`)) n += 1;
  return `${idStems[kind]}_${n}`;
};

export const newStep = (
  kind: WorkflowStepKind,
  steps: Pick<WorkflowStep, 'id'>[],
  provider: ProviderId,
): DraftStep => {
  const base = { key: nextKey(), id: freeStepId(kind, steps), name: '' };
  switch (kind) {
    case 'prompt':
      return {
        ...base,
        kind,
        provider,
        model: null,
        custom_ai_id: null,
        agent_id: null,
        system: '',
        prompt: '',
        temperature: null,
      };
    case 'knowledge_search':
      return { ...base, kind, knowledge_base_ids: [], query: '', top_k: 5 };
    case 'http_tool':
      return { ...base, kind, tool_id: '', input: {} };
    case 'condition':
      return { ...base, kind, expression: '' };
    case 'transform':
      return { ...base, kind, mode: 'template', template: '', path: '' };
  }
};

export const newInput = (inputs: Pick<WorkflowInput, 'name'>[]): DraftInput => {
  const taken = new Set(inputs.map((input) => input.name));
  let n = 1;
  while (taken.has(n === 1 ? 'topic' : `input_${n}`)) n += 1;
  return {
    key: nextKey(),
    name: n === 1 ? 'topic' : `input_${n}`,
    label: '',
    type: 'text',
    required: true,
    defaultText: '',
  };
};

export const draftOf = (workflow: Workflow | null): WorkflowDraft => ({
  name: workflow?.name ?? '',
  description: workflow?.description ?? '',
  inputs: (workflow?.inputs ?? []).map(({ default: value, ...input }) => ({
    ...input,
    key: nextKey(),
    defaultText: value === null ? '' : String(value),
  })),
  steps: (workflow?.steps ?? []).map((step) => ({ ...step, key: nextKey() })),
});

/** Moves the item at `from` by one place up (-1) or down (+1); the same list at an edge. */
export const moveItem = <T>(items: T[], from: number, by: -1 | 1): T[] => {
  const to = from + by;
  if (to < 0 || to >= items.length) return items;
  const next = [...items];
  [next[from], next[to]] = [next[to]!, next[from]!];
  return next;
};

const defaultOf = (input: DraftInput): WorkflowInput['default'] => {
  const text = input.defaultText;
  if (text.trim() === '') return null;
  if (input.type === 'number') return Number(text.trim());
  if (input.type === 'boolean') return text.trim() === 'true';
  return text;
};

const stepOf = (step: DraftStep): WorkflowStep => {
  const { key: _key, ...rest } = step;
  return rest;
};

const inputOf = (input: DraftInput): WorkflowInput => {
  const { key: _key, defaultText: _text, ...rest } = input;
  return { ...rest, default: defaultOf(input) };
};

/** The draft's inputs as a run takes them. */
export const inputsOf = (draft: WorkflowDraft): WorkflowInput[] => draft.inputs.map(inputOf);

/** The request body for the draft, unchecked. */
export const rawBodyOf = (draft: WorkflowDraft): CreateWorkflow => ({
  name: draft.name,
  description: draft.description,
  inputs: draft.inputs.map(inputOf),
  steps: draft.steps.map(stepOf),
});

/**
 * The draft checked against the contract in the browser first: the same messages the server
 * would give, each placed beside its field.
 */
export const bodyOf = (
  draft: WorkflowDraft,
): { body: WorkflowBody; errors: null } | { body: null; errors: DraftErrors } => {
  const parsed = createWorkflowSchema.safeParse(rawBodyOf(draft));
  if (parsed.success) return { body: parsed.data, errors: null };
  const errors: DraftErrors = {};
  for (const issue of parsed.error.issues) {
    const [area, index, field] = issue.path;
    let place = String(area ?? 'name');
    if ((area === 'inputs' || area === 'steps') && typeof index === 'number') {
      const item = area === 'inputs' ? draft.inputs[index] : draft.steps[index];
      place = `${area}.${item?.key ?? index}.${String(field ?? '')}`;
    }
    errors[place] ??= issue.message;
  }
  return { body: null, errors };
};

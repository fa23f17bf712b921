import { messageFor } from '@chorus/shared/error-catalogue';
import type { WorkflowProblem, WorkflowStep } from '@chorus/shared/api/workflows';
import { AgentsRepository } from '../db/repositories/agents.ts';
import { CustomAisRepository } from '../db/repositories/custom-ais.ts';
import { HttpToolsRepository } from '../db/repositories/http-tools.ts';
import { KnowledgeRepository } from '../db/repositories/knowledge.ts';
import type { WorkflowFields } from '../db/repositories/workflows.ts';
import type { Deps } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';
import { isUuid } from '../http/uuid.ts';
import { parseCondition } from './condition.ts';
import { references } from './template.ts';

/** A save refused: the code, and which step and field (the contract's `details`). */
export type WorkflowSaveProblem = WorkflowProblem & {
  code:
    | 'workflows:unknown_reference'
    | 'workflows:duplicate_step'
    | 'workflows:bad_condition'
    | 'workflows:bad_step';
};

/** The template fields of a step, by the name the editor shows for each. */
export const templatesOf = (step: WorkflowStep): [field: string, text: string][] => {
  switch (step.kind) {
    case 'prompt':
      return [
        ['system', step.system],
        ['prompt', step.prompt],
      ];
    case 'knowledge_search':
      return [['query', step.query]];
    case 'http_tool':
      return Object.entries(step.input).map(([name, text]) => [`input.${name}`, text]);
    case 'transform':
      return [['template', step.template]];
    case 'condition':
      return [];
  }
};

const unknownReference = (
  step: string,
  field: string,
  reference: string,
  why: string,
): WorkflowSaveProblem => ({
  code: 'workflows:unknown_reference',
  step_id: step,
  field,
  message: messageFor('workflows:unknown_reference', { step, reference, why }),
});

const badStep = (step: string, field: string, reason: string): WorkflowSaveProblem => ({
  code: 'workflows:bad_step',
  step_id: step,
  field,
  message: messageFor('workflows:bad_step', { step, reason }),
});

/**
 * What must hold of a workflow before it is saved or dry-run, without the database: step ids
 * unique, prompt steps pointed at a model, conditions that parse, and every reference naming an
 * input or an EARLIER step. The first problem, or null.
 */
export const findProblem = (fields: WorkflowFields): WorkflowSaveProblem | null => {
  const inputs = new Set(fields.inputs.map((i) => i.name));
  const earlier = new Set<string>();
  const seen = new Set<string>();
  for (const step of fields.steps) {
    if (seen.has(step.id)) {
      return {
        code: 'workflows:duplicate_step',
        step_id: step.id,
        field: 'id',
        message: messageFor('workflows:duplicate_step', { step: step.id }),
      };
    }
    seen.add(step.id);
  }
  for (const step of fields.steps) {
    if (step.kind === 'prompt') {
      if (step.custom_ai_id && step.agent_id) {
        return badStep(step.id, 'agent_id', 'pick a custom AI or an agent, not both');
      }
      if (!step.provider && !step.custom_ai_id && !step.agent_id) {
        return badStep(step.id, 'provider', 'pick a provider and model, a custom AI or an agent');
      }
    }
    for (const [field, text] of templatesOf(step)) {
      for (const ref of references(text)) {
        if (ref.kind === 'unknown') {
          return unknownReference(
            step.id,
            field,
            ref.raw,
            'that is not a reference; use {{inputs.name}} or {{steps.id.output}}',
          );
        }
        if (ref.kind === 'input' && !inputs.has(ref.name)) {
          return unknownReference(step.id, field, ref.raw, `no input is called ${ref.name}`);
        }
        if (ref.kind === 'step' && !earlier.has(ref.stepId)) {
          return unknownReference(
            step.id,
            field,
            ref.raw,
            ref.stepId === step.id
              ? 'a step cannot read its own output'
              : `no earlier step is called ${ref.stepId}`,
          );
        }
      }
    }
    if (step.kind === 'condition') {
      const parsed = parseCondition(step.expression);
      if (!parsed.ok) {
        return {
          code: 'workflows:bad_condition',
          step_id: step.id,
          field: 'expression',
          message: messageFor('workflows:bad_condition', { step: step.id, reason: parsed.reason }),
        };
      }
      const input = parsed.references.inputs.find((name) => !inputs.has(name));
      if (input !== undefined) {
        return unknownReference(
          step.id,
          'expression',
          `inputs.${input}`,
          `no input is called ${input}`,
        );
      }
      const other = parsed.references.steps.find((id) => !earlier.has(id));
      if (other !== undefined) {
        return unknownReference(
          step.id,
          'expression',
          `steps.${other}`,
          `no earlier step is called ${other}`,
        );
      }
    }
    earlier.add(step.id);
  }
  return null;
};

/**
 * Custom AIs, agents, knowledge bases and HTTP tools a workflow names must be the user's own:
 * otherwise the 404 of each (as their own APIs answer).
 */
export const checkOwnership = async (
  deps: Deps,
  userId: string,
  steps: readonly WorkflowStep[],
): Promise<void> => {
  const db = deps.database.db;
  const customAis = new CustomAisRepository(db, userId);
  const agents = new AgentsRepository(db, userId);
  const knowledge = new KnowledgeRepository(db, userId);
  const tools = new HttpToolsRepository(db, userId, deps.box);
  for (const step of steps) {
    if (step.kind === 'prompt') {
      if (step.custom_ai_id && !(await customAis.get(step.custom_ai_id))) {
        throw new ApiError(404, 'custom_ais:not_found');
      }
      if (step.agent_id && !(await agents.get(step.agent_id))) {
        throw new ApiError(404, 'agents:not_found');
      }
    } else if (step.kind === 'knowledge_search') {
      const ids = [...new Set(step.knowledge_base_ids.map((id) => id.toLowerCase()))];
      if (!ids.every(isUuid) || (await knowledge.ownedBaseIds(ids)).length !== ids.length) {
        throw new ApiError(404, 'knowledge:not_found');
      }
    } else if (step.kind === 'http_tool' && !(await tools.get(step.tool_id))) {
      throw new ApiError(404, 'tools:not_found');
    }
  }
};

/** The 400 body of a save or dry run refused for its content: the step and field in `details`. */
export const refusalBody = (problem: WorkflowSaveProblem) => ({
  error: problem.message,
  code: problem.code,
  details: { step_id: problem.step_id, field: problem.field, message: problem.message },
});

/**
 * The content check (a problem to answer as a 400), then whether what the steps name is the
 * user's (404s thrown). Saves, restores and dry runs all go through it.
 */
export const checkWorkflow = async (
  deps: Deps,
  userId: string,
  fields: WorkflowFields,
): Promise<WorkflowSaveProblem | null> => {
  const problem = findProblem(fields);
  if (problem) return problem;
  await checkOwnership(deps, userId, fields.steps);
  return null;
};

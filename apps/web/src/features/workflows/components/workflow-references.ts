import { templateVariables } from '@chorus/shared/template';
import type { WorkflowInput, WorkflowStep } from '@chorus/shared/api/workflows';

// The rules the server applies at save time, checked as the user types: a step may use the
// workflow's inputs and the outputs of the steps before it, nothing else.

/** What a step may refer to: the inputs' names and the ids of the steps before it. */
export type Scope = { inputs: string[]; steps: string[] };

export const scopeOf = (
  inputs: Pick<WorkflowInput, 'name'>[],
  steps: Pick<WorkflowStep, 'id'>[],
  index: number,
): Scope => ({
  inputs: inputs.map((input) => input.name).filter(Boolean),
  steps: steps.slice(0, index).map((step) => step.id),
});

const inputRef = /^inputs\.([A-Za-z_]\w*)$/;
const stepRef = /^steps\.([a-z][a-z0-9_]*)\.output(?:\.[\w.-]+)?$/;

/** Why a `{{name}}` in a template is not known, or null when it is. */
const problemOf = (name: string, scope: Scope): string | null => {
  const input = inputRef.exec(name);
  if (input) {
    return scope.inputs.includes(input[1]!)
      ? null
      : `{{${name}}} is not an input of this workflow: add the input “${input[1]}” first.`;
  }
  const step = stepRef.exec(name);
  if (step) {
    return scope.steps.includes(step[1]!)
      ? null
      : `{{${name}}}: “${step[1]}” is not a step before this one. A step can use only the outputs of the steps above it.`;
  }
  return `{{${name}}} is not a variable here: use {{inputs.name}} or {{steps.id.output}}.`;
};

/** A problem per unknown `{{…}}` reference in a template, in order. */
export const templateProblems = (text: string, scope: Scope): string[] =>
  templateVariables(text)
    .map((variable) => problemOf(variable.name, scope))
    .filter((problem): problem is string => problem !== null);

const celRef = /\b(inputs|steps)\.([A-Za-z_]\w*)/g;

/** A problem per unknown `inputs.x` or `steps.x` in a condition's CEL expression. */
export const expressionProblems = (expression: string, scope: Scope): string[] => {
  const problems = new Set<string>();
  for (const [, area, name] of expression.matchAll(celRef)) {
    if (area === 'inputs' && !scope.inputs.includes(name!)) {
      problems.add(
        `inputs.${name} is not an input of this workflow: add the input “${name}” first.`,
      );
    }
    if (area === 'steps' && !scope.steps.includes(name!)) {
      problems.add(
        `steps.${name}: “${name}” is not a step before this one. A condition can use only the outputs of the steps above it.`,
      );
    }
  }
  return [...problems];
};

/** The variables a step's template may insert, as they are written. */
export const templateChoices = (scope: Scope): string[] => [
  ...scope.inputs.map((name) => `{{inputs.${name}}}`),
  ...scope.steps.map((id) => `{{steps.${id}.output}}`),
];

/** The same, as a condition's CEL expression names them. */
export const expressionChoices = (scope: Scope): string[] => [
  ...scope.inputs.map((name) => `inputs.${name}`),
  ...scope.steps.map((id) => `steps.${id}.output`),
];

/** Every problem of every template of a step, by the field it is in. */
export const stepProblems = (step: WorkflowStep, scope: Scope): Record<string, string[]> => {
  switch (step.kind) {
    case 'prompt':
      return {
        system: templateProblems(step.system, scope),
        prompt: templateProblems(step.prompt, scope),
      };
    case 'knowledge_search':
      return { query: templateProblems(step.query, scope) };
    case 'http_tool':
      return Object.fromEntries(
        Object.entries(step.input).map(([name, text]) => [
          `input.${name}`,
          templateProblems(text, scope),
        ]),
      );
    case 'condition':
      return { expression: expressionProblems(step.expression, scope) };
    case 'transform':
      return { template: templateProblems(step.template, scope) };
  }
};

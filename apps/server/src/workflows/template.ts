import { inputNamePattern, stepIdPattern } from '@chorus/shared/api/workflows';

/**
 * Workflow templates (issue 19, ARCHITECTURE §11 "user content is data"): logic-less
 * substitution of `{{inputs.name}}`, `{{steps.<id>.output}}` and `{{steps.<id>.output.a.0}}`,
 * found by a plain regular-expression scan. Nothing in a template is ever run.
 */

export type TemplateReference =
  | { raw: string; kind: 'input'; name: string }
  | { raw: string; kind: 'step'; stepId: string; path: string[] }
  | { raw: string; kind: 'unknown' };

/** What a template may read: the run's inputs and the outputs of the steps done so far. */
export type TemplateScope = {
  inputs: Record<string, unknown>;
  steps: Record<string, { output: unknown }>;
};

/** A reference that names nothing in scope; its message says which and why. */
export class TemplateError extends Error {
  override name = 'TemplateError';
  constructor(
    readonly reference: string,
    message: string,
  ) {
    super(message);
  }
}

const placeholder = /\{\{([^{}]*)\}\}/g;
const pathSegment = /^[A-Za-z0-9_-]{1,100}$/;

const parseReference = (inner: string): TemplateReference => {
  const text = inner.trim();
  const raw = `{{${text}}}`;
  const parts = text.split('.');
  if (parts[0] === 'inputs' && parts.length === 2 && inputNamePattern.test(parts[1]!)) {
    return { raw, kind: 'input', name: parts[1]! };
  }
  if (
    parts[0] === 'steps' &&
    parts.length >= 3 &&
    stepIdPattern.test(parts[1]!) &&
    parts[2] === 'output' &&
    parts.slice(3).every((p) => pathSegment.test(p))
  ) {
    return { raw, kind: 'step', stepId: parts[1]!, path: parts.slice(3) };
  }
  return { raw, kind: 'unknown' };
};

/** Every `{{…}}` of a template, in order, for checks at save time. */
export const references = (template: string): TemplateReference[] =>
  [...template.matchAll(placeholder)].map((m) => parseReference(m[1] ?? ''));

/** A model's JSON reply arrives as text: a path into it reads the JSON it holds. */
const asJson = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
};

/** The value at a dotted path (`items.0.name`); undefined when the path leads nowhere. */
export const valueAtPath = (value: unknown, path: readonly string[]): unknown => {
  let at: unknown = path.length ? asJson(value) : value;
  for (const key of path) {
    if (Array.isArray(at) && /^\d+$/.test(key)) at = at[Number(key)];
    else if (at !== null && typeof at === 'object' && !Array.isArray(at) && Object.hasOwn(at, key))
      at = (at as Record<string, unknown>)[key];
    else return undefined;
  }
  return at;
};

/** Text as it is; anything else as JSON. */
export const asText = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? '');

const resolve = (ref: TemplateReference, scope: TemplateScope): unknown => {
  if (ref.kind === 'input') {
    if (!Object.hasOwn(scope.inputs, ref.name)) {
      throw new TemplateError(ref.raw, `${ref.raw} names no input of this workflow.`);
    }
    return scope.inputs[ref.name];
  }
  if (ref.kind === 'step') {
    const step = Object.hasOwn(scope.steps, ref.stepId) ? scope.steps[ref.stepId] : undefined;
    if (!step) throw new TemplateError(ref.raw, `${ref.raw} names no earlier step.`);
    const value = valueAtPath(step.output, ref.path);
    if (value === undefined) {
      throw new TemplateError(
        ref.raw,
        `${ref.raw}: the output of step “${ref.stepId}” has no field ${ref.path.join('.')}.`,
      );
    }
    return value;
  }
  throw new TemplateError(
    ref.raw,
    `${ref.raw} is not a reference; use {{inputs.name}} or {{steps.id.output}}.`,
  );
};

/** The template with every reference replaced; throws TemplateError for one that names nothing. */
export const renderTemplate = (template: string, scope: TemplateScope): string =>
  template.replace(placeholder, (_match, inner: string) =>
    asText(resolve(parseReference(inner), scope)),
  );

import type { WorkflowInput } from '@chorus/shared/api/workflows';
import { Input } from '@/components/ui/input';
import { Field } from '@/components/forms/field';

/** What the form holds for each input: text as typed (numbers too), a tick for a boolean. */
export type InputValues = Record<string, string | boolean>;

export type InputValue = string | number | boolean;

/** The form's starting values: each input's default, else empty. */
export const initialInputValues = (
  inputs: WorkflowInput[],
  given: Record<string, unknown> = {},
): InputValues =>
  Object.fromEntries(
    inputs.map((input) => {
      const value = Object.hasOwn(given, input.name) ? given[input.name] : input.default;
      if (input.type === 'boolean') return [input.name, value === true];
      return [input.name, value === null || value === undefined ? '' : String(value)];
    }),
  );

/**
 * The values to send, typed as the workflow says, with an error per input that is missing or not
 * a number. An empty optional input is left out, for its default to apply.
 */
export const inputValuesOf = (
  inputs: WorkflowInput[],
  values: InputValues,
): { values: Record<string, InputValue>; errors: Record<string, string> } => {
  const out: Record<string, InputValue> = {};
  const errors: Record<string, string> = {};
  for (const input of inputs) {
    const value = values[input.name];
    const label = input.label || input.name;
    if (input.type === 'boolean') {
      out[input.name] = value === true;
      continue;
    }
    const text = typeof value === 'string' ? value : '';
    if (text.trim() === '') {
      if (input.required && input.default === null) errors[input.name] = `Fill in ${label}`;
      continue;
    }
    if (input.type === 'number') {
      const number = Number(text.trim());
      if (Number.isFinite(number)) out[input.name] = number;
      else errors[input.name] = `${label} must be a number`;
    } else out[input.name] = text;
  }
  return { values: out, errors };
};

/** One field per input of a workflow, typed: text, a number, or a checkbox. */
export const WorkflowInputsFields = ({
  inputs,
  values,
  errors = {},
  onChange,
}: {
  inputs: WorkflowInput[];
  values: InputValues;
  errors?: Record<string, string>;
  onChange: (values: InputValues) => void;
}) => {
  if (inputs.length === 0) {
    return <p className="text-sm text-muted-foreground">This workflow takes no inputs.</p>;
  }
  return (
    <div className="grid gap-3">
      {inputs.map((input) => {
        const label = input.label || input.name;
        const value = values[input.name];
        if (input.type === 'boolean') {
          return (
            <label key={input.name} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={value === true}
                onChange={(event) => onChange({ ...values, [input.name]: event.target.checked })}
              />
              {label}
            </label>
          );
        }
        const hint = [
          input.required ? 'Required' : 'Optional',
          input.default !== null ? `default: ${String(input.default)}` : null,
        ]
          .filter(Boolean)
          .join(' · ');
        return (
          <Field key={input.name} label={label} error={errors[input.name]} hint={hint}>
            {({ id, describedBy, invalid }) => (
              <Input
                id={id}
                inputMode={input.type === 'number' ? 'decimal' : undefined}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                value={typeof value === 'string' ? value : ''}
                placeholder={input.default !== null ? String(input.default) : undefined}
                onChange={(event) => onChange({ ...values, [input.name]: event.target.value })}
              />
            )}
          </Field>
        );
      })}
    </div>
  );
};

import { useId, type ComponentProps, type ReactNode } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';

type FieldFrame = {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
};

/** A field's label, its control (given the ids to wire up) and its error or hint under it. */
export const Field = ({
  label,
  error,
  hint,
  children,
}: FieldFrame & {
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}) => {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="grid content-start gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  );
};

type Wired = 'id' | 'value' | 'onChange' | 'aria-describedby' | 'aria-invalid';

type TextProps = { value: string; onChange: (value: string) => void };

/** A control's props that tie it to its Field: the ids, the error state, the text. */
const wire = (
  { id, describedBy, invalid }: { id: string; describedBy: string | undefined; invalid: boolean },
  { value, onChange }: TextProps,
) => ({
  id,
  'aria-describedby': describedBy,
  'aria-invalid': invalid || undefined,
  value,
  onChange: (event: { target: { value: string } }) => onChange(event.target.value),
});

/** A labelled one-line input, its error or hint wired up: `onChange` gets the text. */
export const TextField = ({
  label,
  error,
  hint,
  value,
  onChange,
  ...input
}: FieldFrame & Omit<ComponentProps<'input'>, Wired> & TextProps) => (
  <Field label={label} error={error} hint={hint}>
    {(ids) => <Input {...input} {...wire(ids, { value, onChange })} />}
  </Field>
);

/** A labelled text area, its error or hint wired up: `onChange` gets the text. */
export const TextAreaField = ({
  label,
  error,
  hint,
  value,
  onChange,
  ...textarea
}: FieldFrame & Omit<ComponentProps<'textarea'>, Wired> & TextProps) => (
  <Field label={label} error={error} hint={hint}>
    {(ids) => <Textarea {...textarea} {...wire(ids, { value, onChange })} />}
  </Field>
);

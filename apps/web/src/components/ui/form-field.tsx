import { useId, type ComponentProps } from 'react';
import { Input } from './input';
import { Label } from './label';

type FormFieldProps = Omit<ComponentProps<'input'>, 'id'> & {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
};

/** A labelled input with its error or hint wired up for screen readers. */
export const FormField = ({ label, error, hint, ...inputProps }: FormFieldProps) => {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...inputProps}
      />
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

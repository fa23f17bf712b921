import { useId, type ReactNode } from 'react';
import { Label } from '@/components/ui/label';
import type { ErrorCode } from '@chorus/shared/error-codes';
import { isApiError } from '@/lib/api-error';

/** A field's label, its control (given the ids to wire up) and its error or hint under it. */
export const Field = ({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
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

/**
 * Where a refused save belongs: the field a server error code is about (a name already taken
 * goes under the name), or null for one said above the buttons.
 */
export const fieldOfServerError = <F extends string>(
  error: unknown,
  fields: Partial<Record<ErrorCode, F>>,
): F | null => (isApiError(error) && error.code ? (fields[error.code] ?? null) : null);

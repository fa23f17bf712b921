import type { ReactNode } from 'react';
import { Button } from './button';

type FormActionsProps = {
  /** What went wrong with the last submit, said above the buttons. */
  error?: string | null | undefined;
  onCancel: () => void;
  submitLabel: ReactNode;
  /** The submit button is off: saving, or the form cannot be sent yet. */
  submitDisabled?: boolean;
  cancelVariant?: 'ghost' | 'outline';
};

/** The end of a dialog's form: its error, if any, then Cancel and the submit button. */
export const FormActions = ({
  error,
  onCancel,
  submitLabel,
  submitDisabled = false,
  cancelVariant = 'outline',
}: FormActionsProps) => (
  <>
    {error ? (
      <p role="alert" className="text-sm text-destructive">
        {error}
      </p>
    ) : null}
    <div className="flex justify-end gap-2">
      <Button type="button" variant={cancelVariant} onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" disabled={submitDisabled}>
        {submitLabel}
      </Button>
    </div>
  </>
);

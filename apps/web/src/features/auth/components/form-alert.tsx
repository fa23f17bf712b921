import { AlertCircle } from 'lucide-react';

export const FormAlert = ({ message }: { message: string | undefined }) =>
  message ? (
    <div
      role="alert"
      className="flex items-start gap-2 rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive"
    >
      <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>{message}</span>
    </div>
  ) : null;

import { useId, useRef } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';

/** Puts `text` in place of the selection of a field, and the cursor after it. */
const insertAtCursor = (
  field: HTMLTextAreaElement | HTMLInputElement | null,
  value: string,
  text: string,
  onChange: (value: string) => void,
) => {
  const start = field?.selectionStart ?? value.length;
  const end = field?.selectionEnd ?? value.length;
  onChange(value.slice(0, start) + text + value.slice(end));
  requestAnimationFrame(() => {
    if (!field) return;
    field.focus();
    field.setSelectionRange(start + text.length, start + text.length);
  });
};

/**
 * A template (or a condition) with the variables it may use as buttons that insert at the
 * cursor, and each unknown reference said under it as it is typed.
 */
export const TemplateField = ({
  label,
  value,
  onChange,
  choices,
  problems,
  error,
  hint,
  rows = 3,
  singleLine = false,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The variables that may be inserted, as written. */
  choices: string[];
  /** Unknown references found in it. */
  problems: string[];
  /** What the contract refuses (an empty prompt). */
  error?: string | undefined;
  hint?: string;
  rows?: number;
  singleLine?: boolean;
  placeholder?: string;
}) => {
  const id = useId();
  const ref = useRef<HTMLTextAreaElement & HTMLInputElement>(null);
  const invalid = problems.length > 0 || Boolean(error);
  const describedBy = [
    problems.length > 0 ? `${id}-problems` : null,
    error ? `${id}-error` : null,
    hint ? `${id}-hint` : null,
  ]
    .filter(Boolean)
    .join(' ');
  const control = {
    id,
    ref,
    value,
    placeholder,
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy || undefined,
    className: 'font-mono text-sm',
  };
  return (
    <div className="grid content-start gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {singleLine ? (
        <Input {...control} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <Textarea {...control} rows={rows} onChange={(event) => onChange(event.target.value)} />
      )}
      {choices.length > 0 ? (
        <div
          role="group"
          aria-label={`Insert a variable into ${label}`}
          className="flex flex-wrap items-center gap-1"
        >
          <span className="text-xs text-muted-foreground">Insert:</span>
          {choices.map((choice) => (
            <button
              key={choice}
              type="button"
              className="rounded border bg-muted/50 px-1.5 py-0.5 font-mono text-xs hover:bg-muted focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
              onClick={() => insertAtCursor(ref.current, value, choice, onChange)}
            >
              {choice}
            </button>
          ))}
        </div>
      ) : null}
      {problems.length > 0 ? (
        <ul id={`${id}-problems`} className="grid gap-0.5 text-sm text-destructive">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  );
};

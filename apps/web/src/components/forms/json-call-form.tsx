import { useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';
import { TextAreaField } from './field';
import { exampleInputOf, parseJsonObject } from './json-input';

/** Text as sent or received (a body, a tool's output), kept as it is and scrolled when long. */
export const CodeBlock = ({
  children,
  label,
  className,
}: {
  children: ReactNode;
  label?: string;
  className?: string;
}) => (
  <pre
    aria-label={label}
    className={cn(
      'max-h-60 overflow-auto rounded-md border bg-muted/30 p-2 font-mono text-xs break-words whitespace-pre-wrap',
      className,
    )}
  >
    {children}
  </pre>
);

/** How long a call took, after its heading. */
export const Elapsed = ({ ms }: { ms: number }) => (
  <span className="text-xs font-normal text-muted-foreground">in {ms.toLocaleString()} ms</span>
);

/**
 * One call of a tool with a JSON object the user writes (started from the input schema's
 * properties), then what came back (`children`) or why the call could not be made (`failure`).
 */
export const JsonCallForm = ({
  schema,
  intro,
  hint,
  onSend,
  pending,
  submitLabel,
  submitIcon,
  pendingLabel,
  failure,
  onClose,
  children,
}: {
  schema: Record<string, unknown>;
  intro: ReactNode;
  hint: string;
  onSend: (input: Record<string, unknown>) => void;
  pending: boolean;
  submitLabel: string;
  submitIcon: ReactNode;
  /** The spinner's name while the call is under way. */
  pendingLabel: string;
  failure: string | null;
  onClose: () => void;
  children: ReactNode;
}) => {
  const [input, setInput] = useState(() => exampleInputOf(schema));
  const [inputError, setInputError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseJsonObject(input, 'The input');
    if (parsed.error !== null) {
      setInputError(parsed.error);
      return;
    }
    setInputError(null);
    onSend(parsed.value);
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={submit}>
      {intro}
      <TextAreaField
        label="Input (JSON)"
        error={inputError ?? undefined}
        hint={hint}
        rows={6}
        spellCheck={false}
        className="font-mono text-xs"
        value={input}
        onChange={(value) => {
          setInput(value);
          setInputError(null);
        }}
      />
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? <Spinner className="size-4" label={pendingLabel} /> : submitIcon}
          {submitLabel}
        </Button>
      </div>
      {failure !== null ? (
        <p role="alert" className="text-sm text-destructive">
          {failure}
        </p>
      ) : null}
      {children}
    </form>
  );
};

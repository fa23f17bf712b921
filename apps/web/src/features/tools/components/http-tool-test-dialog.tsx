import { Send } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { HttpTool, HttpToolTestResult } from '@chorus/shared/api/tools';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { Field } from '@/lib/agents-tools/form-field';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/utils';
import { useTestHttpTool } from '../api/http-tools';
import { exampleInputOf, parseJsonObject } from './json-input';

const Block = ({ children, label }: { children: ReactNode; label: string }) => (
  <pre
    aria-label={label}
    className="max-h-60 overflow-auto rounded-md border bg-muted/30 p-2 font-mono text-xs break-words whitespace-pre-wrap"
  >
    {children}
  </pre>
);

const HeaderList = ({ headers, label }: { headers: [string, string][]; label: string }) =>
  headers.length === 0 ? (
    <p className="text-xs text-muted-foreground">No headers.</p>
  ) : (
    <dl aria-label={label} className="grid gap-0.5 font-mono text-xs">
      {headers.map(([name, value], index) => (
        <div key={`${name}:${index}`} className="flex min-w-0 gap-2">
          <dt className="shrink-0 font-medium">{name}:</dt>
          <dd className="min-w-0 break-all">{value}</dd>
        </div>
      ))}
    </dl>
  );

const statusClass = (status: number) =>
  status < 300 ? 'text-emerald-700 dark:text-emerald-400' : 'text-destructive';

/** What a test call sent and what came back, or why nothing did. */
export const TestResult = ({ result }: { result: HttpToolTestResult }) => (
  <div className="grid gap-4" aria-live="polite">
    <section aria-label="Request" className="grid gap-1.5">
      <h3 className="text-sm font-medium">Request</h3>
      <p className="font-mono text-xs break-all">
        <span className="font-semibold">{result.request.method}</span> {result.request.url}
      </p>
      <HeaderList
        label="Request headers"
        headers={result.request.headers.map((h) => [h.name, h.value])}
      />
      {result.request.body !== null ? (
        <Block label="Request body">{result.request.body}</Block>
      ) : null}
    </section>
    {result.response ? (
      <section aria-label="Response" className="grid gap-1.5">
        <h3 className="text-sm font-medium">
          Response:{' '}
          <span className={cn('font-mono', statusClass(result.response.status))}>
            {result.response.status}
          </span>{' '}
          <span className="text-xs font-normal text-muted-foreground">
            in {result.duration_ms.toLocaleString()} ms
          </span>
        </h3>
        <HeaderList label="Response headers" headers={Object.entries(result.response.headers)} />
        <Block label="Response body">{result.response.body || '(empty)'}</Block>
        {result.response.truncated ? (
          <p className="text-xs text-muted-foreground">
            The body was cut short: the model reads the same first part.
          </p>
        ) : null}
      </section>
    ) : null}
    {result.error ? (
      <section aria-label="Error" className="grid gap-1">
        <h3 className="text-sm font-medium text-destructive">No response</h3>
        <p role="alert" className="text-sm text-destructive">
          {result.error.message}
        </p>
        <p className="font-mono text-xs text-muted-foreground">{result.error.code}</p>
      </section>
    ) : null}
  </div>
);

const TestForm = ({ tool, onClose }: { tool: HttpTool; onClose: () => void }) => {
  const [input, setInput] = useState(() => exampleInputOf(tool.input_schema));
  const [inputError, setInputError] = useState<string | null>(null);
  const test = useTestHttpTool();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseJsonObject(input, 'The input');
    if (parsed.error !== null) {
      setInputError(parsed.error);
      return;
    }
    setInputError(null);
    test.mutate({ id: tool.id, input: parsed.value });
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={submit}>
      <p className="text-sm text-muted-foreground">
        Sends one real request to <code className="break-all">{tool.url_template}</code> with this
        input, as an agent would.
      </p>
      <Field
        label="Input (JSON)"
        error={inputError ?? undefined}
        hint="The values the model would give, by the properties of the input schema."
      >
        {({ id, describedBy, invalid }) => (
          <Textarea
            id={id}
            rows={6}
            spellCheck={false}
            className="font-mono text-xs"
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            value={input}
            onChange={(event) => {
              setInput(event.target.value);
              setInputError(null);
            }}
          />
        )}
      </Field>
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
        <Button type="submit" disabled={test.isPending}>
          {test.isPending ? (
            <Spinner className="size-4" label="Sending" />
          ) : (
            <Send aria-hidden="true" />
          )}
          Send request
        </Button>
      </div>
      {test.isError ? (
        <p role="alert" className="text-sm text-destructive">
          The test could not run: {errorMessage(test.error)}
        </p>
      ) : null}
      {test.data ? <TestResult result={test.data} /> : null}
    </form>
  );
};

/** One call of an HTTP tool with input the user writes, showing the request and the response. */
export const HttpToolTestDialog = ({
  tool,
  onClose,
}: {
  tool: HttpTool | null;
  onClose: () => void;
}) => (
  <Dialog
    open={tool !== null}
    title={tool ? `Test “${tool.name}”` : 'Test'}
    onClose={onClose}
    className="max-w-2xl"
  >
    {tool ? <TestForm key={tool.id} tool={tool} onClose={onClose} /> : null}
  </Dialog>
);

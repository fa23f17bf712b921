import { Send } from 'lucide-react';
import type { HttpTool, HttpToolTestResult } from '@chorus/shared/api/tools';
import { CodeBlock, Elapsed, JsonCallForm } from '@/components/forms/json-call-form';
import { Dialog } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/utils';
import { useTestHttpTool } from '../api/http-tools';

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
        <CodeBlock label="Request body">{result.request.body}</CodeBlock>
      ) : null}
    </section>
    {result.response ? (
      <section aria-label="Response" className="grid gap-1.5">
        <h3 className="text-sm font-medium">
          Response:{' '}
          <span className={cn('font-mono', statusClass(result.response.status))}>
            {result.response.status}
          </span>{' '}
          <Elapsed ms={result.duration_ms} />
        </h3>
        <HeaderList label="Response headers" headers={Object.entries(result.response.headers)} />
        <CodeBlock label="Response body">{result.response.body || '(empty)'}</CodeBlock>
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
  const test = useTestHttpTool();
  return (
    <JsonCallForm
      schema={tool.input_schema}
      intro={
        <p className="text-sm text-muted-foreground">
          Sends one real request to <code className="break-all">{tool.url_template}</code> with this
          input, as an agent would.
        </p>
      }
      hint="The values the model would give, by the properties of the input schema."
      onSend={(input) => test.mutate({ id: tool.id, input })}
      pending={test.isPending}
      submitLabel="Send request"
      submitIcon={<Send aria-hidden="true" />}
      pendingLabel="Sending"
      failure={test.isError ? `The test could not run: ${errorMessage(test.error)}` : null}
      onClose={onClose}
    >
      {test.data ? <TestResult result={test.data} /> : null}
    </JsonCallForm>
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

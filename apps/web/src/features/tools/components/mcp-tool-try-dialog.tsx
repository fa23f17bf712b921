import { Play } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { McpServer, McpTool } from '@chorus/shared/api/tools';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { Field } from '@/lib/agents-tools/form-field';
import { errorMessage } from '@/lib/api-error';
import { useCallMcpTool } from '../api/mcp-servers';
import { exampleInputOf, parseJsonObject, prettyJson } from './json-input';

export type TryTarget = { server: McpServer; tool: McpTool };

const TryForm = ({ target, onClose }: { target: TryTarget; onClose: () => void }) => {
  const [input, setInput] = useState(() => exampleInputOf(target.tool.input_schema));
  const [inputError, setInputError] = useState<string | null>(null);
  const call = useCallMcpTool();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseJsonObject(input, 'The input');
    if (parsed.error !== null) {
      setInputError(parsed.error);
      return;
    }
    setInputError(null);
    call.mutate({ serverId: target.server.id, toolId: target.tool.id, input: parsed.value });
  };

  const output = call.data?.output;
  return (
    <form noValidate className="grid gap-4" onSubmit={submit}>
      {target.tool.description ? (
        <p className="text-sm break-words whitespace-pre-wrap text-muted-foreground">
          {target.tool.description}
        </p>
      ) : null}
      <Field
        label="Input (JSON)"
        error={inputError ?? undefined}
        hint="The arguments the model would give, by the tool’s input schema."
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
        <Button type="submit" disabled={call.isPending}>
          {call.isPending ? (
            <Spinner className="size-4" label="Calling" />
          ) : (
            <Play aria-hidden="true" />
          )}
          Call the tool
        </Button>
      </div>
      {call.isError ? (
        <p role="alert" className="text-sm text-destructive">
          The call failed: {errorMessage(call.error)}
        </p>
      ) : null}
      {call.data ? (
        <section aria-label="Result" className="grid gap-1.5" aria-live="polite">
          <h3 className="text-sm font-medium">
            {call.data.is_error ? 'The tool answered with an error' : 'The tool answered'}{' '}
            <span className="text-xs font-normal text-muted-foreground">
              in {call.data.duration_ms.toLocaleString()} ms
            </span>
          </h3>
          <pre className="max-h-72 overflow-auto rounded-md border bg-muted/30 p-2 font-mono text-xs break-words whitespace-pre-wrap">
            {typeof output === 'string' ? output : prettyJson(output ?? null)}
          </pre>
        </section>
      ) : null}
    </form>
  );
};

/** Calls one MCP tool once with input the user writes. */
export const McpToolTryDialog = ({
  target,
  onClose,
}: {
  target: TryTarget | null;
  onClose: () => void;
}) => (
  <Dialog
    open={target !== null}
    title={target ? `Try “${target.tool.name}”` : 'Try'}
    onClose={onClose}
    className="max-w-2xl"
  >
    {target ? (
      <TryForm key={`${target.server.id}:${target.tool.id}`} target={target} onClose={onClose} />
    ) : null}
  </Dialog>
);

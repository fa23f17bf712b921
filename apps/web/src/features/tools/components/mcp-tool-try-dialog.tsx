import { Play } from 'lucide-react';
import type { McpServer, McpTool } from '@chorus/shared/api/tools';
import { CodeBlock, Elapsed, JsonCallForm } from '@/components/forms/json-call-form';
import { prettyJson } from '@/components/forms/json-input';
import { Dialog } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-error';
import { useCallMcpTool } from '../api/mcp-servers';

export type TryTarget = { server: McpServer; tool: McpTool };

const TryForm = ({ target, onClose }: { target: TryTarget; onClose: () => void }) => {
  const call = useCallMcpTool();
  const output = call.data?.output;
  return (
    <JsonCallForm
      schema={target.tool.input_schema}
      intro={
        target.tool.description ? (
          <p className="text-sm break-words whitespace-pre-wrap text-muted-foreground">
            {target.tool.description}
          </p>
        ) : null
      }
      hint="The arguments the model would give, by the tool’s input schema."
      onSend={(input) => call.mutate({ serverId: target.server.id, toolId: target.tool.id, input })}
      pending={call.isPending}
      submitLabel="Call the tool"
      submitIcon={<Play aria-hidden="true" />}
      pendingLabel="Calling"
      failure={call.isError ? `The call failed: ${errorMessage(call.error)}` : null}
      onClose={onClose}
    >
      {call.data ? (
        <section aria-label="Result" className="grid gap-1.5" aria-live="polite">
          <h3 className="text-sm font-medium">
            {call.data.is_error ? 'The tool answered with an error' : 'The tool answered'}{' '}
            <Elapsed ms={call.data.duration_ms} />
          </h3>
          <CodeBlock className="max-h-72">
            {typeof output === 'string' ? output : prettyJson(output ?? null)}
          </CodeBlock>
        </section>
      ) : null}
    </JsonCallForm>
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

import { Link } from 'react-router';
import {
  agentLimits,
  approvalPolicies,
  type AgentTool,
  type ApprovalPolicy,
} from '@chorus/shared/api/agents';
import { builtinTools } from '@chorus/shared/api/tools';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { useHttpTools, useMcpServers } from '@/lib/agents-tools/tool-queries';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/utils';
import { approvalLabels, defaultApproval, onceApprovalHint } from './agent-draft';

const linkClass = 'text-primary underline underline-offset-4';

type Choice = { key: string; title: string; description: string };
type Group = { label: string; choices: Choice[] };

const ToolChoice = ({
  choice,
  picked,
  full,
  onToggle,
  onApproval,
}: {
  choice: Choice;
  picked: AgentTool | undefined;
  full: boolean;
  onToggle: () => void;
  onApproval: (approval: ApprovalPolicy) => void;
}) => (
  <li className="grid gap-1.5 rounded px-1.5 py-1.5 hover:bg-muted/60 sm:grid-cols-[1fr_auto] sm:items-center">
    <label
      className={cn(
        'flex min-w-0 cursor-pointer items-start gap-2 text-sm',
        !picked && full && 'cursor-not-allowed opacity-50',
      )}
    >
      <input
        type="checkbox"
        className="mt-1"
        checked={picked !== undefined}
        disabled={!picked && full}
        onChange={onToggle}
      />
      <span className="min-w-0">
        <span className="block font-medium break-words">{choice.title}</span>
        {choice.description ? (
          <span className="line-clamp-2 block text-xs break-words text-muted-foreground">
            {choice.description}
          </span>
        ) : null}
      </span>
    </label>
    {picked ? (
      <NativeSelect
        aria-label={`Approval for ${choice.title}`}
        className="sm:w-64"
        value={picked.approval}
        onChange={(event) => onApproval(event.target.value as ApprovalPolicy)}
      >
        {approvalPolicies.map((policy) => (
          <option key={policy} value={policy}>
            {approvalLabels[policy]}
          </option>
        ))}
      </NativeSelect>
    ) : null}
    {picked?.approval === 'once' ? (
      <p className="text-xs text-muted-foreground sm:col-span-2">{onceApprovalHint}</p>
    ) : null}
  </li>
);

/**
 * The tools an agent may call, each with when a call waits for the user: the built-ins, the
 * user's HTTP tools, and the enabled tools of their MCP servers, by server.
 */
export const AgentToolsPicker = ({
  selected,
  onChange,
  error,
}: {
  selected: AgentTool[];
  onChange: (tools: AgentTool[]) => void;
  error: string | undefined;
}) => {
  const http = useHttpTools();
  const mcp = useMcpServers();
  const full = selected.length >= agentLimits.tools;

  const groups: Group[] = [
    {
      label: 'Built-in',
      choices: builtinTools.map((tool) => ({
        key: tool.key,
        title: tool.title,
        description: tool.description,
      })),
    },
  ];
  if (http.data && http.data.tools.length > 0) {
    groups.push({
      label: 'Your HTTP tools',
      choices: http.data.tools.map((tool) => ({
        key: tool.key,
        title: tool.name,
        description: tool.description,
      })),
    });
  }
  for (const server of mcp.data?.servers ?? []) {
    const enabled = server.tools.filter((tool) => tool.enabled && tool.state === 'approved');
    if (enabled.length === 0) continue;
    groups.push({
      label: `MCP: ${server.name}`,
      choices: enabled.map((tool) => ({
        key: tool.key,
        title: tool.name,
        description: tool.description,
      })),
    });
  }
  const offered = new Set(groups.flatMap((group) => group.choices.map((choice) => choice.key)));
  const loaded = !http.isPending && !mcp.isPending;
  // A tool deleted, or turned off on its server, since the agent was saved: it has to go.
  const missing = loaded ? selected.filter((tool) => !offered.has(tool.tool)) : [];

  const toggle = (key: string) =>
    onChange(
      selected.some((tool) => tool.tool === key)
        ? selected.filter((tool) => tool.tool !== key)
        : [...selected, { tool: key, approval: defaultApproval }],
    );
  const setApproval = (key: string, approval: ApprovalPolicy) =>
    onChange(selected.map((tool) => (tool.tool === key ? { ...tool, approval } : tool)));

  return (
    <fieldset className="grid gap-1.5">
      <legend className="mb-1.5 text-sm font-medium">Tools</legend>
      <p className="-mt-1 text-xs text-muted-foreground">
        What the agent may call while it answers (at most {agentLimits.tools}). For each, choose
        when a call waits for your yes in the chat. Add your own on the{' '}
        <Link to="/tools" className={linkClass}>
          Tools page
        </Link>
        .
      </p>
      <div className="grid max-h-80 gap-3 overflow-y-auto rounded-md border p-2">
        {groups.map((group) => (
          <div key={group.label} className="grid gap-1">
            <h3 className="px-1.5 text-xs font-medium text-muted-foreground uppercase">
              {group.label}
            </h3>
            <ul aria-label={group.label} className="grid gap-0.5">
              {group.choices.map((choice) => (
                <ToolChoice
                  key={choice.key}
                  choice={choice}
                  picked={selected.find((tool) => tool.tool === choice.key)}
                  full={full}
                  onToggle={() => toggle(choice.key)}
                  onApproval={(approval) => setApproval(choice.key, approval)}
                />
              ))}
            </ul>
          </div>
        ))}
        {!loaded ? <Spinner className="size-5" label="Loading your tools" /> : null}
        {http.isError || mcp.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Some of your tools could not be loaded: {errorMessage(http.error ?? mcp.error)} Close
            this dialog and open it again to retry.
          </p>
        ) : null}
        {missing.length > 0 ? (
          <div className="grid gap-1 rounded-md border border-amber-500/40 bg-amber-500/10 p-2">
            <p className="text-xs">
              These tools were deleted, turned off or changed on their server since the agent was
              saved. Remove them to save, or turn them back on under Tools:
            </p>
            <ul className="grid gap-1">
              {missing.map((tool) => (
                <li key={tool.tool} className="flex items-center gap-2 text-sm">
                  <code className="min-w-0 flex-1 truncate">{tool.tool}</code>
                  <Button variant="outline" size="sm" onClick={() => toggle(tool.tool)}>
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
      {error ? <p className="text-sm text-destructive">{error}</p> : null}
    </fieldset>
  );
};

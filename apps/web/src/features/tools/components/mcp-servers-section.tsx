import {
  AlertTriangle,
  BookOpen,
  CheckCircle2,
  ExternalLink,
  GitCompare,
  LogIn,
  Play,
  Plug,
  Plus,
  RefreshCw,
  Trash2,
} from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { McpServer, McpTool } from '@chorus/shared/api/tools';
import { DeleteConfirm } from '@/components/forms/card-list';
import { prettyJson } from '@/components/forms/json-input';
import { Button } from '@/components/ui/button';

import { TableLoadError, TableLoading } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { Spinner } from '@/components/ui/spinner';
import { useMcpServers } from '@/lib/agents-tools/tool-queries';
import { errorMessage } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import {
  useApproveMcpTool,
  useDeleteMcpServer,
  useSetMcpToolEnabled,
  useSyncMcpServer,
} from '../api/mcp-servers';
import { LineDiff } from './line-diff';
import { McpServerDialog } from './mcp-server-dialog';
import { McpToolTryDialog, type TryTarget } from './mcp-tool-try-dialog';
import { ToolsSection } from './tools-section';

const transportLabel = { 'streamable-http': 'Streamable HTTP', sse: 'SSE' } as const;

const needsSignIn = (server: McpServer) => server.last_error?.code === 'mcp:authorization_required';

/** What the server is reached with, in words (never the secret itself). */
const authLabel = (server: McpServer) => {
  if (server.auth === 'oauth') return server.token_hint ?? 'OAuth';
  return server.token_hint ? `Bearer token ${server.token_hint}` : 'No token';
};

/** Back from an OAuth sign-in (`?mcp_connected` or `?mcp_error` on /tools): a toast, once. */
const useOAuthReturn = () => {
  const [params, setParams] = useSearchParams();
  const connected = params.get('mcp_connected');
  const failed = params.get('mcp_error');
  useEffect(() => {
    if (connected === null && failed === null) return;
    if (failed !== null)
      toast.error('Signing in to the MCP server failed', { description: failed });
    else toast.success('Signed in to the MCP server: its tools are listed below');
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('mcp_connected');
        next.delete('mcp_error');
        next.delete('mcp_error_code');
        return next;
      },
      { replace: true },
    );
  }, [connected, failed, setParams]);
};

const StatusBadge = ({ server }: { server: McpServer }) =>
  needsSignIn(server) ? (
    <span className="inline-flex items-center gap-1 rounded-full border border-amber-500/40 px-2 py-0.5 text-xs text-amber-700 dark:text-amber-400">
      <LogIn aria-hidden="true" className="size-3.5" /> Sign-in needed
    </span>
  ) : server.status === 'ok' ? (
    <span className="inline-flex items-center gap-1 rounded-full border border-emerald-500/40 px-2 py-0.5 text-xs text-emerald-700 dark:text-emerald-400">
      <CheckCircle2 aria-hidden="true" className="size-3.5" /> Connected
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 rounded-full border border-destructive/40 px-2 py-0.5 text-xs text-destructive">
      <AlertTriangle aria-hidden="true" className="size-3.5" /> Not reachable
    </span>
  );

/** The changed definition against the approved one, and the approval of exactly what was shown. */
const ChangeReview = ({ server, tool }: { server: McpServer; tool: McpTool }) => {
  const approve = useApproveMcpTool();
  if (!tool.pending) return null;
  return (
    <div
      role="region"
      aria-label={`Changes to ${tool.name}`}
      className="grid gap-3 rounded-md border border-amber-500/40 bg-amber-500/5 p-3"
    >
      <p className="text-xs">
        The server now describes this tool differently. It stays off until you approve: a changed
        description can tell the model to do something else. Removed lines are marked −, added ones
        +.
      </p>
      <LineDiff label="Description" before={tool.description} after={tool.pending.description} />
      <LineDiff
        label="Input schema"
        before={prettyJson(tool.input_schema)}
        after={prettyJson(tool.pending.input_schema)}
      />
      <div className="flex justify-end">
        <Button
          size="sm"
          disabled={approve.isPending}
          onClick={() =>
            approve.mutate(
              { serverId: server.id, toolId: tool.id, hash: tool.hash },
              {
                onSuccess: () => toast.success(`The new definition of “${tool.name}” is approved`),
                onError: (error) =>
                  toast.error(`“${tool.name}” was not approved`, {
                    description: errorMessage(error),
                  }),
              },
            )
          }
        >
          Approve the new definition
        </Button>
      </div>
    </div>
  );
};

const ToolRow = ({
  server,
  tool,
  onTry,
}: {
  server: McpServer;
  tool: McpTool;
  onTry: () => void;
}) => {
  const [reviewing, setReviewing] = useState(false);
  const toggle = useSetMcpToolEnabled();
  const usable = tool.state === 'approved';
  return (
    <li aria-label={tool.name} className="grid gap-2 px-3 py-2.5">
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-2">
            <code className="text-sm font-medium break-all">{tool.name}</code>
            {tool.state === 'removed' ? (
              <span className="rounded-full border px-2 py-0.5 text-xs text-muted-foreground">
                No longer offered by the server
              </span>
            ) : null}
          </p>
          {tool.description ? (
            <p className="line-clamp-2 text-xs break-words text-muted-foreground">
              {tool.description}
            </p>
          ) : null}
        </div>
        {tool.state === 'changed' ? (
          <Button
            variant="outline"
            size="sm"
            className="border-amber-500/60"
            aria-expanded={reviewing}
            onClick={() => setReviewing((open) => !open)}
          >
            <GitCompare aria-hidden="true" /> Changed — review
          </Button>
        ) : null}
        <Button
          variant="ghost"
          size="sm"
          disabled={!usable || !tool.enabled}
          title={usable && tool.enabled ? undefined : 'Turn the tool on to try it'}
          onClick={onTry}
        >
          <Play aria-hidden="true" /> Try
        </Button>
        <label className={cn('flex items-center gap-2 text-sm', !usable && 'opacity-50')}>
          <input
            type="checkbox"
            role="switch"
            className="size-4"
            aria-label={`Enable ${tool.name}`}
            checked={tool.enabled}
            disabled={!usable || toggle.isPending}
            onChange={(event) =>
              toggle.mutate(
                { serverId: server.id, toolId: tool.id, enabled: event.target.checked },
                {
                  onError: (error) =>
                    toast.error(`“${tool.name}” was not changed`, {
                      description: errorMessage(error),
                    }),
                },
              )
            }
          />
          <span aria-hidden="true">{tool.enabled ? 'On' : 'Off'}</span>
        </label>
      </div>
      {tool.state === 'changed' && reviewing ? <ChangeReview server={server} tool={tool} /> : null}
    </li>
  );
};

const ServerCard = ({
  server,
  onTry,
  onDelete,
}: {
  server: McpServer;
  onTry: (tool: McpTool) => void;
  onDelete: () => void;
}) => {
  const sync = useSyncMcpServer();
  const changed = server.tools.filter((tool) => tool.state === 'changed').length;
  return (
    <li aria-label={server.name} className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm">
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1">
          <h3 className="flex flex-wrap items-center gap-2 font-medium">
            <span className="break-words">{server.name}</span>
            <StatusBadge server={server} />
          </h3>
          <p className="font-mono text-xs break-all text-muted-foreground">{server.url}</p>
          <p className="text-xs text-muted-foreground">
            {server.transport ? transportLabel[server.transport] : 'Transport not known yet'} ·{' '}
            {authLabel(server)} · Tools listed {formatDateTime(server.last_synced_at, 'never')}
          </p>
        </div>
        <div className="flex gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={sync.isPending}
            onClick={() =>
              sync.mutate(server.id, {
                onSuccess: (synced) =>
                  synced.status === 'error'
                    ? toast.error(`“${server.name}” did not answer`, {
                        description: synced.last_error?.message,
                      })
                    : toast.success(`The tools of “${server.name}” are up to date`),
                onError: (error) =>
                  toast.error(`“${server.name}” could not be refreshed`, {
                    description: errorMessage(error),
                  }),
              })
            }
          >
            {sync.isPending ? (
              <Spinner className="size-4" label="Refreshing" />
            ) : (
              <RefreshCw aria-hidden="true" />
            )}
            Refresh tools
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="size-8 text-muted-foreground"
            aria-label={`Delete ${server.name}`}
            title="Delete"
            onClick={onDelete}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </div>
      {needsSignIn(server) ? (
        <div className="grid gap-2 rounded-md border border-amber-500/40 bg-amber-500/5 p-3 text-sm">
          <p>
            This server uses OAuth: sign in to it in a new tab, and its tools are listed when you
            come back.
          </p>
          {server.authorize_url ? (
            <a
              href={server.authorize_url}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex w-fit items-center gap-1.5 rounded-md border px-3 py-1.5 text-sm font-medium hover:bg-accent"
            >
              <ExternalLink aria-hidden="true" className="size-4" />
              Sign in to {server.name}
            </a>
          ) : (
            <p className="text-xs text-muted-foreground">
              The sign-in link expired. Press Refresh tools for a new one.
            </p>
          )}
        </div>
      ) : server.last_error ? (
        <div
          role="alert"
          className="rounded-md border border-destructive/40 p-2 text-sm text-destructive"
        >
          <p>{server.last_error.message}</p>
          <p className="mt-1 text-xs text-muted-foreground">
            {server.last_error.code} · Check the URL and token, then press Refresh tools. Its tools
            are not offered to agents until it answers.
          </p>
        </div>
      ) : null}
      {changed > 0 ? (
        <p className="text-xs text-amber-700 dark:text-amber-400">
          {changed === 1 ? '1 tool changed' : `${changed} tools changed`} since you approved it:
          review before it can be used again.
        </p>
      ) : null}
      {server.tools.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          The server offers no tools{server.status === 'ok' ? '' : ' that Chorus could read'}.
        </p>
      ) : (
        <ul aria-label={`Tools of ${server.name}`} className="divide-y rounded-lg border">
          {server.tools.map((tool) => (
            <ToolRow key={tool.id} server={server} tool={tool} onTry={() => onTry(tool)} />
          ))}
        </ul>
      )}
    </li>
  );
};

/** Remote MCP servers: their status, their tools (each on or off) and changes to review. */
export const McpServersSection = () => {
  useOAuthReturn();
  const list = useMcpServers();
  const [adding, setAdding] = useState(false);
  const [trying, setTrying] = useState<TryTarget | null>(null);
  const [deleting, setDeleting] = useState<McpServer | null>(null);
  const remove = useDeleteMcpServer();
  const servers = list.data?.servers ?? [];

  let body;
  if (list.isPending) body = <TableLoading label="Loading your MCP servers" />;
  else if (list.isError) body = <TableLoadError what="Your MCP servers" error={list.error} />;
  else if (servers.length === 0) {
    body = (
      <EmptyState
        icon={Plug}
        title="No MCP servers yet"
        action={
          <>
            <Button onClick={() => setAdding(true)}>
              <Plus aria-hidden="true" /> Add an MCP server
            </Button>
            <LinkButton to="/help" variant="outline">
              <BookOpen aria-hidden="true" /> Open the help center
            </LinkButton>
          </>
        }
      >
        An MCP server offers a set of ready-made tools — an issue tracker, a database, a file store.
        Add one by its URL (and a token if it needs one); Chorus lists its tools, and you choose
        which your agents may call. If a tool’s definition changes later, it waits for you to review
        the change.
      </EmptyState>
    );
  } else {
    body = (
      <ul aria-label="Your MCP servers" className="grid gap-4">
        {servers.map((server) => (
          <ServerCard
            key={server.id}
            server={server}
            onTry={(tool) => setTrying({ server, tool })}
            onDelete={() => setDeleting(server)}
          />
        ))}
      </ul>
    );
  }

  return (
    <ToolsSection
      id="mcp-servers-heading"
      title="MCP servers"
      description="Remote servers speaking the Model Context Protocol, and the tools they offer."
      action={
        servers.length > 0 ? (
          <Button onClick={() => setAdding(true)}>
            <Plus aria-hidden="true" /> Add an MCP server
          </Button>
        ) : null
      }
    >
      {body}
      <McpServerDialog
        open={adding}
        onClose={() => setAdding(false)}
        onSaved={() => setAdding(false)}
      />
      <McpToolTryDialog target={trying} onClose={() => setTrying(null)} />
      <DeleteConfirm
        item={deleting}
        confirmLabel="Delete server"
        remove={remove}
        onClose={() => setDeleting(null)}
      >
        Agents that use its tools can no longer call them, and its stored token is deleted.
      </DeleteConfirm>
    </ToolsSection>
  );
};

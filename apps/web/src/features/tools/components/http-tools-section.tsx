import { BookOpen, FlaskConical, Globe, Lock, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { HttpTool } from '@chorus/shared/api/tools';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TableLoadError, TableLoading } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { useHttpTools } from '@/lib/agents-tools/tool-queries';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useDeleteHttpTool } from '../api/http-tools';
import { HttpToolDialog } from './http-tool-dialog';
import { HttpToolTestDialog } from './http-tool-test-dialog';

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString()} ${n === 1 ? one : many}`;

const headersLabel = (tool: HttpTool) => {
  const secrets = tool.headers.filter((header) => header.secret).length;
  return `${plural(tool.headers.length, 'header', 'headers')}${secrets > 0 ? `, ${secrets} secret` : ''}`;
};

const HttpToolCard = ({
  tool,
  onTest,
  onEdit,
  onDelete,
}: {
  tool: HttpTool;
  onTest: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) => (
  <li
    aria-label={tool.name}
    className="flex flex-col gap-2 rounded-xl border bg-card p-4 shadow-sm"
  >
    <h3 className="font-mono text-sm font-medium break-all">{tool.name}</h3>
    <p className="font-mono text-xs break-all text-muted-foreground">
      <span className="font-semibold text-foreground">{tool.method}</span> {tool.url_template}
    </p>
    {tool.description ? (
      <p className="line-clamp-3 text-sm break-words text-muted-foreground">{tool.description}</p>
    ) : null}
    <p className="mt-auto inline-flex items-center gap-1 text-xs text-muted-foreground">
      <Lock aria-hidden="true" className="size-3.5" />
      {headersLabel(tool)}
    </p>
    <div className="flex flex-wrap gap-2">
      <Button size="sm" onClick={onTest}>
        <FlaskConical aria-hidden="true" /> Test
      </Button>
      <Button variant="outline" size="sm" onClick={onEdit}>
        <Pencil aria-hidden="true" /> Edit
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="ml-auto size-8 text-muted-foreground"
        aria-label="Delete"
        title="Delete"
        onClick={onDelete}
      >
        <Trash2 aria-hidden="true" />
      </Button>
    </div>
  </li>
);

/** The user's HTTP tools: an endpoint, its headers and its input, that an agent may call. */
export const HttpToolsSection = () => {
  const list = useHttpTools();
  const [editing, setEditing] = useState<{ tool: HttpTool | null } | null>(null);
  const [testing, setTesting] = useState<HttpTool | null>(null);
  const [deleting, setDeleting] = useState<HttpTool | null>(null);
  const remove = useDeleteHttpTool();
  const tools = list.data?.tools ?? [];
  const openNew = () => setEditing({ tool: null });

  let body;
  if (list.isPending) body = <TableLoading label="Loading your HTTP tools" />;
  else if (list.isError) body = <TableLoadError what="Your HTTP tools" error={list.error} />;
  else if (tools.length === 0) {
    body = (
      <EmptyState
        icon={Globe}
        title="No HTTP tools yet"
        action={
          <>
            <Button onClick={openNew}>
              <Plus aria-hidden="true" /> New HTTP tool
            </Button>
            <LinkButton to="/help" variant="outline">
              <BookOpen aria-hidden="true" /> Open the help center
            </LinkButton>
          </>
        }
      >
        An HTTP tool lets an agent call an endpoint of yours: describe the URL, its headers (an API
        key is stored encrypted) and the input the model fills in as a JSON Schema. Test it here
        with a real request, then tick it in an agent’s tools.
      </EmptyState>
    );
  } else {
    body = (
      <ul aria-label="Your HTTP tools" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {tools.map((tool) => (
          <HttpToolCard
            key={tool.id}
            tool={tool}
            onTest={() => setTesting(tool)}
            onEdit={() => setEditing({ tool })}
            onDelete={() => setDeleting(tool)}
          />
        ))}
      </ul>
    );
  }

  return (
    <section aria-labelledby="http-tools-heading" className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="http-tools-heading" className="text-xl font-semibold">
            HTTP tools
          </h2>
          <p className="text-sm text-muted-foreground">
            Endpoints an agent may call, with the input it fills in.
          </p>
        </div>
        {tools.length > 0 ? (
          <Button onClick={openNew}>
            <Plus aria-hidden="true" /> New HTTP tool
          </Button>
        ) : null}
      </div>
      {body}
      <HttpToolDialog
        open={editing !== null}
        tool={editing?.tool ?? null}
        onClose={() => setEditing(null)}
        onSaved={() => setEditing(null)}
      />
      <HttpToolTestDialog tool={testing} onClose={() => setTesting(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete tool"
        destructive
        onConfirm={() => {
          const tool = deleting;
          setDeleting(null);
          if (!tool) return;
          remove.mutate(tool.id, {
            onSuccess: () => toast.success(`“${tool.name}” deleted`),
            onError: (error) =>
              toast.error(`Could not delete “${tool.name}”`, { description: errorMessage(error) }),
          });
        }}
        onCancel={() => setDeleting(null)}
      >
        Agents that use it can no longer call it, and its stored secrets are deleted.
      </ConfirmDialog>
    </section>
  );
};

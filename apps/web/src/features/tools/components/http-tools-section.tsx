import { BookOpen, FlaskConical, Globe, Lock, Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import type { HttpTool } from '@chorus/shared/api/tools';
import {
  CardDeleteButton,
  CardDescription,
  CardList,
  DeleteConfirm,
  plural,
} from '@/components/forms/card-list';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { useHttpTools } from '@/lib/agents-tools/tool-queries';
import { useDeleteHttpTool } from '../api/http-tools';
import { HttpToolDialog } from './http-tool-dialog';
import { HttpToolTestDialog } from './http-tool-test-dialog';
import { ToolsSection } from './tools-section';

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
    <CardDescription text={tool.description} />
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
      <CardDeleteButton onClick={onDelete} />
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

  const body = (
    <CardList
      list={list}
      count={tools.length}
      noun="HTTP tools"
      empty={
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
          An HTTP tool lets an agent call an endpoint of yours: describe the URL, its headers (an
          API key is stored encrypted) and the input the model fills in as a JSON Schema. Test it
          here with a real request, then tick it in an agent’s tools.
        </EmptyState>
      }
    >
      {tools.map((tool) => (
        <HttpToolCard
          key={tool.id}
          tool={tool}
          onTest={() => setTesting(tool)}
          onEdit={() => setEditing({ tool })}
          onDelete={() => setDeleting(tool)}
        />
      ))}
    </CardList>
  );

  return (
    <ToolsSection
      id="http-tools-heading"
      title="HTTP tools"
      description="Endpoints an agent may call, with the input it fills in."
      action={
        tools.length > 0 ? (
          <Button onClick={openNew}>
            <Plus aria-hidden="true" /> New HTTP tool
          </Button>
        ) : null
      }
    >
      {body}
      <HttpToolDialog
        open={editing !== null}
        tool={editing?.tool ?? null}
        onClose={() => setEditing(null)}
        onSaved={() => setEditing(null)}
      />
      <HttpToolTestDialog tool={testing} onClose={() => setTesting(null)} />
      <DeleteConfirm
        item={deleting}
        confirmLabel="Delete tool"
        remove={remove}
        onClose={() => setDeleting(null)}
      >
        Agents that use it can no longer call it, and its stored secrets are deleted.
      </DeleteConfirm>
    </ToolsSection>
  );
};

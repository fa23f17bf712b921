import { AtSign, BookOpen, Bot, History, MessageSquare, Pencil, Plus, Wrench } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import type { Agent } from '@chorus/shared/api/agents';
import {
  CardDeleteButton,
  CardDescription,
  CardFact,
  CardList,
  DeleteConfirm,
} from '@/components/forms/card-list';
import { PersonaCardHead } from '@/components/persona/persona-card';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { PageHeader } from '@/components/ui/page-header';
import { helpLinks } from '@/lib/help-links';
import { useAgents, useDeleteAgent } from '../api/agents';
import { chatWithPath, modelLabel, plural } from './agent-labels';

// /agents loads with the chat: the forms (model lists, tool pickers) come with the first open.
const AgentDialog = lazy(() => import('./agent-dialog').then((m) => ({ default: m.AgentDialog })));
const AgentHistoryDialog = lazy(() =>
  import('./agent-history-dialog').then((m) => ({ default: m.AgentHistoryDialog })),
);

const linkClass = 'text-primary underline underline-offset-4';

const AgentCard = ({
  agent,
  onEdit,
  onHistory,
  onDelete,
}: {
  agent: Agent;
  onEdit: () => void;
  onHistory: () => void;
  onDelete: () => void;
}) => (
  <li
    aria-label={agent.name}
    className="flex flex-col gap-3 rounded-xl border bg-card p-4 shadow-sm"
  >
    <PersonaCardHead name={agent.name} avatar={agent.avatar}>
      <p className="text-xs break-all text-muted-foreground">@{agent.handle}</p>
      <p className="text-xs text-muted-foreground" data-testid="agent-model">
        {modelLabel(agent)}
      </p>
    </PersonaCardHead>
    <CardDescription text={agent.description} />
    <p className="mt-auto flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground">
      <CardFact icon={Wrench}>{plural(agent.tools.length, 'tool', 'tools')}</CardFact>
      <CardFact icon={History}>Version {agent.version}</CardFact>
    </p>
    <p className="flex items-start gap-1 rounded-md bg-muted/50 px-2 py-1 text-xs text-muted-foreground">
      <AtSign aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
      <span className="min-w-0 break-words">
        Type <code className="font-medium text-foreground">@{agent.handle}</code> in any chat to
        hand it the turn.
      </span>
    </p>
    <div className="flex flex-wrap gap-2">
      <LinkButton to={chatWithPath(agent)} size="sm">
        <MessageSquare aria-hidden="true" /> Chat with it
      </LinkButton>
      <Button variant="outline" size="sm" onClick={onEdit}>
        <Pencil aria-hidden="true" /> Edit
      </Button>
      <Button variant="outline" size="sm" onClick={onHistory}>
        <History aria-hidden="true" /> History
      </Button>
      <CardDeleteButton onClick={onDelete} />
    </div>
  </li>
);

/**
 * Agents: a model with instructions, tools (each with when a call waits for the user) and
 * knowledge bases, that a chat hands its turn to with `@handle`.
 */
export const AgentsPage = () => {
  const list = useAgents();
  const [editing, setEditing] = useState<{ agent: Agent | null } | null>(null);
  const [history, setHistory] = useState<Agent | null>(null);
  const [deleting, setDeleting] = useState<Agent | null>(null);
  // Mounted from the first open on, so that closing runs the dialog's own close.
  const [dialogsWanted, setDialogsWanted] = useState({ edit: false, history: false });
  const remove = useDeleteAgent();
  const agents = list.data?.agents ?? [];
  const openEditor = (agent: Agent | null) => {
    setDialogsWanted((wanted) => ({ ...wanted, edit: true }));
    setEditing({ agent });
  };
  const openHistory = (agent: Agent) => {
    setDialogsWanted((wanted) => ({ ...wanted, history: true }));
    setHistory(agent);
  };

  const body = (
    <CardList
      list={list}
      count={agents.length}
      noun="agents"
      empty={
        <EmptyState
          icon={Bot}
          title="No agents yet"
          action={
            <>
              <Button onClick={() => openEditor(null)}>
                <Plus aria-hidden="true" /> New agent
              </Button>
              <LinkButton to="/tools" variant="outline">
                <Wrench aria-hidden="true" /> Set up tools
              </LinkButton>
              <LinkButton to={helpLinks.customAis} variant="outline">
                <BookOpen aria-hidden="true" /> Instructions and models: the guide
              </LinkButton>
            </>
          }
        >
          An agent is a model with instructions that can call tools — a calculator, a web page
          reader, your own HTTP endpoints or the tools of an MCP server — and search your knowledge
          bases, over several steps. Create one, then type its @handle in any chat to hand it the
          turn. It answers with your own provider keys, so{' '}
          <Link to="/copy-api-keys" className={linkClass}>
            add a key
          </Link>{' '}
          for the provider it uses.
        </EmptyState>
      }
    >
      {agents.map((agent) => (
        <AgentCard
          key={agent.id}
          agent={agent}
          onEdit={() => openEditor(agent)}
          onHistory={() => openHistory(agent)}
          onDelete={() => setDeleting(agent)}
        />
      ))}
    </CardList>
  );

  return (
    <div>
      <PageHeader
        title="Agents"
        description={
          <>
            Assistants that use tools and your knowledge bases over several steps, asking you before
            the calls you choose.{' '}
            <Link to="/tools" className={linkClass}>
              Manage tools
            </Link>
          </>
        }
        actions={
          agents.length > 0 ? (
            <Button onClick={() => openEditor(null)}>
              <Plus aria-hidden="true" /> New agent
            </Button>
          ) : null
        }
      />
      {body}
      <Suspense fallback={null}>
        {dialogsWanted.edit ? (
          <AgentDialog
            open={editing !== null}
            agent={editing?.agent ?? null}
            onClose={() => setEditing(null)}
            onSaved={() => setEditing(null)}
          />
        ) : null}
        {dialogsWanted.history ? (
          <AgentHistoryDialog agent={history} onClose={() => setHistory(null)} />
        ) : null}
      </Suspense>
      <DeleteConfirm
        item={deleting}
        confirmLabel="Delete agent"
        remove={remove}
        onClose={() => setDeleting(null)}
      >
        Its history goes with it, and @{deleting?.handle ?? ''} no longer answers in chats. Chats it
        answered keep their messages; its tools and knowledge bases are not deleted.
      </DeleteConfirm>
    </div>
  );
};

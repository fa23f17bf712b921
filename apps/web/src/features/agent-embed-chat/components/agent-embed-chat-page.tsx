import {
  BookOpen,
  Bot,
  ExternalLink,
  MessageSquareCode,
  Pencil,
  Plus,
  Sparkles,
} from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { widgetLimits, type Widget, type WidgetWithSecret } from '@chorus/shared/api/widgets';
import { CardDeleteButton, CardList, DeleteConfirm } from '@/components/forms/card-list';
import { Button } from '@/components/ui/button';
import { TableLoading } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { PageHeader } from '@/components/ui/page-header';
import { helpLinks } from '@/lib/help-links';
import { useCustomAis } from '@/lib/queries/custom-ais';
import { useAgentChoices } from '@/lib/workflows/workflow-queries';
import { useDeleteWidget, useWidget, useWidgets } from '../api/widgets';
import { BudgetBar, EnabledSwitch, OriginsLine, TargetLine } from './widget-parts';
import { WidgetSecretDialog } from './widget-secret-dialog';

// The list comes first; the form, the detail (preview, sessions, usage) with their first open.
const WidgetEditorDialog = lazy(() =>
  import('./widget-editor-dialog').then((m) => ({ default: m.WidgetEditorDialog })),
);
const WidgetDetail = lazy(() =>
  import('./widget-detail').then((m) => ({ default: m.WidgetDetail })),
);

const linkClass = 'text-primary underline underline-offset-4';

export const widgetPagePath = (id: string) => `/agent-embed-chat?widget=${encodeURIComponent(id)}`;

const WidgetCard = ({
  widget,
  onEdit,
  onDelete,
}: {
  widget: Widget;
  onEdit: () => void;
  onDelete: () => void;
}) => (
  <li
    aria-label={widget.name}
    className="flex flex-col gap-3 rounded-xl border bg-card p-4 shadow-sm"
  >
    <div className="flex items-start justify-between gap-2">
      <h2 className="min-w-0 font-medium break-words">
        <Link to={widgetPagePath(widget.id)} className="hover:underline">
          {widget.name}
        </Link>
      </h2>
      <EnabledSwitch widget={widget} />
    </div>
    <TargetLine target={widget.target} />
    <OriginsLine origins={widget.allowed_origins} />
    <div className="mt-auto grid gap-2">
      <BudgetBar
        label="Tokens today"
        used={widget.usage.tokens_today}
        budget={widget.budget.daily_tokens}
      />
      <BudgetBar
        label="Tokens this month"
        used={widget.usage.tokens_this_month}
        budget={widget.budget.monthly_tokens}
      />
    </div>
    <div className="flex flex-wrap gap-2">
      <LinkButton to={widgetPagePath(widget.id)} size="sm">
        <ExternalLink aria-hidden="true" /> Open
      </LinkButton>
      <Button variant="outline" size="sm" onClick={onEdit}>
        <Pencil aria-hidden="true" /> Edit
      </Button>
      <CardDeleteButton onClick={onDelete} />
    </div>
  </li>
);

const NoWidgets = ({ onNew }: { onNew: () => void }) => {
  const agents = useAgentChoices();
  const customAis = useCustomAis();
  const loaded = agents.isSuccess && customAis.isSuccess;
  const noTarget =
    loaded && agents.data.agents.length === 0 && customAis.data.custom_ais.length === 0;
  return (
    <EmptyState
      icon={MessageSquareCode}
      title="No widgets yet"
      action={
        <>
          {noTarget ? (
            <>
              <LinkButton to="/agents">
                <Bot aria-hidden="true" /> Create an agent
              </LinkButton>
              <LinkButton to="/custom-ais" variant="outline">
                <Sparkles aria-hidden="true" /> Create a custom AI
              </LinkButton>
            </>
          ) : (
            <Button onClick={onNew}>
              <Plus aria-hidden="true" /> New widget
            </Button>
          )}
          <LinkButton to={helpLinks.customAis} variant="outline">
            <BookOpen aria-hidden="true" /> Agents and custom AIs: the guide
          </LinkButton>
        </>
      }
    >
      A widget puts one of your agents or custom AIs on your own website: paste one script tag and
      visitors chat with it from a button in the corner, with citations from its knowledge. It
      answers with your keys and quota, within the budgets you set, and only on the sites you allow.
      {noTarget ? (
        <>
          {' '}
          First create an{' '}
          <Link to="/agents" className={linkClass}>
            agent
          </Link>{' '}
          or a{' '}
          <Link to="/custom-ais" className={linkClass}>
            custom AI
          </Link>{' '}
          for it to answer as.
        </>
      ) : null}
    </EmptyState>
  );
};

/**
 * Embedded agent chat: the user's widgets, each one of their agents or custom AIs on other sites.
 * A widget's page and the editor are named in the address (`?widget=`, `?edit=`), so that a link
 * or a reload opens them again; a secret is shown once, from memory only.
 */
export const AgentEmbedChatPage = () => {
  const list = useWidgets();
  const [params, setParams] = useSearchParams();
  const [secret, setSecret] = useState<WidgetWithSecret | null>(null);
  const [deleting, setDeleting] = useState<Widget | null>(null);
  const remove = useDeleteWidget();
  const widgets = list.data?.items ?? [];

  const widgetId = params.get('widget');
  const editId = params.get('edit');
  const wanted = widgetId ?? (editId && editId !== 'new' ? editId : null);
  const listed = wanted ? widgets.find((w) => w.id === wanted) : undefined;
  const fetched = useWidget(wanted ?? '', Boolean(wanted) && list.isSuccess && !listed);
  const target = listed ?? (fetched.data?.id === wanted ? fetched.data : undefined);
  const missing = Boolean(wanted) && list.isSuccess && !target && !fetched.isPending;

  const show = (next: { widget?: string; edit?: string }) =>
    setParams(new URLSearchParams(next as Record<string, string>));
  const closeEditor = () => show(widgetId ? { widget: widgetId } : {});

  // Deleting the widget whose page is open goes back to the list at once, not to "not found".
  const removeAndLeave = {
    mutate: (id: string, on: { onSuccess: () => void; onError: (error: Error) => void }) => {
      if (id === widgetId) show({});
      remove.mutate(id, on);
    },
  };

  let body;
  if (widgetId) {
    body = target ? (
      <WidgetDetail
        widget={target}
        onEdit={() => show({ widget: target.id, edit: target.id })}
        onRotated={setSecret}
        onDelete={() => setDeleting(target)}
      />
    ) : missing ? null : (
      <TableLoading label="Loading the widget" />
    );
  } else {
    body = (
      <>
        <PageHeader
          title="Embedded agent chat"
          description={
            <>
              Put one of your agents or custom AIs on your own website, with the sites allowed to
              show it, a budget and a view of every visitor’s conversation.{' '}
              <Link to="/agents" className={linkClass}>
                Your agents
              </Link>
            </>
          }
          actions={
            widgets.length > 0 ? (
              <Button
                disabled={widgets.length >= widgetLimits.perUser}
                title={
                  widgets.length >= widgetLimits.perUser
                    ? `You have ${widgetLimits.perUser} widgets, the most one account keeps: delete one first.`
                    : undefined
                }
                onClick={() => show({ edit: 'new' })}
              >
                <Plus aria-hidden="true" /> New widget
              </Button>
            ) : null
          }
        />
        <CardList
          list={list}
          count={widgets.length}
          noun="widgets"
          empty={<NoWidgets onNew={() => show({ edit: 'new' })} />}
        >
          {widgets.map((widget) => (
            <WidgetCard
              key={widget.id}
              widget={widget}
              onEdit={() => show({ edit: widget.id })}
              onDelete={() => setDeleting(widget)}
            />
          ))}
        </CardList>
      </>
    );
  }

  const editorOpen = editId === 'new' || (editId !== null && target !== undefined);
  // Mounted from the first open on, so that closing runs the dialog's own close.
  const [editorWanted, setEditorWanted] = useState(false);
  if (editId !== null && !editorWanted) setEditorWanted(true);

  return (
    <div>
      {missing ? (
        <p
          role="alert"
          className="mb-4 rounded-md border border-destructive/40 p-3 text-sm text-destructive"
        >
          That widget was not found: it may have been deleted.{' '}
          <button type="button" className={linkClass} onClick={() => show({})}>
            Back to the list
          </button>
        </p>
      ) : null}
      <Suspense fallback={<TableLoading label="Loading" />}>
        {body}
        {editorWanted ? (
          <WidgetEditorDialog
            open={editorOpen}
            widget={editId === 'new' ? null : (target ?? null)}
            onClose={closeEditor}
            onSaved={(saved) => {
              // A new widget comes back with its secret: it is shown once, over its page.
              if ('secret' in saved && typeof saved.secret === 'string') {
                setSecret(saved as WidgetWithSecret);
                show({ widget: saved.id });
              } else closeEditor();
            }}
          />
        ) : null}
      </Suspense>
      <WidgetSecretDialog widget={secret} onClose={() => setSecret(null)} />
      <DeleteConfirm
        item={deleting}
        confirmLabel="Delete widget"
        remove={removeAndLeave}
        onClose={() => setDeleting(null)}
      >
        The widget stops at once on every site: its button and chat disappear for visitors, and its
        conversations and usage are deleted with it. The agent or custom AI is not deleted.
      </DeleteConfirm>
    </div>
  );
};

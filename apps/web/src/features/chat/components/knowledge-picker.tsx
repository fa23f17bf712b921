import { Library, X } from 'lucide-react';
import { Link } from 'react-router';
import type { KnowledgeBase, knowledgeLimits } from '@chorus/shared/api/knowledge';
import { Button } from '@/components/ui/button';
import { DisclosurePanel } from '@/components/ui/disclosure-panel';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useKnowledgeBases } from '@/lib/queries/knowledge-bases';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { useConversationKnowledge } from '../hooks/conversation-knowledge';

// The contract's number, checked by the type: the value would bring its schemas into the chat.
const maxBases: typeof knowledgeLimits.searchBases = 10;

const linkClass = 'text-primary underline underline-offset-4';

const documentsOf = (base: KnowledgeBase) =>
  base.document_count === 1 ? '1 document' : `${base.document_count} documents`;

/** The user's knowledge bases as checkboxes; loaded when the panel first opens. */
const KnowledgeChoices = ({
  selected,
  onChange,
  isNew,
}: {
  selected: string[];
  onChange: (next: string[]) => void;
  isNew: boolean;
}) => {
  const bases = useKnowledgeBases();
  if (bases.isPending) return <Spinner className="size-5" label="Loading your knowledge bases" />;
  if (bases.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        Your knowledge bases could not be loaded: {errorMessage(bases.error)}
      </p>
    );
  }
  const list = bases.data.knowledge_bases;
  if (list.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        You have no knowledge bases yet.{' '}
        <Link to="/knowledge-base" className={linkClass}>
          Create one and upload documents
        </Link>
        ; then attach it here, and replies cite the passages they use.
      </p>
    );
  }
  const full = selected.length >= maxBases;
  return (
    <>
      <div>
        <p className="text-sm font-medium">Knowledge bases</p>
        <p className="text-xs text-muted-foreground">
          {isNew ? 'The chat you start now' : 'Every reply in this chat'} searches the ones you tick
          and cites the passages it uses.
        </p>
      </div>
      <ul className="grid max-h-64 gap-1 overflow-y-auto">
        {list.map((base) => {
          const checked = selected.includes(base.id);
          return (
            <li key={base.id}>
              <label
                className={cn(
                  'flex cursor-pointer items-start gap-2 rounded-md px-1.5 py-1 text-sm hover:bg-muted',
                  !checked && full && 'cursor-not-allowed opacity-50',
                )}
              >
                <input
                  type="checkbox"
                  className="mt-0.5"
                  checked={checked}
                  disabled={!checked && full}
                  onChange={() =>
                    onChange(
                      checked ? selected.filter((id) => id !== base.id) : [...selected, base.id],
                    )
                  }
                />
                <span className="min-w-0">
                  <span className="block truncate font-medium">{base.name}</span>
                  <span className="block text-xs text-muted-foreground">
                    {documentsOf(base)}
                    {base.search_mode === 'full_text' ? ' · full text only' : ''}
                  </span>
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      {full ? (
        <p className="text-xs text-muted-foreground">A chat searches at most {maxBases}.</p>
      ) : null}
      <Link to="/knowledge-base" className={cn(linkClass, 'text-xs')}>
        Manage knowledge bases
      </Link>
    </>
  );
};

/**
 * The knowledge bases of a chat: a button beside the model picker to pick them, and a chip for
 * each one attached (× detaches it).
 */
export const KnowledgePicker = ({
  conversationId,
  disabled,
}: {
  conversationId: string | undefined;
  disabled?: boolean;
}) => {
  const { ids, save } = useConversationKnowledge(conversationId);
  // Names for the chips: asked only once something is attached.
  const bases = useKnowledgeBases(ids.length > 0);
  const change = (next: string[]) => {
    save(next).catch((error: unknown) =>
      toast.error('The knowledge bases of this chat were not changed', {
        description: errorMessage(error),
      }),
    );
  };
  const nameOf = (id: string) => {
    if (!bases.data) return 'Loading…';
    return (
      bases.data.knowledge_bases.find((base) => base.id === id)?.name ?? 'A deleted knowledge base'
    );
  };
  return (
    <>
      <DisclosurePanel
        label="Knowledge bases of this chat"
        className="bottom-full left-0 mb-2 grid gap-3"
        trigger={(props) => (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            disabled={disabled}
            title="Knowledge bases"
            aria-label={ids.length > 0 ? `Knowledge (${ids.length} attached)` : 'Knowledge'}
            className={cn(
              'h-8 gap-1.5 px-2 text-xs',
              ids.length > 0 ? 'text-primary' : 'text-muted-foreground',
            )}
            {...props}
          >
            <Library aria-hidden="true" />
            <span aria-hidden="true" className="hidden sm:inline">
              Knowledge
            </span>
            {ids.length > 0 ? (
              <span aria-hidden="true" className="rounded-full bg-primary/15 px-1.5 tabular-nums">
                {ids.length}
              </span>
            ) : null}
          </Button>
        )}
      >
        <KnowledgeChoices selected={ids} onChange={change} isNew={!conversationId} />
      </DisclosurePanel>
      {ids.length > 0 ? (
        <ul className="flex flex-wrap items-center gap-1" aria-label="Knowledge bases in this chat">
          {ids.map((id) => (
            <li
              key={id}
              className="flex max-w-48 items-center gap-1 rounded-full border bg-muted/40 py-0.5 pr-0.5 pl-2 text-xs"
            >
              <Library aria-hidden="true" className="size-3 shrink-0 text-muted-foreground" />
              <span className="truncate">{nameOf(id)}</span>
              <button
                type="button"
                disabled={disabled}
                className="rounded-full p-0.5 text-muted-foreground hover:bg-muted hover:text-foreground"
                aria-label={`Detach ${nameOf(id)}`}
                title="Detach"
                onClick={() => change(ids.filter((other) => other !== id))}
              >
                <X aria-hidden="true" className="size-3" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
};

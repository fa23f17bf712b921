import { Trash2, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TableLoadError, TableLoading } from '@/components/ui/data-table';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';

/** "1 tool", "3 tools". */
export const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString()} ${n === 1 ? one : many}`;

/**
 * A page's list of the user's things as cards: loading, its error, `empty` when there are none,
 * else the cards (`children`) in a grid named "Your …".
 */
export const CardList = ({
  list,
  count,
  noun,
  empty,
  className = 'grid gap-4 sm:grid-cols-2 xl:grid-cols-3',
  children,
}: {
  list: { isPending: boolean; isError: boolean; error: unknown };
  count: number;
  /** "agents": "Loading your agents", "Your agents". */
  noun: string;
  empty: ReactNode;
  /** The grid's classes, when its columns differ from the usual. */
  className?: string;
  children: ReactNode;
}) => {
  if (list.isPending) return <TableLoading label={`Loading your ${noun}`} />;
  if (list.isError) return <TableLoadError what={`Your ${noun}`} error={list.error} />;
  if (count === 0) return empty;
  return (
    <ul aria-label={`Your ${noun}`} className={className}>
      {children}
    </ul>
  );
};

/** What a card says it is for, cut after three lines. */
export const CardDescription = ({ text }: { text: string | null | undefined }) =>
  text ? <p className="line-clamp-3 text-sm break-words text-muted-foreground">{text}</p> : null;

/** One fact of a card's footer line, after its icon. */
export const CardFact = ({ icon: Icon, children }: { icon: LucideIcon; children: ReactNode }) => (
  <span className="inline-flex items-center gap-1">
    <Icon aria-hidden="true" className="size-3.5" />
    {children}
  </span>
);

/** The card's Delete, set apart at the end of its buttons. */
export const CardDeleteButton = ({ onClick }: { onClick: () => void }) => (
  <Button
    variant="ghost"
    size="icon"
    className="ml-auto size-8 text-muted-foreground"
    aria-label="Delete"
    title="Delete"
    onClick={onClick}
  >
    <Trash2 aria-hidden="true" />
  </Button>
);

/**
 * "Delete “name”?" for the thing being deleted (none: closed); a yes closes it and deletes,
 * with a toast either way.
 */
export const DeleteConfirm = <T extends { id: string; name: string }>({
  item,
  confirmLabel,
  remove,
  onClose,
  children,
}: {
  item: T | null;
  confirmLabel: string;
  remove: {
    mutate: (id: string, on: { onSuccess: () => void; onError: (error: Error) => void }) => void;
  };
  onClose: () => void;
  /** What goes with it, and what does not. */
  children: ReactNode;
}) => (
  <ConfirmDialog
    open={item !== null}
    title={`Delete “${item?.name ?? ''}”?`}
    confirmLabel={confirmLabel}
    destructive
    onConfirm={() => {
      onClose();
      if (!item) return;
      remove.mutate(item.id, {
        onSuccess: () => toast.success(`“${item.name}” deleted`),
        onError: (error) =>
          toast.error(`Could not delete “${item.name}”`, { description: errorMessage(error) }),
      });
    }}
    onCancel={onClose}
  >
    {children}
  </ConfirmDialog>
);

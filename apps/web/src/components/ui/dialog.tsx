import { useEffect, useId, useRef, type ReactNode } from 'react';
import { cn } from '@/lib/utils';

type DialogProps = {
  open: boolean;
  title: string;
  /** Escape, a click on the backdrop, or a Close button in the content. */
  onClose: () => void;
  children: ReactNode;
  className?: string;
};

/**
 * A modal over the native <dialog>, like ConfirmDialog: the browser traps focus, closes it on
 * Escape and returns focus to where it was, with no dialog library in the bundle. It stacks above
 * another modal (the phone's drawer).
 */
export const Dialog = ({ open, title, onClose, children, className }: DialogProps) => {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal?.();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={(event) => {
        // React passes a dialog's close on to the elements around it: a drawer (also a
        // <dialog>) would close with it.
        event.stopPropagation();
        if (open) onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) onClose();
      }}
      className={cn(
        'm-auto w-[calc(100%-2rem)] max-w-lg rounded-lg border bg-background p-0 text-foreground shadow-lg backdrop:bg-black/50',
        className,
      )}
    >
      <div className="grid gap-4 p-6">
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
};

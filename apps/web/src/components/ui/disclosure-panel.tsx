import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { cn } from '@/lib/utils';

type DisclosurePanelProps = {
  /** Renders the toggle button; spread the props onto it. */
  trigger: (props: {
    'aria-expanded': boolean;
    'aria-controls': string;
    onClick: () => void;
  }) => ReactNode;
  children: ReactNode;
  label: string;
  className?: string;
};

/**
 * A small floating panel opened by a button: Escape or a click outside closes it. A
 * lightweight stand-in for a popover where a positioning library is not worth its weight.
 */
export const DisclosurePanel = ({ trigger, children, label, className }: DisclosurePanelProps) => {
  const [open, setOpen] = useState(false);
  const id = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      rootRef.current?.querySelector<HTMLElement>('[aria-expanded]')?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);
  return (
    <div ref={rootRef} className="relative inline-flex">
      {trigger({
        'aria-expanded': open,
        'aria-controls': id,
        onClick: () => setOpen((value) => !value),
      })}
      {open ? (
        <div
          id={id}
          role="group"
          aria-label={label}
          className={cn(
            'absolute z-50 w-72 rounded-md border bg-popover p-4 text-popover-foreground shadow-md',
            className,
          )}
        >
          {children}
        </div>
      ) : null}
    </div>
  );
};

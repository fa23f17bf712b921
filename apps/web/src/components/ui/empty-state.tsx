import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

type EmptyStateProps = {
  icon: LucideIcon;
  title: string;
  children: ReactNode;
  action?: ReactNode;
  className?: string;
};

/** What an area holds and what to do next, when it holds nothing yet. */
export const EmptyState = ({ icon: Icon, title, children, action, className }: EmptyStateProps) => (
  <section
    className={cn(
      'flex flex-col items-center rounded-xl border border-dashed px-6 py-12 text-center',
      className,
    )}
  >
    <div className="mb-4 flex size-12 items-center justify-center rounded-full bg-muted">
      <Icon aria-hidden="true" className="size-6 text-muted-foreground" />
    </div>
    <h2 className="text-lg font-semibold">{title}</h2>
    <div className="mt-2 max-w-prose text-sm text-muted-foreground">{children}</div>
    {action ? <div className="mt-6 flex flex-wrap justify-center gap-3">{action}</div> : null}
  </section>
);

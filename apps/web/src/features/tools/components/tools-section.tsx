import type { ReactNode } from 'react';

/** One kind of tool on /tools: its heading, what it is, its add button, then its list. */
export const ToolsSection = ({
  id,
  title,
  description,
  action,
  children,
}: {
  /** The heading's id, naming the section. */
  id: string;
  title: string;
  description: string;
  /** Shown once there is something listed; the empty state has its own. */
  action: ReactNode;
  children: ReactNode;
}) => (
  <section aria-labelledby={id} className="grid gap-4">
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div>
        <h2 id={id} className="text-xl font-semibold">
          {title}
        </h2>
        <p className="text-sm text-muted-foreground">{description}</p>
      </div>
      {action}
    </div>
    {children}
  </section>
);

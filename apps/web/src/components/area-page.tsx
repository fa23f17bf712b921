import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState } from './ui/empty-state';
import { PageHeader } from './ui/page-header';

type AreaPageProps = {
  title: string;
  description: ReactNode;
  icon: LucideIcon;
  emptyTitle: string;
  /** What the area will hold and what to do next. */
  emptyBody: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
};

/** The frame of a product area that holds nothing yet: its title and an honest empty state. */
export const AreaPage = ({
  title,
  description,
  icon,
  emptyTitle,
  emptyBody,
  actions,
  children,
}: AreaPageProps) => (
  <div>
    <PageHeader title={title} description={description} />
    {children}
    <EmptyState icon={icon} title={emptyTitle} action={actions}>
      {emptyBody}
    </EmptyState>
  </div>
);

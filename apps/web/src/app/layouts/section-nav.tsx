import { NavLink } from 'react-router';
import { cn } from '@/lib/utils';
import type { NavSection } from './nav-types';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'flex shrink-0 items-center gap-2 rounded-md px-3 py-2 text-sm font-medium transition-colors',
    isActive
      ? 'bg-accent text-accent-foreground'
      : 'text-muted-foreground hover:bg-accent/60 hover:text-foreground',
  );

/** The app navigation: a sidebar on wide screens, a scrolling strip on narrow ones. */
export const SectionNav = ({ label, sections }: { label: string; sections: NavSection[] }) => (
  <nav aria-label={label} className="lg:w-56 lg:shrink-0">
    <div className="-mx-4 flex gap-1 overflow-x-auto px-4 pb-2 lg:mx-0 lg:flex-col lg:gap-6 lg:overflow-visible lg:px-0">
      {sections.map((section) => (
        <div key={section.title} className="flex gap-1 lg:flex-col">
          <p className="hidden px-3 pb-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase lg:block">
            {section.title}
          </p>
          {section.items.map(({ to, label: itemLabel, icon: Icon, end }) => (
            <NavLink key={to} to={to} end={end ?? false} className={linkClass}>
              <Icon aria-hidden="true" className="size-4" />
              {itemLabel}
            </NavLink>
          ))}
        </div>
      ))}
    </div>
  </nav>
);

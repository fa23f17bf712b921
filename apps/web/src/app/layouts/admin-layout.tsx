import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { CenteredSpinner } from '@/components/ui/spinner';
import { adminNav } from './nav-items';
import { SectionNav } from './section-nav';

export const AdminLayout = () => (
  <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6 px-4 py-6 sm:px-6 lg:flex-row lg:gap-10 lg:py-10">
    <SectionNav label="Back office" sections={adminNav} />
    <div className="min-w-0 flex-1">
      <Suspense fallback={<CenteredSpinner />}>
        <Outlet />
      </Suspense>
    </div>
  </div>
);

import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { CenteredSpinner } from '@/components/ui/spinner';

/** Public pages other than the landing page: a readable, centred column. */
export const PublicLayout = () => (
  <div className="mx-auto w-full max-w-5xl flex-1 px-4 py-10 sm:px-6 lg:py-14">
    <Suspense fallback={<CenteredSpinner />}>
      <Outlet />
    </Suspense>
  </div>
);

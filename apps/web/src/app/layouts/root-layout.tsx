import { Suspense, lazy } from 'react';
import { Outlet } from 'react-router';
import { FullPageSpinner } from '@/components/ui/spinner';
import { useSession } from '@/lib/session';
import { useToasterRequested } from '@/lib/toast';

const AppToaster = lazy(() =>
  import('@/app/providers/app-toaster').then((m) => ({ default: m.AppToaster })),
);

const Toasts = () =>
  useToasterRequested() ? (
    <Suspense fallback={null}>
      <AppToaster />
    </Suspense>
  ) : null;

/**
 * Above every page: a spinner while the session loads, then the layout of the route — the
 * marketing layout for public pages, the workspace for signed-in ones.
 */
export const RootLayout = () => {
  const session = useSession();
  return (
    <>
      {session.status === 'loading' ? <FullPageSpinner /> : <Outlet />}
      <Toasts />
    </>
  );
};

import { Navigate, Outlet, useLocation } from 'react-router';
import { signInRedirect } from '@chorus/shared/routes';
import { CenteredSpinner } from '@/components/ui/spinner';
import { useSession } from '@/lib/session';

/** Signed-in routes: guests are sent to sign in, remembering where they were going. */
export const RequireAuth = () => {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'loading') return <CenteredSpinner label="Loading your session" />;
  if (session.status === 'signed-out') {
    return <Navigate to={signInRedirect(location.pathname)} replace />;
  }
  return <Outlet />;
};

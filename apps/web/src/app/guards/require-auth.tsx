import { Navigate, Outlet, useLocation } from 'react-router';
import { adminRedirect, signInRedirect } from '@chorus/shared/routes';
import { CenteredSpinner } from '@/components/ui/spinner';
import { useSession } from '@/lib/session';

const isAdminPath = (path: string) => path === '/admin' || path.startsWith('/admin/');

/**
 * Signed-in routes: guests are sent to sign in, remembering where they were going; from the back
 * office always with from=/admin (spec §2).
 */
export const RequireAuth = () => {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'loading') return <CenteredSpinner label="Loading your session" />;
  if (session.status === 'signed-out') {
    const to = isAdminPath(location.pathname) ? adminRedirect : signInRedirect(location.pathname);
    return <Navigate to={to} replace />;
  }
  return <Outlet />;
};

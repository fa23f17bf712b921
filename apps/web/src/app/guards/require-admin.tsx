import { Navigate, Outlet } from 'react-router';
import { adminRedirect } from '@chorus/shared/routes';
import { CenteredSpinner } from '@/components/ui/spinner';
import { useAdminStatus } from '@/lib/roles';
import { useSession } from '@/lib/session';

/**
 * Admin routes: anyone who is not an admin or super admin is sent to sign in with
 * from=/admin (spec §2). This only hides UI; the server checks the role on every call.
 */
export const RequireAdmin = () => {
  const session = useSession();
  const { isAdmin, isLoading } = useAdminStatus();
  if (session.status === 'loading' || (session.status === 'signed-in' && isLoading)) {
    return <CenteredSpinner label="Checking access" />;
  }
  if (!isAdmin) return <Navigate to={adminRedirect} replace />;
  return <Outlet />;
};

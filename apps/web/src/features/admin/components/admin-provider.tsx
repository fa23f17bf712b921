import { useMemo, type ReactNode } from 'react';
import { useAdminStatus } from '@/lib/roles';
import { AdminContext } from './admin-context';

/** Holds the current user's admin and super-admin status, looked up once per user id. */
export const AdminProvider = ({ children }: { children: ReactNode }) => {
  const { isAdmin, isSuperAdmin, isLoading } = useAdminStatus();
  const value = useMemo(
    () => ({ isAdmin, isSuperAdmin, isLoading }),
    [isAdmin, isSuperAdmin, isLoading],
  );
  return <AdminContext.Provider value={value}>{children}</AdminContext.Provider>;
};

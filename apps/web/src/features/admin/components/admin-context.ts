import { createContext, useContext } from 'react';
import type { AdminStatusState } from '@/lib/roles';

export const AdminContext = createContext<AdminStatusState | null>(null);

export const useAdmin = (): AdminStatusState => {
  const value = useContext(AdminContext);
  if (!value) throw new Error('useAdmin must be used inside <AdminProvider>');
  return value;
};

import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { useSession } from './session';

export type AdminStatus = { isAdmin: boolean; isSuperAdmin: boolean };

const checkRole = async (rpc: 'is_admin' | 'is_super_admin', userId: string) =>
  (await api.post<unknown>(`/rest/v1/rpc/${rpc}`, { user_uuid: userId })) === true;

export const fetchAdminStatus = async (userId: string): Promise<AdminStatus> => {
  const [isAdmin, isSuperAdmin] = await Promise.all([
    checkRole('is_admin', userId),
    checkRole('is_super_admin', userId),
  ]);
  // A super admin is an admin too, whatever the first lookup said.
  return { isAdmin: isAdmin || isSuperAdmin, isSuperAdmin };
};

/** Spec §4: admin status is checked once per user id, by the two RPC lookups. */
export const adminStatusQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['admin-status', userId],
    queryFn: () => fetchAdminStatus(userId),
    staleTime: Infinity,
    gcTime: Infinity,
  });

export type AdminStatusState = AdminStatus & { isLoading: boolean };

/** Any failed lookup counts as "not an admin" (spec §6); the server enforces roles anyway. */
export const useAdminStatus = (): AdminStatusState => {
  const session = useSession();
  const userId = session.user?.id ?? '';
  const query = useQuery({ ...adminStatusQueryOptions(userId), enabled: userId !== '' });
  if (
    session.status === 'loading' ||
    (userId !== '' && query.isPending && query.fetchStatus !== 'idle')
  ) {
    return { isAdmin: false, isSuperAdmin: false, isLoading: true };
  }
  return {
    isAdmin: query.data?.isAdmin ?? false,
    isSuperAdmin: query.data?.isSuperAdmin ?? false,
    isLoading: false,
  };
};

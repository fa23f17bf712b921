import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { AuditLogsResponse } from '@chorus/shared/api/audit-logs';
import { api } from '@/lib/api-client';

export type AuditLogFilters = {
  action: string;
  table_name: string;
  admin_id: string;
  from: string;
  to: string;
  limit: number;
  offset: number;
};

export const auditLogsQueryKey = ['admin', 'audit-logs'] as const;

/** Every admin write adds an entry, so each admin mutation calls this once it succeeds. */
export const invalidateAuditLog = (queryClient: QueryClient) =>
  void queryClient.invalidateQueries({ queryKey: auditLogsQueryKey });

export const getAuditLogs = (filters: AuditLogFilters, signal?: AbortSignal) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== '' && value !== undefined) params.set(key, String(value));
  }
  return api.get<AuditLogsResponse>(`/rest/v1/admin/audit-logs?${params}`, signal);
};

export const auditLogsQueryOptions = (filters: AuditLogFilters) =>
  queryOptions({
    queryKey: [...auditLogsQueryKey, filters],
    queryFn: ({ signal }) => getAuditLogs(filters, signal),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

export const useAuditLogs = (filters: AuditLogFilters) => useQuery(auditLogsQueryOptions(filters));

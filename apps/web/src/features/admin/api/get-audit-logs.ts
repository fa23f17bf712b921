import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
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

export const getAuditLogs = (filters: AuditLogFilters, signal?: AbortSignal) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== '' && value !== undefined) params.set(key, String(value));
  }
  return api.get<AuditLogsResponse>(`/rest/v1/admin/audit-logs?${params}`, signal);
};

export const auditLogsQueryOptions = (filters: AuditLogFilters) =>
  queryOptions({
    queryKey: ['admin', 'audit-logs', filters],
    queryFn: ({ signal }) => getAuditLogs(filters, signal),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

export const useAuditLogs = (filters: AuditLogFilters) => useQuery(auditLogsQueryOptions(filters));

import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { EmailOutboxList, EmailOutboxStatus } from '@chorus/shared/api/email';
import { api } from '@/lib/api-client';

export type EmailOutboxFilter = {
  status: EmailOutboxStatus | 'all';
  limit: number;
  offset: number;
};

export const emailOutboxQueryKey = ['admin', 'email-outbox'] as const;

export const getEmailOutbox = (
  { status, limit, offset }: EmailOutboxFilter,
  signal?: AbortSignal,
) => {
  const params = new URLSearchParams({ limit: String(limit), offset: String(offset) });
  if (status !== 'all') params.set('status', status);
  return api.get<EmailOutboxList>(`/rest/v1/admin/email-outbox?${params}`, signal);
};

export const emailOutboxQueryOptions = (filter: EmailOutboxFilter) =>
  queryOptions({
    queryKey: [...emailOutboxQueryKey, 'list', filter],
    queryFn: ({ signal }) => getEmailOutbox(filter, signal),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

export const useEmailOutbox = (filter: EmailOutboxFilter) =>
  useQuery(emailOutboxQueryOptions(filter));

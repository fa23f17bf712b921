import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EmailOutboxItem } from '@chorus/shared/api/email';
import { api } from '@/lib/api-client';
import { emailOutboxQueryKey } from './get-email-outbox';

export const getEmailOutboxItem = (id: string, signal?: AbortSignal) =>
  api.get<EmailOutboxItem>(`/rest/v1/admin/email-outbox/${encodeURIComponent(id)}`, signal);

export const emailOutboxItemQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...emailOutboxQueryKey, 'item', id],
    queryFn: ({ signal }) => getEmailOutboxItem(id, signal),
  });

export const useEmailOutboxItem = (id: string | null) =>
  useQuery({ ...emailOutboxItemQueryOptions(id ?? ''), enabled: id !== null });

import { useMutation } from '@tanstack/react-query';
import type { UnsubscribeResponse } from '@chorus/shared/api/email';
import { api } from '@/lib/api-client';

export const unsubscribe = (email: string) =>
  api.post<UnsubscribeResponse>('/rest/v1/unsubscribe', { email });

export const useUnsubscribe = () => useMutation({ mutationFn: unsubscribe });

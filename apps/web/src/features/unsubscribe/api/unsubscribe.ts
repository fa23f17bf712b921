import { useMutation } from '@tanstack/react-query';
import type { UnsubscribeResponse } from '@chorus/shared/api/email';
import { api } from '@/lib/api-client';

export const unsubscribe = (link: { email: string; token: string }) =>
  api.post<UnsubscribeResponse>('/rest/v1/unsubscribe', link);

export const useUnsubscribe = () => useMutation({ mutationFn: unsubscribe });

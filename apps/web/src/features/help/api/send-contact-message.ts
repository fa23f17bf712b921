import { useMutation } from '@tanstack/react-query';
import type { ContactRequest } from '@chorus/shared/api/email';
import { api } from '@/lib/api-client';

export const sendContactMessage = (message: ContactRequest) =>
  api.post<{ success: true }>('/functions/v1/contact', message);

export const useSendContactMessage = () => useMutation({ mutationFn: sendContactMessage });

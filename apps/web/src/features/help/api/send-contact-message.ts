import { useCallback, useState } from 'react';
import type { ContactRequest } from '@chorus/shared/api/email';
import { api } from '@/lib/api-client';

export const sendContactMessage = (message: ContactRequest) =>
  api.post<{ success: true }>('/functions/v1/contact', message);

type Callbacks = { onSuccess: () => void; onError: (error: unknown) => void };

/**
 * Sends the contact form. Nothing is cached or refetched after it, so a pending flag is all the
 * page needs; TanStack's mutation observer (about 1 KB of gzip) stays off the public help page.
 */
export const useSendContactMessage = () => {
  const [isPending, setPending] = useState(false);
  const mutate = useCallback((message: ContactRequest, { onSuccess, onError }: Callbacks) => {
    setPending(true);
    sendContactMessage(message)
      .then(onSuccess, onError)
      .finally(() => setPending(false));
  }, []);
  return { mutate, isPending };
};

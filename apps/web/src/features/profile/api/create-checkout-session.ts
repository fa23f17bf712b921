import { useMutation } from '@tanstack/react-query';
import type { CheckoutResponse } from '@chorus/shared/api/billing';
import { api } from '@/lib/api-client';

export const createCheckoutSession = (planId: string) =>
  api.post<CheckoutResponse>('/functions/v1/create-checkout-session', { plan_id: planId });

/** Starts Stripe Checkout and sends the browser there. */
export const useCreateCheckoutSession = () =>
  useMutation({
    mutationFn: createCheckoutSession,
    onSuccess: ({ url }) => window.location.assign(url),
  });

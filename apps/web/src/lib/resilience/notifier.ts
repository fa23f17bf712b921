import { clientRateLimit } from '@chorus/shared/limits';
import { messages } from '@chorus/shared/messages';
import type { toast as sonnerToast } from 'sonner';
import type { RateLimitNotifier } from './global-block';

// sonner loads with the toaster, after the first screen; these toasts never come sooner.
const withToast = (show: (toast: typeof sonnerToast) => void) => {
  void import('sonner').then(({ toast }) => show(toast));
};

/** Spec §8's rate-limit toasts, exactly. */
export const toastNotifier: RateLimitNotifier = {
  paused: (onRetryNow) =>
    withToast((toast) =>
      toast.warning(messages.rateLimit.paused, {
        id: 'rate-limit-paused',
        description: messages.rateLimit.pausedDescription,
        duration: clientRateLimit.toastMs,
        action: { label: messages.rateLimit.retryNow, onClick: onRetryNow },
      }),
    ),
  restored: () => withToast((toast) => toast.success(messages.rateLimit.restored)),
  recoveryFailed: () => withToast((toast) => toast.error(messages.rateLimit.recoveryFailed)),
};

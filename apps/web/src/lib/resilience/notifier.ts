import { messages } from '@chorus/shared/messages';
import { toast } from '../toast';
import type { RateLimitNotifier } from './global-block';

/**
 * Spec §8's rate-limit toasts. A block itself is told by the full-screen 'Rate Limit Active'
 * page, which carries the pause's words, its description and 'Retry Now': a toast saying the same
 * beside it would be a second notice with a second button, so `paused` shows none.
 */
export const toastNotifier: RateLimitNotifier = {
  paused: () => {},
  restored: () => toast.success(messages.rateLimit.restored),
  recoveryFailed: () => toast.error(messages.rateLimit.recoveryFailed),
};

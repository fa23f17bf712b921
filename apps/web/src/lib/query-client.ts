import { QueryClient } from '@tanstack/react-query';
import { queryRetry } from '@chorus/shared/limits';
import { isClientError } from './api-error';

/** Retries 3 times with backoff min(1 s × 2^n, 30 s), except client errors (4xx). */
export const shouldRetry = (failureCount: number, error: unknown): boolean =>
  !isClientError(error) && failureCount < queryRetry.attempts;

export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay: (attempt) => queryRetry.delayMs(attempt),
        staleTime: 10_000,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });

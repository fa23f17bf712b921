import type { ErrorCode } from '@chorus/shared/error-codes';
import { isApiError } from '@/lib/api-error';

/**
 * Where a refused save belongs: the field a server error code is about (a name already taken
 * goes under the name), or null for one said above the buttons.
 */
export const fieldOfServerError = <F extends string>(
  error: unknown,
  fields: Partial<Record<ErrorCode, F>>,
): F | null => (isApiError(error) && error.code ? (fields[error.code] ?? null) : null);

import type { CopySystemKeysResponse } from '@chorus/shared/api/rpc';
import { api } from './api-client';

/** Grants the user the admin default keys by reference (nothing is copied); idempotent. */
export const copySystemApiKeys = () =>
  api.post<CopySystemKeysResponse>('/functions/v1/copy-system-api-keys');

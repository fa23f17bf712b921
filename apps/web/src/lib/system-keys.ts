import type { CopySystemKeysResponse } from '@chorus/shared/api/rpc';
import { api } from './api-client';

/** Copies the admin-managed system keys the user may use into their own key list. */
export const copySystemApiKeys = () =>
  api.post<CopySystemKeysResponse>('/functions/v1/copy-system-api-keys');

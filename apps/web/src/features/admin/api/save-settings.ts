import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AppSettings, PutAppSettings } from '@chorus/shared/api/settings';
import { api } from '@/lib/api-client';
import { signupModeQueryKey } from '@/lib/queries/signup-mode';
import { adminSettingsQueryKey } from './get-settings';
import { invalidateAuditLog } from './get-audit-logs';
import { adminOverviewQueryKey } from './get-overview';

export const saveAdminSettings = (change: PutAppSettings) =>
  api.put<AppSettings>('/rest/v1/admin/settings', change);

export const useSaveAdminSettings = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAdminSettings,
    onSuccess: (settings) => {
      queryClient.setQueryData(adminSettingsQueryKey, settings);
      void queryClient.invalidateQueries({ queryKey: adminOverviewQueryKey });
      invalidateAuditLog(queryClient);
      void queryClient.invalidateQueries({ queryKey: signupModeQueryKey });
    },
  });
};

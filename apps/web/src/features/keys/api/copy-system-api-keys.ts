import { useMutation, useQueryClient } from '@tanstack/react-query';
import { copySystemApiKeys } from '@/lib/system-keys';
import { apiKeysQueryKey } from './get-api-keys';

export const useCopySystemApiKeys = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: copySystemApiKeys,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
};

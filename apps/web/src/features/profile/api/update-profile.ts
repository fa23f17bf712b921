import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Profile, ProfileUpdate } from '@chorus/shared/api/profile';
import { api } from '@/lib/api-client';
import { profileQueryKey } from './get-profile';

export const updateProfile = (update: ProfileUpdate) =>
  api.patch<Profile>('/rest/v1/profile', update);

export const useUpdateProfile = (userId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (profile) => queryClient.setQueryData(profileQueryKey(userId), profile),
  });
};

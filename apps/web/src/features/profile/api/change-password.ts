import { useMutation } from '@tanstack/react-query';
import { authClient } from '@/lib/auth-client';

type ChangePasswordInput = { currentPassword: string; newPassword: string };

export const changePassword = async ({ currentPassword, newPassword }: ChangePasswordInput) => {
  const { data, error } = await authClient.changePassword({
    currentPassword,
    newPassword,
    revokeOtherSessions: true,
  });
  if (error) throw error;
  return data;
};

export const useChangePassword = () => useMutation({ mutationFn: changePassword });

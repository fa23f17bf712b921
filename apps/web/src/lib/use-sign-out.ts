import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { messages } from '@chorus/shared/messages';
import { authClient } from './auth-client';
import { clearSession } from './session';
import { toast } from './toast';

/** Signs out, forgets the user's cached data and goes to the landing page. */
export const useSignOut = () => {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  const signOut = async () => {
    setPending(true);
    const { error } = await authClient.signOut();
    setPending(false);
    if (error) {
      toast.error(messages.auth.signOutFailed, { description: error.message });
      return;
    }
    clearSession(queryClient);
    await navigate('/');
  };

  return { signOut, pending };
};

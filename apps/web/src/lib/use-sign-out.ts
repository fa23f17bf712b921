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
    // Leave the signed-in page before its session ends: a guard still on screen would see the
    // session end and send this tab to sign in again, back to that page, instead of the landing
    // page. flushSync: the move renders now, not in a transition that keeps the signed-in page
    // (and its guard) up while the landing page's code loads.
    await navigate('/', { flushSync: true });
    clearSession(queryClient);
  };

  return { signOut, pending };
};

import { messages } from '@chorus/shared/messages';
import { passwordRules } from '@chorus/shared/limits';

export type CredentialErrors = { form?: string; password?: string };

/** The checks the auth client makes before calling the server (spec §5). */
export const validateCredentials = (
  email: string,
  password: string,
  options: { checkLength?: boolean } = {},
): CredentialErrors => {
  if (!email.trim() || !password) return { form: messages.auth.credentialsRequired };
  if (options.checkLength && password.length < passwordRules.minLength) {
    return { password: `Use at least ${passwordRules.minLength} characters` };
  }
  if (password.length > passwordRules.maxLength) {
    return { password: `Use at most ${passwordRules.maxLength} characters` };
  }
  return {};
};

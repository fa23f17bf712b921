import { useState, type FormEvent } from 'react';
import { messages } from '@chorus/shared/messages';
import { passwordRules } from '@chorus/shared/limits';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { authClient } from '@/lib/auth-client';
import { toast } from '@/lib/toast';
import { FormAlert } from './form-alert';
import { validateCredentials, type CredentialErrors } from './validate-credentials';

type SignUpFormProps = {
  onSignedUp: () => Promise<void>;
  /** The one-time token of an invitation link (sign-up by request). */
  invite?: string | undefined;
  initialEmail?: string | undefined;
};

export const SignUpForm = ({ onSignedUp, invite, initialEmail = '' }: SignUpFormProps) => {
  const [name, setName] = useState('');
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<CredentialErrors>({});
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateCredentials(email, password, { checkLength: true });
    setErrors(found);
    if (found.form || found.password) return;
    setPending(true);
    const trimmedEmail = email.trim();
    // The server reads `invite` beside the credentials (better-auth ignores unknown fields).
    const body = {
      email: trimmedEmail,
      password,
      name: name.trim() || (trimmedEmail.split('@')[0] ?? trimmedEmail),
      ...(invite ? { invite } : {}),
    };
    const { error } = await authClient.signUp.email(body);
    if (error) {
      setPending(false);
      toast.error(messages.auth.signUpFailed, { description: error.message });
      return;
    }
    await onSignedUp();
    setPending(false);
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
      <FormAlert message={errors.form} />
      <FormField
        label="Name"
        name="name"
        autoComplete="name"
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <FormField
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        required
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
      <FormField
        label="Password"
        type="password"
        name="password"
        autoComplete="new-password"
        required
        minLength={passwordRules.minLength}
        value={password}
        error={errors.password}
        hint={`At least ${passwordRules.minLength} characters`}
        onChange={(event) => setPassword(event.target.value)}
      />
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? (
          <Spinner
            className="size-4 border-primary-foreground/40 border-t-primary-foreground"
            label="Creating your account"
          />
        ) : null}
        Sign up
      </Button>
    </form>
  );
};

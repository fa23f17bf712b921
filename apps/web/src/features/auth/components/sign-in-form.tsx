import { useState, type FormEvent } from 'react';
import { messages } from '@chorus/shared/messages';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { authClient } from '@/lib/auth-client';
import { toast } from '@/lib/toast';
import { FormAlert } from './form-alert';
import { validateCredentials, type CredentialErrors } from './validate-credentials';

type SignInFormProps = {
  onSignedIn: () => Promise<void>;
  onForgotPassword: () => void;
};

export const SignInForm = ({ onSignedIn, onForgotPassword }: SignInFormProps) => {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<CredentialErrors>({});
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateCredentials(email, password);
    setErrors(found);
    if (found.form || found.password) return;
    setPending(true);
    const { error } = await authClient.signIn.email({ email: email.trim(), password });
    if (error) {
      setPending(false);
      toast.error(messages.auth.signInFailed, { description: error.message });
      return;
    }
    await onSignedIn();
    setPending(false);
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
      <FormAlert message={errors.form} />
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
        autoComplete="current-password"
        required
        value={password}
        error={errors.password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <div className="-mt-1 flex justify-end">
        <Button variant="link" size="sm" className="h-auto px-0" onClick={onForgotPassword}>
          Forgot password?
        </Button>
      </div>
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? (
          <Spinner
            className="size-4 border-primary-foreground/40 border-t-primary-foreground"
            label="Signing in"
          />
        ) : null}
        Sign in
      </Button>
    </form>
  );
};

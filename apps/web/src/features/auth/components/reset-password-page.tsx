import { KeyRound } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { messages } from '@chorus/shared/messages';
import { passwordRules } from '@chorus/shared/limits';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { authClient } from '@/lib/auth-client';
import { toast } from '@/lib/toast';

type FieldErrors = { newPassword?: string; confirmPassword?: string };

const validate = (newPassword: string, confirmPassword: string): FieldErrors => {
  if (newPassword.length < passwordRules.minLength) {
    return { newPassword: `Use at least ${passwordRules.minLength} characters` };
  }
  if (newPassword.length > passwordRules.maxLength) {
    return { newPassword: `Use at most ${passwordRules.maxLength} characters` };
  }
  if (newPassword !== confirmPassword) return { confirmPassword: 'The passwords do not match' };
  return {};
};

const InvalidLink = () => (
  <Card>
    <CardHeader>
      <CardTitle asHeading="h1">This reset link is invalid or has expired</CardTitle>
      <CardDescription>
        Reset links work once and only for a limited time. Ask for a new one and use the latest
        email.
      </CardDescription>
    </CardHeader>
    <CardContent>
      <Link to="/auth" className={buttonVariants()}>
        Request a new link
      </Link>
    </CardContent>
  </Card>
);

export const ResetPasswordPage = () => {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const token = searchParams.get('token');
  const linkError = searchParams.get('error');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);

  if (!token || linkError) {
    return (
      <div className="mx-auto w-full max-w-md px-4 py-12 sm:py-16">
        <InvalidLink />
      </div>
    );
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validate(newPassword, confirmPassword);
    setErrors(found);
    if (found.newPassword || found.confirmPassword) return;
    setPending(true);
    const { error } = await authClient.resetPassword({ newPassword, token });
    setPending(false);
    if (error) {
      toast.error(messages.auth.passwordUpdateFailed, { description: error.message });
      return;
    }
    toast.success('Password updated', { description: 'Sign in with your new password.' });
    await navigate('/auth');
  };

  return (
    <div className="mx-auto w-full max-w-md px-4 py-12 sm:py-16">
      <Card>
        <CardHeader>
          <KeyRound aria-hidden="true" className="mb-2 size-8 text-primary" />
          <CardTitle asHeading="h1" className="text-xl">
            Choose a new password
          </CardTitle>
          <CardDescription>Pick a password you do not use anywhere else.</CardDescription>
        </CardHeader>
        <CardContent>
          <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
            <FormField
              label="New password"
              type="password"
              name="new-password"
              autoComplete="new-password"
              required
              value={newPassword}
              error={errors.newPassword}
              hint={`At least ${passwordRules.minLength} characters`}
              onChange={(event) => setNewPassword(event.target.value)}
            />
            <FormField
              label="Confirm password"
              type="password"
              name="confirm-password"
              autoComplete="new-password"
              required
              value={confirmPassword}
              error={errors.confirmPassword}
              onChange={(event) => setConfirmPassword(event.target.value)}
            />
            <Button type="submit" disabled={pending} className="w-full">
              Set new password
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
};

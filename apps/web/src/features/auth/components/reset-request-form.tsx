import { MailCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { messages } from '@chorus/shared/messages';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { authClient } from '@/lib/auth-client';
import { toast } from '@/lib/toast';

export const resetPasswordPath = '/reset-password';

type ResetRequestFormProps = { onBack: () => void };

export const ResetRequestForm = ({ onBack }: ResetRequestFormProps) => {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const [sent, setSent] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!email.trim()) {
      setError('Enter the email address of your account');
      return;
    }
    setError(undefined);
    setPending(true);
    const result = await authClient.requestPasswordReset({
      email: email.trim(),
      redirectTo: resetPasswordPath,
    });
    setPending(false);
    if (result.error) {
      toast.error(messages.auth.resetRequestFailed, { description: result.error.message });
      return;
    }
    setSent(true);
  };

  if (sent) {
    return (
      <div className="grid gap-4 text-center">
        <MailCheck aria-hidden="true" className="mx-auto size-10 text-primary" />
        <p role="status" className="font-medium">
          Check your email for a reset link
        </p>
        <p className="text-sm text-muted-foreground">
          If an account exists for {email.trim()}, the link arrives within a few minutes. It can be
          used once.
        </p>
        <Button variant="outline" onClick={onBack}>
          Back to sign in
        </Button>
      </div>
    );
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
      <p className="text-sm text-muted-foreground">
        Enter your account&apos;s email and we&apos;ll send you a link to choose a new password.
      </p>
      <FormField
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        required
        value={email}
        error={error}
        onChange={(event) => setEmail(event.target.value)}
      />
      <Button type="submit" disabled={pending} className="w-full">
        Send reset link
      </Button>
      <Button variant="ghost" onClick={onBack}>
        Back to sign in
      </Button>
    </form>
  );
};

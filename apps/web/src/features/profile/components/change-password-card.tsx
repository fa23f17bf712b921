import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { messages } from '@chorus/shared/messages';
import { passwordRules } from '@chorus/shared/limits';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api-error';
import { useChangePassword } from '../api/change-password';

type FieldErrors = { currentPassword?: string; newPassword?: string };

export const ChangePasswordCard = () => {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const change = useChangePassword();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: FieldErrors = {};
    if (!currentPassword) found.currentPassword = 'Enter your current password';
    if (newPassword.length < passwordRules.minLength) {
      found.newPassword = `Use at least ${passwordRules.minLength} characters`;
    } else if (newPassword.length > passwordRules.maxLength) {
      found.newPassword = `Use at most ${passwordRules.maxLength} characters`;
    }
    setErrors(found);
    if (found.currentPassword || found.newPassword) return;
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          setCurrentPassword('');
          setNewPassword('');
          toast.success('Password updated', {
            description: 'Your other sessions were signed out.',
          });
        },
        onError: (error) =>
          toast.error(messages.auth.passwordUpdateFailed, {
            description: errorMessage(error, messages.auth.passwordUpdateFailed),
          }),
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Change password</CardTitle>
        <CardDescription>Changing it signs you out everywhere else.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={submit} className="grid gap-4">
          <FormField
            label="Current password"
            type="password"
            name="current-password"
            autoComplete="current-password"
            required
            value={currentPassword}
            error={errors.currentPassword}
            onChange={(event) => setCurrentPassword(event.target.value)}
          />
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
          <div>
            <Button type="submit" disabled={change.isPending}>
              Change password
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
};

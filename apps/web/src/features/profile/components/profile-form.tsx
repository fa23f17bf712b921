import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { Profile } from '@chorus/shared/api/profile';
import { messages } from '@chorus/shared/messages';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api-error';
import { useUpdateProfile } from '../api/update-profile';

type ProfileFormProps = { profile: Profile | undefined; userId: string };

export const ProfileForm = ({ profile, userId }: ProfileFormProps) => {
  const [fullName, setFullName] = useState(profile?.full_name ?? '');
  const [publicName, setPublicName] = useState(profile?.public_name ?? '');
  const update = useUpdateProfile(userId);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!profile) {
      toast.error(messages.profile.notFound);
      return;
    }
    update.mutate(
      { full_name: fullName, public_name: publicName },
      {
        onSuccess: () => toast.success(messages.profile.updated),
        onError: (error) =>
          toast.error(messages.profile.updateFailed, { description: errorMessage(error) }),
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Your details</CardTitle>
        <CardDescription>
          Your public name is what others see on anything you share.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={submit} className="grid gap-4">
          <FormField
            label="Email"
            type="email"
            name="email"
            value={profile?.username ?? ''}
            readOnly
            disabled
            hint="Your sign-in address. It cannot be changed here."
          />
          <FormField
            label="Full name"
            name="full_name"
            autoComplete="name"
            maxLength={120}
            value={fullName}
            onChange={(event) => setFullName(event.target.value)}
          />
          <FormField
            label="Public name"
            name="public_name"
            autoComplete="nickname"
            maxLength={60}
            value={publicName}
            hint="Letters, numbers, dots, dashes and underscores."
            onChange={(event) => setPublicName(event.target.value)}
          />
          <div>
            <Button type="submit" disabled={update.isPending}>
              Save changes
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
};

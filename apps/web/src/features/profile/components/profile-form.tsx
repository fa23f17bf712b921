import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { Profile } from '@chorus/shared/api/profile';
import { messages } from '@chorus/shared/messages';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api-error';
import { usePublicNameAvailability } from '../api/check-public-name';
import { useUpdateProfile } from '../api/update-profile';
import { useDebouncedValue } from '../hooks/use-debounced-value';

/** How long typing must pause before the public name is checked. */
const NAME_CHECK_DEBOUNCE_MS = 400;

type ProfileFormProps = { profile: Profile | undefined; userId: string };

export const ProfileForm = ({ profile, userId }: ProfileFormProps) => {
  const [fullName, setFullName] = useState(profile?.full_name ?? '');
  const [publicName, setPublicName] = useState(profile?.public_name ?? '');
  const update = useUpdateProfile(userId);
  const typedName = publicName.trim();
  const checkedName = useDebouncedValue(typedName, NAME_CHECK_DEBOUNCE_MS);
  const changed = checkedName !== '' && checkedName !== (profile?.public_name ?? '');
  const availability = usePublicNameAvailability(checkedName, changed);
  const settled = checkedName === typedName;
  const nameTaken =
    changed && settled && availability.data?.available === false
      ? (availability.data.reason ?? 'That public name is already taken.')
      : undefined;
  const nameHint =
    !changed || !settled
      ? 'Letters, numbers, dots, dashes and underscores.'
      : availability.isFetching
        ? 'Checking…'
        : availability.data?.available
          ? `${checkedName} is available.`
          : 'Letters, numbers, dots, dashes and underscores.';

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!profile) {
      toast.error(messages.profile.notFound);
      return;
    }
    if (nameTaken) {
      toast.error(messages.profile.updateFailed, { description: nameTaken });
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
            error={nameTaken}
            hint={nameHint}
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

import { AlertCircle } from 'lucide-react';
import type { Profile } from '@chorus/shared/api/profile';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { CenteredSpinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useSession } from '@/lib/session';
import { useProfile } from '../api/get-profile';
import { ChangePasswordCard } from './change-password-card';
import { ProfileForm } from './profile-form';

const roleLabels: Record<Profile['role'], string> = {
  user: 'User',
  admin: 'Admin',
  super_admin: 'Super admin',
};

const formatPrice = (cents: number) =>
  cents === 0
    ? 'Free of charge'
    : new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' }).format(cents / 100) +
      ' per month';

const AccountSummary = ({ profile }: { profile: Profile }) => (
  <Card>
    <CardHeader>
      <CardTitle>Account</CardTitle>
      <CardDescription>Your role and the plan your usage counts against.</CardDescription>
    </CardHeader>
    <CardContent>
      <dl className="grid gap-4 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-muted-foreground">Role</dt>
          <dd className="mt-1 font-medium">{roleLabels[profile.role]}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Plan</dt>
          <dd className="mt-1 font-medium">{profile.plan.name}</dd>
          <dd className="text-xs text-muted-foreground">{formatPrice(profile.plan.price_cents)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Daily prompts</dt>
          <dd className="mt-1 font-medium">
            {profile.plan.daily_prompt_limit === null
              ? 'Unlimited'
              : profile.plan.daily_prompt_limit.toLocaleString()}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Member since</dt>
          <dd className="mt-1 font-medium">{new Date(profile.created_at).toLocaleDateString()}</dd>
        </div>
      </dl>
    </CardContent>
  </Card>
);

export const ProfilePage = () => {
  const session = useSession();
  const userId = session.user?.id ?? '';
  const profile = useProfile(userId);

  return (
    <div>
      <PageHeader title="Profile" description="Your name, your plan and your password." />
      {profile.isPending ? (
        <CenteredSpinner label="Loading your profile" />
      ) : (
        <div className="grid gap-6">
          {profile.isError ? (
            <div
              role="alert"
              className="flex items-start gap-2 rounded-md border border-destructive/30 bg-destructive/10 px-4 py-3 text-sm text-destructive"
            >
              <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <span>Your profile could not be loaded: {errorMessage(profile.error)}</span>
            </div>
          ) : null}
          {profile.data ? <AccountSummary profile={profile.data} /> : null}
          <ProfileForm
            key={profile.data?.updated_at ?? 'none'}
            profile={profile.data}
            userId={userId}
          />
          <ChangePasswordCard />
        </div>
      )}
    </div>
  );
};

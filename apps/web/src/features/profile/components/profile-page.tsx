import { AlertCircle } from 'lucide-react';
import { FREE_PLAN_NAME } from '@chorus/shared/api/plans';
import type { PricingPlan, Profile } from '@chorus/shared/api/profile';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { CenteredSpinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useSession } from '@/lib/session';
import { useProfile } from '../api/get-profile';
import { ChangePasswordCard } from './change-password-card';
import { PlanCard } from './plan-card';
import { ProfileForm } from './profile-form';
import { formatDate } from '@/lib/format';

/** What the page shows while the real plan cannot be read: Free, no limits known. */
const freePlanFallback: PricingPlan = {
  id: 'free',
  name: FREE_PLAN_NAME,
  price_cents: 0,
  daily_prompt_limit: null,
  allowed_providers: [],
  allowed_models: [],
  created_at: new Date(0).toISOString(),
};

const roleLabels: Record<Profile['role'], string> = {
  user: 'User',
  admin: 'Admin',
  super_admin: 'Super admin',
};

const AccountSummary = ({ profile }: { profile: Profile }) => (
  <Card>
    <CardHeader>
      <CardTitle>Account</CardTitle>
      <CardDescription>Your role in this workspace.</CardDescription>
    </CardHeader>
    <CardContent>
      <dl className="grid gap-4 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-muted-foreground">Role</dt>
          <dd className="mt-1 font-medium">{roleLabels[profile.role]}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Member since</dt>
          <dd className="mt-1 font-medium">{formatDate(profile.created_at)}</dd>
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
      <PageHeader
        title="Profile"
        description="Your name, your plan and its usage, and your password."
      />
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
          {/* Spec §4: a profile that cannot be loaded falls back to the Free plan. */}
          <PlanCard plan={profile.data?.plan ?? freePlanFallback} userId={userId} />
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

import { useDeferredValue, useState, type FormEvent } from 'react';
import { Navigate } from 'react-router';
import { toast } from 'sonner';
import type { UserStatisticsRow } from '@chorus/shared/api/admin';
import { SIGNUP_NOTICE_MAX, type AppSettings, type SignupMode } from '@chorus/shared/api/settings';
import type { Role } from '@chorus/shared/roles';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CenteredSpinner, Spinner } from '@/components/ui/spinner';
import { Input } from '@/components/ui/input';
import { LinkButton } from '@/components/ui/link-button';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-error';
import { useSession } from '@/lib/session';
import { useAdminSettings } from '../api/get-settings';
import { useAdminUsers } from '../api/get-users';
import { useSaveAdminSettings } from '../api/save-settings';
import { useUpdateAdminUser } from '../api/update-user';
import { useAdmin } from './admin-context';

const roleLabel: Record<Role, string> = {
  user: 'User',
  admin: 'Admin',
  super_admin: 'Super admin',
};

const useRoleChange = () => {
  const update = useUpdateAdminUser();
  const change = (user: UserStatisticsRow, role: Role) =>
    update.mutate(
      { userId: user.user_id, change: { role } },
      {
        onSuccess: () => toast.success(`${user.email} is now ${roleLabel[role].toLowerCase()}`),
        onError: (err) =>
          toast.error('The role was not changed', { description: errorMessage(err) }),
      },
    );
  return { change, pending: update.isPending };
};

const AdminsCard = () => {
  const session = useSession();
  const staff = useAdminUsers({ search: '', limit: 200, offset: 0, role: 'staff' });
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search.trim());
  const candidates = useAdminUsers({ search: deferred, limit: 5, offset: 0, role: 'user' });
  const { change, pending } = useRoleChange();

  return (
    <Card>
      <CardHeader>
        <CardTitle>Admins</CardTitle>
        <CardDescription>
          Admins manage users, keys, plans and content. Super admins also manage admins and these
          settings. You cannot change your own role, and the last super admin always stays.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {staff.isPending ? (
          <Spinner label="Loading admins" />
        ) : staff.isError ? (
          <p role="alert" className="text-sm text-destructive">
            The admins could not be loaded: {errorMessage(staff.error)}
          </p>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Admins and super admins">
            {staff.data.users.map((u) => {
              const self = u.user_id === session.user?.id;
              return (
                <li key={u.user_id} className="flex flex-wrap items-center gap-3 px-4 py-3">
                  <div className="min-w-0 flex-1">
                    <p className="font-medium break-all">
                      {u.email}
                      {self ? (
                        <span className="ml-2 text-xs text-muted-foreground">(you)</span>
                      ) : null}
                    </p>
                    {u.full_name ? (
                      <p className="text-sm text-muted-foreground">{u.full_name}</p>
                    ) : null}
                  </div>
                  {self ? (
                    <span className="text-sm">{roleLabel[u.role]}</span>
                  ) : (
                    <NativeSelect
                      aria-label={`Role of ${u.email}`}
                      className="w-40"
                      value={u.role}
                      disabled={pending}
                      onChange={(e) => change(u, e.target.value as Role)}
                    >
                      {(['user', 'admin', 'super_admin'] as const).map((r) => (
                        <option key={r} value={r}>
                          {r === 'user' ? 'Remove admin role' : roleLabel[r]}
                        </option>
                      ))}
                    </NativeSelect>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        <div className="grid gap-2">
          <label htmlFor="grant-admin-search" className="text-sm font-medium">
            Make someone an admin
          </label>
          <Input
            id="grant-admin-search"
            type="search"
            placeholder="Search users by e-mail or name"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          {deferred && candidates.data ? (
            candidates.data.users.length === 0 ? (
              <p className="text-sm text-muted-foreground">No user matches “{deferred}”.</p>
            ) : (
              <ul className="divide-y rounded-lg border" aria-label="Matching users">
                {candidates.data.users.map((u) => (
                  <li key={u.user_id} className="flex flex-wrap items-center gap-2 px-4 py-2">
                    <span className="min-w-0 flex-1 text-sm break-all">{u.email}</span>
                    <Button size="sm" disabled={pending} onClick={() => change(u, 'admin')}>
                      Make admin
                    </Button>
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={pending}
                      onClick={() => change(u, 'super_admin')}
                    >
                      Make super admin
                    </Button>
                  </li>
                ))}
              </ul>
            )
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
};

const SettingsForm = ({ settings }: { settings: AppSettings }) => {
  const [mode, setMode] = useState<SignupMode>(settings.signup_mode);
  const [notice, setNotice] = useState(settings.signup_notice);
  const save = useSaveAdminSettings();
  const dirty = mode !== settings.signup_mode || notice.trim() !== settings.signup_notice;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate(
      { signup_mode: mode, signup_notice: notice },
      {
        onSuccess: (saved) => {
          setNotice(saved.signup_notice);
          toast.success('Settings saved', {
            description:
              saved.signup_mode === 'request'
                ? 'Sign-up now needs an invitation from an approved access request.'
                : 'Anyone can sign up.',
          });
        },
        onError: (err) =>
          toast.error('The settings were not saved', { description: errorMessage(err) }),
      },
    );
  };

  return (
    <form onSubmit={submit} className="grid gap-5">
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Sign-up</legend>
        {(
          [
            ['open', 'Open', 'Anyone can create an account.'],
            [
              'request',
              'By request',
              'People ask for access at /request-access; an admin approves and an invitation link is e-mailed. Only invited addresses can sign up.',
            ],
          ] as const
        ).map(([value, label, hint]) => (
          <label key={value} className="flex items-start gap-3 rounded-lg border p-3 text-sm">
            <input
              type="radio"
              name="signup_mode"
              value={value}
              checked={mode === value}
              onChange={() => setMode(value)}
              className="mt-1"
            />
            <span>
              <span className="font-medium">{label}</span>
              <span className="block text-muted-foreground">{hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="grid gap-2">
        <label htmlFor="signup-notice" className="text-sm font-medium">
          Notice on the sign-in and request-access pages
        </label>
        <Textarea
          id="signup-notice"
          rows={3}
          maxLength={SIGNUP_NOTICE_MAX}
          placeholder="For example: Chorus is for the Acme support team. Ask Ada if you need access."
          value={notice}
          onChange={(e) => setNotice(e.target.value)}
        />
        <p className="text-xs text-muted-foreground">
          Plain text, at most {SIGNUP_NOTICE_MAX} characters. Leave empty to show nothing.
        </p>
      </div>
      <div>
        <Button type="submit" disabled={!dirty || save.isPending}>
          {save.isPending ? <Spinner className="size-4" label="Saving" /> : null}
          Save settings
        </Button>
      </div>
    </form>
  );
};

const SettingsCard = () => {
  const settings = useAdminSettings();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Workspace settings</CardTitle>
        <CardDescription>Who can sign up, and what newcomers read first.</CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isPending ? (
          <Spinner label="Loading settings" />
        ) : settings.isError ? (
          <p role="alert" className="text-sm text-destructive">
            The settings could not be loaded: {errorMessage(settings.error)}
          </p>
        ) : (
          <SettingsForm key={settings.data.updated_at ?? 'defaults'} settings={settings.data} />
        )}
      </CardContent>
    </Card>
  );
};

/** Super admins only: admins, sign-up mode and workspace settings. The server checks too. */
export const SuperAdminPage = () => {
  const { isSuperAdmin, isLoading } = useAdmin();
  if (isLoading) return <CenteredSpinner label="Checking access" />;
  if (!isSuperAdmin) return <Navigate to="/admin" replace />;
  return (
    <div>
      <PageHeader
        title="Super admin"
        description="Manage admins, decide who may sign up, and set the workspace notice. Every change is written to the audit log."
        actions={
          <LinkButton to="/admin/audit-logs" variant="outline">
            Open the audit log
          </LinkButton>
        }
      />
      <div className="grid gap-6">
        <AdminsCard />
        <SettingsCard />
      </div>
    </div>
  );
};

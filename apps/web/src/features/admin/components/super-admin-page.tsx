import { X } from 'lucide-react';
import { useDeferredValue, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Navigate } from 'react-router';
import { toast } from 'sonner';
import type { UserStatisticsRow } from '@chorus/shared/api/admin';
import {
  OUTBOUND_ALLOW_ENTRY_MAX,
  OUTBOUND_ALLOW_HOSTS_MAX,
  SIGNUP_NOTICE_MAX,
  type AppSettings,
  type SignupMode,
} from '@chorus/shared/api/settings';
import type { Role } from '@chorus/shared/roles';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CenteredSpinner, Spinner } from '@/components/ui/spinner';
import { Input } from '@/components/ui/input';
import { LinkButton } from '@/components/ui/link-button';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage, isApiError } from '@/lib/api-error';
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

/** Entries typed or pasted at once: split on spaces, commas and new lines. */
const hostEntriesOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/**
 * The outbound allow-list: private hosts (an intranet MCP server, a service on the LAN) that
 * web fetch, HTTP tools and MCP servers may reach although they are not public. Empty by default.
 */
const AllowedHosts = ({
  hosts,
  error,
  onChange,
}: {
  hosts: string[];
  error: string | null;
  onChange: (hosts: string[]) => void;
}) => {
  const [entry, setEntry] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const full = hosts.length >= OUTBOUND_ALLOW_HOSTS_MAX;
  const add = () => {
    const entries = hostEntriesOf(entry);
    if (entries.length === 0) return;
    const tooLong = entries.find((e) => e.length > OUTBOUND_ALLOW_ENTRY_MAX);
    if (tooLong) {
      setProblem(`An allowed host is at most ${OUTBOUND_ALLOW_ENTRY_MAX} characters`);
      return;
    }
    const fresh = entries.filter((e, i) => !hosts.includes(e) && entries.indexOf(e) === i);
    if (hosts.length + fresh.length > OUTBOUND_ALLOW_HOSTS_MAX) {
      setProblem(`At most ${OUTBOUND_ALLOW_HOSTS_MAX} allowed hosts`);
      return;
    }
    setProblem(null);
    setEntry('');
    onChange([...hosts, ...fresh]);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the entry rather than saving the whole form.
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add();
  };
  const shown = problem ?? error;
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">Private hosts tools may reach</legend>
      <p className="text-xs text-muted-foreground">
        Web fetch, HTTP tools and MCP servers reach public addresses only. A host listed here is
        reachable by every user’s tools, so anyone who can make an agent can read from it: list only
        what all your users may see.
      </p>
      {hosts.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          None: no private host is reachable (the default).
        </p>
      ) : (
        <ul aria-label="Allowed private hosts" className="flex flex-wrap gap-2">
          {hosts.map((host) => (
            <li
              key={host}
              className="inline-flex items-center gap-1 rounded-full border py-0.5 pr-1 pl-3 text-sm"
            >
              <code className="break-all">{host}</code>
              <Button
                variant="ghost"
                size="icon"
                className="size-6"
                aria-label={`Remove ${host}`}
                title="Remove"
                onClick={() => onChange(hosts.filter((h) => h !== host))}
              >
                <X aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        <label htmlFor="outbound-allow-entry" className="sr-only">
          Add a private host
        </label>
        <Input
          id="outbound-allow-entry"
          className="max-w-sm"
          placeholder="mcp.intranet.example, 10.0.0.5 or 10.20.0.0/16"
          value={entry}
          disabled={full}
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? 'outbound-allow-error' : 'outbound-allow-hint'}
          onChange={(e) => {
            setEntry(e.target.value);
            setProblem(null);
          }}
          onKeyDown={onKeyDown}
        />
        <Button variant="outline" disabled={full || entry.trim() === ''} onClick={add}>
          Add host
        </Button>
      </div>
      {shown ? (
        <p id="outbound-allow-error" role="alert" className="text-sm text-destructive">
          {shown}
        </p>
      ) : (
        <p id="outbound-allow-hint" className="text-xs text-muted-foreground">
          A host name, an IP address or a CIDR range; at most {OUTBOUND_ALLOW_HOSTS_MAX}. Changes
          apply when you save the settings.
        </p>
      )}
    </fieldset>
  );
};

const sameList = (a: string[], b: string[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

const SettingsForm = ({ settings }: { settings: AppSettings }) => {
  const [mode, setMode] = useState<SignupMode>(settings.signup_mode);
  const [notice, setNotice] = useState(settings.signup_notice);
  const [hosts, setHosts] = useState(settings.outbound_allow_hosts);
  const [hostsError, setHostsError] = useState<string | null>(null);
  const save = useSaveAdminSettings();
  const dirty =
    mode !== settings.signup_mode ||
    notice.trim() !== settings.signup_notice ||
    !sameList(hosts, settings.outbound_allow_hosts);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setHostsError(null);
    save.mutate(
      { signup_mode: mode, signup_notice: notice, outbound_allow_hosts: hosts },
      {
        onSuccess: (saved) => {
          setNotice(saved.signup_notice);
          setHosts(saved.outbound_allow_hosts);
          toast.success('Settings saved', {
            description:
              saved.signup_mode === 'request'
                ? 'Sign-up now needs an invitation from an approved access request.'
                : 'Anyone can sign up.',
          });
        },
        onError: (err) => {
          if (isApiError(err) && err.code === 'outbound:bad_allow_entry') {
            setHostsError(err.message);
          }
          toast.error('The settings were not saved', { description: errorMessage(err) });
        },
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
      <AllowedHosts
        hosts={hosts}
        error={hostsError}
        onChange={(next) => {
          setHosts(next);
          setHostsError(null);
        }}
      />
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
        <CardDescription>
          Who can sign up, what newcomers read first, and which private hosts tools may reach.
        </CardDescription>
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

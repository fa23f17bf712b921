import { Search, Users } from 'lucide-react';
import { useDeferredValue, useState } from 'react';
import { toast } from 'sonner';
import type { PlanChoice, UserStatisticsRow } from '@chorus/shared/api/admin';
import type { Role } from '@chorus/shared/roles';
import { Button } from '@/components/ui/button';
import { OffsetPager } from '@/components/ui/offset-pager';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/api-error';
import { useSession } from '@/lib/session';
import { useAccessRequests } from '../api/get-access-requests';
import { useAdminUsers } from '../api/get-users';
import { useUpdateAdminUser, type UpdateUserInput } from '../api/update-user';
import { AccessRequestsPanel } from './access-requests-panel';
import { useAdmin } from './admin-context';
import {
  TableLoadError,
  TableLoading,
  DataTable,
  type TableColumn,
} from '@/components/ui/data-table';
import { formatDate } from '@/lib/format';

const PAGE_SIZE = 50;

const roleLabel: Record<Role, string> = {
  user: 'User',
  admin: 'Admin',
  super_admin: 'Super admin',
};

const userColumns: TableColumn[] = [
  { label: 'User' },
  { label: 'Role' },
  { label: 'Plan' },
  { label: 'Registered' },
  { label: 'Last active' },
  { label: 'Conversations', end: true },
  { label: 'Messages', end: true },
  { label: 'Access', end: true, hidden: true },
];

const displayName = (u: UserStatisticsRow) => u.full_name ?? u.public_name ?? u.email;

type RowProps = {
  user: UserStatisticsRow;
  plans: PlanChoice[];
  isSelf: boolean;
  isSuperAdmin: boolean;
  busy: boolean;
  onChange: (input: UpdateUserInput, success: string) => void;
  onAskSuspend: (user: UserStatisticsRow) => void;
};

const UserRow = ({ user, plans, isSelf, isSuperAdmin, busy, onChange, onAskSuspend }: RowProps) => {
  // Admins move people between user and admin; the super admin role is for super admins.
  const roleChoices: Role[] = isSuperAdmin ? ['user', 'admin', 'super_admin'] : ['user', 'admin'];
  const canChangeRole = !isSelf && (isSuperAdmin || user.role !== 'super_admin');
  const canSuspend = !isSelf && (isSuperAdmin || user.role === 'user');
  const name = displayName(user);
  return (
    <tr className={user.suspended_at ? 'bg-muted/40' : undefined}>
      <td className="px-4 py-3">
        <div className="font-medium">
          {user.full_name ?? user.public_name ?? '—'}
          {isSelf ? <span className="ml-2 text-xs text-muted-foreground">(you)</span> : null}
        </div>
        <div className="text-muted-foreground">{user.email}</div>
        {user.suspended_at ? (
          <div className="mt-1 text-xs font-medium text-destructive">
            Suspended {formatDate(user.suspended_at)}
          </div>
        ) : null}
      </td>
      <td className="px-4 py-3">
        {canChangeRole ? (
          <NativeSelect
            aria-label={`Role of ${name}`}
            value={user.role}
            disabled={busy}
            onChange={(event) => {
              const role = event.target.value as Role;
              onChange(
                { userId: user.user_id, change: { role } },
                `${name} is now ${roleLabel[role].toLowerCase()}`,
              );
            }}
          >
            {roleChoices.map((role) => (
              <option key={role} value={role}>
                {roleLabel[role]}
              </option>
            ))}
          </NativeSelect>
        ) : (
          roleLabel[user.role]
        )}
      </td>
      <td className="px-4 py-3">
        <NativeSelect
          aria-label={`Plan of ${name}`}
          value={user.plan_id ?? plans.find((p) => p.name === user.plan_name)?.id ?? ''}
          disabled={busy}
          onChange={(event) => {
            const plan = plans.find((p) => p.id === event.target.value);
            if (!plan) return;
            onChange(
              { userId: user.user_id, change: { plan_id: plan.id } },
              `${name} is now on the ${plan.name} plan`,
            );
          }}
        >
          {user.plan_id === null && !plans.some((p) => p.name === user.plan_name) ? (
            <option value="">{user.plan_name}</option>
          ) : null}
          {plans.map((plan) => (
            <option key={plan.id} value={plan.id}>
              {plan.name}
            </option>
          ))}
        </NativeSelect>
      </td>
      <td className="px-4 py-3 whitespace-nowrap">{formatDate(user.registration_date)}</td>
      <td className="px-4 py-3 whitespace-nowrap">{formatDate(user.last_active)}</td>
      <td className="px-4 py-3 text-right tabular-nums">{user.conversation_count}</td>
      <td className="px-4 py-3 text-right tabular-nums">{user.message_count}</td>
      <td className="px-4 py-3 text-right">
        {!canSuspend ? null : user.suspended_at ? (
          <Button
            variant="outline"
            size="sm"
            disabled={busy}
            onClick={() =>
              onChange(
                { userId: user.user_id, change: { suspended: false } },
                `${name} is active again`,
              )
            }
          >
            Reactivate
          </Button>
        ) : (
          <Button
            variant="outline"
            size="sm"
            disabled={busy}
            onClick={() => onAskSuspend(user)}
            aria-label={`Suspend ${name}`}
          >
            Suspend
          </Button>
        )}
      </td>
    </tr>
  );
};

const PeopleTab = () => {
  const session = useSession();
  const { isSuperAdmin } = useAdmin();
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const [suspending, setSuspending] = useState<UserStatisticsRow | null>(null);
  const deferredSearch = useDeferredValue(search);
  const { data, isPending, isError, error, isFetching } = useAdminUsers({
    search: deferredSearch,
    limit: PAGE_SIZE,
    offset,
  });
  const update = useUpdateAdminUser();

  const change = (input: UpdateUserInput, success: string) =>
    update.mutate(input, {
      onSuccess: () => toast.success(success),
      onError: (err) => toast.error('The change was not saved', { description: errorMessage(err) }),
    });

  const total = data?.total ?? 0;

  return (
    <div>
      <div className="mb-4 flex items-center gap-3">
        <label className="relative w-full max-w-sm">
          <span className="sr-only">Search users</span>
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            type="search"
            placeholder="Search by e-mail or name"
            className="pl-9"
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setOffset(0);
            }}
          />
        </label>
        {isFetching && !isPending ? <Spinner className="size-4" label="Updating" /> : null}
      </div>

      {isPending ? (
        <TableLoading label="Loading users" />
      ) : isError ? (
        <TableLoadError what="The user list" error={error} />
      ) : data.users.length === 0 ? (
        <EmptyState icon={Users} title={search ? 'No matching users' : 'No users yet'}>
          {search
            ? `Nobody's e-mail or name contains "${search}". Check the spelling or clear the search.`
            : 'Accounts appear here as soon as people sign up.'}
        </EmptyState>
      ) : (
        <>
          <DataTable columns={userColumns}>
            {data.users.map((u) => (
              <UserRow
                key={u.user_id}
                user={u}
                plans={data.plans}
                isSelf={u.user_id === session.user?.id}
                isSuperAdmin={isSuperAdmin}
                busy={update.isPending && update.variables?.userId === u.user_id}
                onChange={change}
                onAskSuspend={setSuspending}
              />
            ))}
          </DataTable>
          <OffsetPager
            offset={offset}
            pageSize={PAGE_SIZE}
            total={total}
            onOffsetChange={setOffset}
          />
        </>
      )}
      <ConfirmDialog
        open={suspending !== null}
        title={suspending ? `Suspend ${displayName(suspending)}?` : 'Suspend user?'}
        confirmLabel="Suspend"
        destructive
        onCancel={() => setSuspending(null)}
        onConfirm={() => {
          if (suspending) {
            change(
              { userId: suspending.user_id, change: { suspended: true } },
              `${displayName(suspending)} is suspended`,
            );
          }
          setSuspending(null);
        }}
      >
        They are signed out everywhere at once and cannot sign in or use the API until you
        reactivate them. Their conversations and settings are kept.
      </ConfirmDialog>
    </div>
  );
};

export const AdminUsersPage = () => {
  const pending = useAccessRequests({ status: 'pending', limit: 1, offset: 0 });
  const pendingCount = pending.data?.total ?? 0;
  return (
    <div>
      <PageHeader
        title="Users"
        description="Every account, newest registration first: role, plan and activity. Suspend, reactivate, change plans and roles, and answer access requests. Every change is written to the audit log."
      />
      <Tabs defaultValue="people">
        <TabsList aria-label="Users or access requests" className="mb-2 max-w-sm">
          <TabsTrigger value="people">People</TabsTrigger>
          <TabsTrigger value="requests">
            Requests{pendingCount > 0 ? ` (${pendingCount})` : ''}
          </TabsTrigger>
        </TabsList>
        <TabsContent value="people">
          <PeopleTab />
        </TabsContent>
        <TabsContent value="requests">
          <AccessRequestsPanel />
        </TabsContent>
      </Tabs>
    </div>
  );
};

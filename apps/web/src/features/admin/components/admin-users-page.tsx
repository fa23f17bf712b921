import { Search, Users } from 'lucide-react';
import { useDeferredValue, useState } from 'react';
import type { UserStatisticsRow } from '@chorus/shared/api/admin';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { useAdminUsers } from '../api/get-users';

const PAGE_SIZE = 50;

const roleLabel: Record<UserStatisticsRow['role'], string> = {
  user: 'User',
  admin: 'Admin',
  super_admin: 'Super admin',
};

const formatDate = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' }) : '—';

export const AdminUsersPage = () => {
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const deferredSearch = useDeferredValue(search);
  const { data, isPending, isError, error, isFetching } = useAdminUsers({
    search: deferredSearch,
    limit: PAGE_SIZE,
    offset,
  });

  const total = data?.total ?? 0;
  const lastShown = Math.min(offset + PAGE_SIZE, total);

  return (
    <div>
      <PageHeader
        title="Users"
        description="Every account, newest registration first, with its role and activity."
      />
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
        <div className="flex justify-center py-16">
          <Spinner label="Loading users" />
        </div>
      ) : isError ? (
        <p
          role="alert"
          className="rounded-md border border-destructive/40 p-4 text-sm text-destructive"
        >
          The user list could not be loaded: {error.message} Try reloading the page.
        </p>
      ) : data.users.length === 0 ? (
        <EmptyState icon={Users} title={search ? 'No matching users' : 'No users yet'}>
          {search
            ? `Nobody's e-mail or name contains "${search}". Check the spelling or clear the search.`
            : 'Accounts appear here as soon as people sign up.'}
        </EmptyState>
      ) : (
        <>
          <div className="overflow-x-auto rounded-lg border">
            <table className="w-full text-left text-sm">
              <thead className="bg-muted/50 text-xs text-muted-foreground uppercase">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium">
                    User
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Role
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Registered
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Last active
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-medium">
                    Conversations
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-medium">
                    Messages
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {data.users.map((u) => (
                  <tr key={u.user_id}>
                    <td className="px-4 py-3">
                      <div className="font-medium">{u.full_name ?? u.public_name ?? '—'}</div>
                      <div className="text-muted-foreground">{u.email}</div>
                    </td>
                    <td className="px-4 py-3">{roleLabel[u.role]}</td>
                    <td className="px-4 py-3 whitespace-nowrap">
                      {formatDate(u.registration_date)}
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap">{formatDate(u.last_active)}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{u.conversation_count}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{u.message_count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="mt-4 flex items-center justify-between text-sm text-muted-foreground">
            <span>
              {offset + 1}–{lastShown} of {total}
            </span>
            <div className="flex gap-2">
              <Button
                variant="outline"
                size="sm"
                disabled={offset === 0}
                onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
              >
                Previous
              </Button>
              <Button
                variant="outline"
                size="sm"
                disabled={lastShown >= total}
                onClick={() => setOffset(offset + PAGE_SIZE)}
              >
                Next
              </Button>
            </div>
          </div>
        </>
      )}
    </div>
  );
};

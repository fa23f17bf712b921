import { ScrollText } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { auditMessages } from '@chorus/shared/admin-messages';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { OffsetPager } from '@/components/ui/offset-pager';
import { useAuditLogs, type AuditLogFilters } from '../api/get-audit-logs';
import { useAdminUsers } from '../api/get-users';
import {
  TableLoadError,
  TableLoading,
  DataTable,
  type TableColumn,
} from '@/components/ui/data-table';
import { formatPreciseDateTime as formatDateTime } from '@/lib/format';

const PAGE_SIZE = 50;

const emptyFilters: AuditLogFilters = {
  action: '',
  table_name: '',
  admin_id: '',
  from: '',
  to: '',
  limit: PAGE_SIZE,
  offset: 0,
};

const entryColumns: TableColumn[] = [
  { label: 'When' },
  { label: 'Admin' },
  { label: 'Action' },
  { label: 'Record' },
  { label: 'Details' },
];

const Filter = ({ label, children }: { label: string; children: ReactNode }) => (
  <label className="grid gap-1 text-xs font-medium text-muted-foreground">
    {label}
    {children}
  </label>
);

/** Every admin change, newest first, filterable by action, table, admin and date range. */
export const AuditLogsPage = () => {
  const [filters, setFilters] = useState<AuditLogFilters>(emptyFilters);
  const logs = useAuditLogs(filters);
  const staff = useAdminUsers({ search: '', limit: 200, offset: 0, role: 'staff' });
  const set = (patch: Partial<AuditLogFilters>) =>
    setFilters((f) => ({ ...f, ...patch, offset: 0 }));
  const filtered =
    filters.action || filters.table_name || filters.admin_id || filters.from || filters.to;

  return (
    <div>
      <PageHeader
        title="Audit log"
        description="Every change made in the back office: who did what to which record, and when. Entries cannot be edited or removed."
      />
      <div className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <Filter label="Action">
          <NativeSelect value={filters.action} onChange={(e) => set({ action: e.target.value })}>
            <option value="">All actions</option>
            {(logs.data?.actions ?? []).map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </NativeSelect>
        </Filter>
        <Filter label="Table">
          <NativeSelect
            value={filters.table_name}
            onChange={(e) => set({ table_name: e.target.value })}
          >
            <option value="">All tables</option>
            {(logs.data?.tables ?? []).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </NativeSelect>
        </Filter>
        <Filter label="Admin">
          <NativeSelect
            value={filters.admin_id}
            onChange={(e) => set({ admin_id: e.target.value })}
          >
            <option value="">All admins</option>
            {(staff.data?.users ?? []).map((u) => (
              <option key={u.user_id} value={u.user_id}>
                {u.email}
              </option>
            ))}
          </NativeSelect>
        </Filter>
        <Filter label="From">
          <Input type="date" value={filters.from} onChange={(e) => set({ from: e.target.value })} />
        </Filter>
        <Filter label="To">
          <Input type="date" value={filters.to} onChange={(e) => set({ to: e.target.value })} />
        </Filter>
      </div>
      {filtered ? (
        <Button variant="link" className="mb-2 px-0" onClick={() => setFilters(emptyFilters)}>
          Clear filters
        </Button>
      ) : null}

      {logs.isPending ? (
        <TableLoading label="Loading the audit log" />
      ) : logs.isError ? (
        <TableLoadError what="The audit log" error={logs.error} />
      ) : logs.data.entries.length === 0 ? (
        <EmptyState icon={ScrollText} title={filtered ? 'No matching entries' : 'No entries yet'}>
          {filtered
            ? 'No admin action matches these filters. Widen the date range or clear the filters.'
            : 'Changes made in the back office — users, keys, plans, settings — are listed here as they happen.'}
        </EmptyState>
      ) : (
        <>
          <DataTable columns={entryColumns} caption="Audit log entries, newest first">
            {logs.data.entries.map((e) => (
              <tr key={e.id} className="align-top">
                <td className="px-4 py-3 whitespace-nowrap">{formatDateTime(e.created_at)}</td>
                <td className="px-4 py-3 break-all">{e.admin_email ?? e.admin_id}</td>
                <td className="px-4 py-3">
                  <div className="font-medium">{e.action}</div>
                  {e.posted_by_admin ? (
                    <div
                      className="mt-1 grid gap-0.5"
                      title={auditMessages.postedBy(e.admin_email ?? e.admin_id)}
                    >
                      <span className="w-fit rounded-full bg-amber-500/15 px-2 py-0.5 text-xs font-medium text-amber-800 dark:text-amber-300">
                        {auditMessages.postedBadge}
                      </span>
                      <span className="text-xs text-muted-foreground">
                        {auditMessages.postedNote}
                      </span>
                    </div>
                  ) : null}
                </td>
                <td className="px-4 py-3">
                  <div>{e.table_name}</div>
                  {e.record_id ? (
                    <div className="font-mono text-xs break-all text-muted-foreground">
                      {e.record_id}
                    </div>
                  ) : null}
                </td>
                <td className="px-4 py-3">
                  <code className="block max-w-md font-mono text-xs break-all whitespace-pre-wrap text-muted-foreground">
                    {JSON.stringify(e.details)}
                  </code>
                </td>
              </tr>
            ))}
          </DataTable>
          <OffsetPager
            offset={filters.offset}
            pageSize={PAGE_SIZE}
            total={logs.data.total}
            onOffsetChange={(offset) => setFilters((f) => ({ ...f, offset }))}
          />
        </>
      )}
    </div>
  );
};

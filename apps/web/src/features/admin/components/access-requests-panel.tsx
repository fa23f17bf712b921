import { Inbox } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import {
  accessRequestStatuses,
  type AccessRequest,
  type AccessRequestStatus,
} from '@chorus/shared/api/access-requests';
import { Button } from '@/components/ui/button';
import { OffsetPager } from '@/components/ui/offset-pager';
import { EmptyState } from '@/components/ui/empty-state';
import { NativeSelect } from '@/components/ui/native-select';
import { errorMessage } from '@/lib/api-error';
import { useDecideAccessRequest } from '../api/decide-access-request';
import { useAccessRequests } from '../api/get-access-requests';
import { TableLoadError, TableLoading } from '@/components/ui/data-table';
import { formatDateTime } from '@/lib/format';

const PAGE_SIZE = 50;

const statusLabel: Record<AccessRequestStatus, string> = {
  pending: 'Pending',
  approved: 'Invited',
  declined: 'Declined',
  used: 'Signed up',
};

/** Access requests from /request-access; approving e-mails a one-time invitation link. */
export const AccessRequestsPanel = () => {
  const [status, setStatus] = useState<AccessRequestStatus | ''>('pending');
  const [offset, setOffset] = useState(0);
  const { data, isPending, isError, error } = useAccessRequests({
    ...(status ? { status } : {}),
    limit: PAGE_SIZE,
    offset,
  });
  const decide = useDecideAccessRequest();

  const act = (request: AccessRequest, decision: 'approve' | 'decline') =>
    decide.mutate(
      { id: request.id, decision },
      {
        onSuccess: () =>
          toast.success(
            decision === 'approve'
              ? `Invitation e-mailed to ${request.email}`
              : `Request from ${request.email} declined`,
          ),
        onError: (err) =>
          toast.error(
            decision === 'approve'
              ? 'The request was not approved'
              : 'The request was not declined',
            { description: errorMessage(err) },
          ),
      },
    );

  const total = data?.total ?? 0;

  return (
    <div>
      <div className="mb-4 flex items-center gap-3">
        <label className="flex items-center gap-2 text-sm">
          Show
          <NativeSelect
            className="w-40"
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as AccessRequestStatus | '');
              setOffset(0);
            }}
          >
            <option value="">All requests</option>
            {accessRequestStatuses.map((s) => (
              <option key={s} value={s}>
                {statusLabel[s]}
              </option>
            ))}
          </NativeSelect>
        </label>
      </div>
      {isPending ? (
        <TableLoading label="Loading access requests" />
      ) : isError ? (
        <TableLoadError what="The access requests" error={error} />
      ) : data.requests.length === 0 ? (
        <EmptyState
          icon={Inbox}
          title={status === 'pending' ? 'No pending requests' : 'No requests'}
        >
          When sign-up is by request (Super admin settings), people ask for access at
          /request-access. Their requests appear here for you to approve or decline.
        </EmptyState>
      ) : (
        <>
          <ul className="grid gap-3" aria-label="Access requests">
            {data.requests.map((r) => {
              const busy = decide.isPending && decide.variables?.id === r.id;
              return (
                <li
                  key={r.id}
                  aria-label={`Request from ${r.email}`}
                  className="grid gap-3 rounded-lg border p-4 sm:grid-cols-[1fr_auto] sm:items-start"
                >
                  <div className="min-w-0">
                    <p className="font-medium break-all">{r.email}</p>
                    <p className="mt-1 text-sm whitespace-pre-wrap">{r.reason}</p>
                    <p className="mt-2 text-xs text-muted-foreground">
                      {statusLabel[r.status]} · asked {formatDateTime(r.created_at)}
                      {r.decided_by_email
                        ? ` · decided by ${r.decided_by_email} ${formatDateTime(r.decided_at)}`
                        : ''}
                      {r.status === 'approved' && r.invite_expires_at
                        ? ` · invitation valid until ${formatDateTime(r.invite_expires_at)}`
                        : ''}
                    </p>
                  </div>
                  <div className="flex gap-2">
                    {r.status !== 'used' ? (
                      <Button size="sm" disabled={busy} onClick={() => act(r, 'approve')}>
                        {r.status === 'approved' ? 'Send new invitation' : 'Approve'}
                      </Button>
                    ) : null}
                    {r.status === 'pending' || r.status === 'approved' ? (
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={busy}
                        onClick={() => act(r, 'decline')}
                      >
                        Decline
                      </Button>
                    ) : null}
                  </div>
                </li>
              );
            })}
          </ul>
          {total > PAGE_SIZE ? (
            <OffsetPager
              offset={offset}
              pageSize={PAGE_SIZE}
              total={total}
              onOffsetChange={setOffset}
            />
          ) : null}
        </>
      )}
    </div>
  );
};

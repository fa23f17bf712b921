import { Mail } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import {
  emailOutboxStatuses,
  type EmailOutboxStatus,
  type EmailOutboxSummary,
} from '@chorus/shared/api/email';
import { outboxMessages } from '@chorus/shared/admin-messages';
import { Button } from '@/components/ui/button';
import { OffsetPager } from '@/components/ui/offset-pager';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useEmailOutbox } from '../api/get-email-outbox';
import { useEmailOutboxItem } from '../api/get-email-outbox-item';
import { useResendEmailOutboxItem } from '../api/resend-email-outbox-item';
import {
  TableLoadError,
  TableLoading,
  DataTable,
  type TableColumn,
} from '@/components/ui/data-table';
import { formatDateTime as formatTime } from '@/lib/format';

const PAGE_SIZE = 50;

const statusLabel: Record<EmailOutboxStatus, string> = {
  pending: 'Pending',
  sent: 'Sent',
  failed: 'Failed',
};

const statusClass: Record<EmailOutboxStatus, string> = {
  pending: 'bg-amber-500/15 text-amber-700 dark:text-amber-300',
  sent: 'bg-emerald-500/15 text-emerald-700 dark:text-emerald-300',
  failed: 'bg-destructive/15 text-destructive',
};

const emailColumns: TableColumn[] = [
  { label: 'Subject' },
  { label: 'To' },
  { label: 'Status' },
  { label: 'Created' },
  { label: 'Actions', end: true, hidden: true },
];

const StatusBadge = ({ status }: { status: EmailOutboxStatus }) => (
  <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${statusClass[status]}`}>
    {statusLabel[status]}
  </span>
);

/**
 * One mail opened. Its HTML is shown in a sandboxed frame (`sandbox=""`: no scripts, no forms,
 * no navigation, its own origin), so markup written by a user can never run in the back office.
 */
const EmailDetail = ({ id, onClose }: { id: string; onClose: () => void }) => {
  const { data, isPending, isError, error } = useEmailOutboxItem(id);
  const resend = useResendEmailOutboxItem();
  const [view, setView] = useState<'html' | 'text'>('html');

  if (isPending) return <Spinner label="Loading e-mail" />;
  if (isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        The e-mail could not be loaded: {errorMessage(error)}
      </p>
    );
  }
  return (
    <section aria-label="E-mail" className="rounded-lg border p-4">
      <div className="mb-3 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1 text-sm">
          <h2 className="text-base font-semibold break-words">{data.subject}</h2>
          <p className="text-muted-foreground">To: {data.to.join(', ')}</p>
          <p className="text-muted-foreground">From: {data.from}</p>
          {data.reply_to ? (
            <p className="text-muted-foreground">Reply-To: {data.reply_to}</p>
          ) : null}
          <p className="flex items-center gap-2">
            <StatusBadge status={data.status} /> {data.attempts} attempt(s) · created{' '}
            {formatTime(data.created_at)}
          </p>
          {data.last_error ? (
            <p className="text-destructive">Last error: {data.last_error}</p>
          ) : null}
        </div>
        <div className="flex gap-2">
          <Button
            size="sm"
            disabled={resend.isPending}
            onClick={() =>
              resend.mutate(data.id, {
                onSuccess: (after) =>
                  toast.success(
                    after.status === 'sent'
                      ? 'The e-mail was sent again.'
                      : `Resend attempted; the e-mail is ${statusLabel[after.status].toLowerCase()}.`,
                  ),
                onError: (e) => toast.error(errorMessage(e, 'The e-mail could not be resent.')),
              })
            }
          >
            {resend.isPending ? 'Resending…' : 'Resend'}
          </Button>
          <Button size="sm" variant="outline" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
      {data.content_hidden ? (
        <div
          role="note"
          className="mb-3 rounded-md border border-amber-500/40 bg-amber-500/10 p-3 text-sm"
        >
          <p className="font-medium">{outboxMessages.contentHiddenTitle}</p>
          <p className="text-muted-foreground">{outboxMessages.contentHidden}</p>
        </div>
      ) : null}
      <div className="mb-2 flex gap-2" role="group" aria-label="Show part">
        <Button
          size="sm"
          variant={view === 'html' ? 'secondary' : 'ghost'}
          aria-pressed={view === 'html'}
          onClick={() => setView('html')}
        >
          HTML
        </Button>
        <Button
          size="sm"
          variant={view === 'text' ? 'secondary' : 'ghost'}
          aria-pressed={view === 'text'}
          onClick={() => setView('text')}
        >
          Text
        </Button>
      </div>
      {view === 'html' ? (
        <iframe
          title={`E-mail: ${data.subject}`}
          sandbox=""
          srcDoc={data.html}
          referrerPolicy="no-referrer"
          className="h-[32rem] w-full rounded-md border bg-white"
        />
      ) : (
        <pre className="max-h-[32rem] overflow-auto rounded-md border bg-muted/30 p-3 text-sm whitespace-pre-wrap">
          {data.text ?? '(no text part)'}
        </pre>
      )}
    </section>
  );
};

/** `/admin/emails`: every mail Chorus wrote, whether it went out, and why not. */
export const EmailOutboxPage = () => {
  const [status, setStatus] = useState<EmailOutboxStatus | 'all'>('all');
  const [offset, setOffset] = useState(0);
  const [openId, setOpenId] = useState<string | null>(null);
  const { data, isPending, isError, error } = useEmailOutbox({ status, limit: PAGE_SIZE, offset });
  const total = data?.total ?? 0;

  return (
    <div>
      <PageHeader
        title="E-mails"
        description="Every e-mail Chorus wrote: sent, waiting (no mail server, or a retry is due) or failed with the reason."
      />
      <div className="mb-4 flex flex-wrap gap-2" role="group" aria-label="Filter by status">
        {(['all', ...emailOutboxStatuses] as const).map((s) => (
          <Button
            key={s}
            size="sm"
            variant={status === s ? 'secondary' : 'outline'}
            aria-pressed={status === s}
            onClick={() => {
              setStatus(s);
              setOffset(0);
            }}
          >
            {s === 'all' ? 'All' : statusLabel[s]}
          </Button>
        ))}
      </div>

      {openId ? (
        <div className="mb-6">
          <EmailDetail key={openId} id={openId} onClose={() => setOpenId(null)} />
        </div>
      ) : null}

      {isPending ? (
        <TableLoading label="Loading e-mails" />
      ) : isError ? (
        <TableLoadError what="The outbox" error={error} />
      ) : data.emails.length === 0 ? (
        <EmptyState icon={Mail} title="No e-mails here">
          {status === 'all'
            ? 'E-mails appear here as soon as Chorus writes one (a sign-up, a password reset, a message to support).'
            : `No e-mail is ${statusLabel[status].toLowerCase()}.`}
        </EmptyState>
      ) : (
        <>
          <DataTable columns={emailColumns}>
            {data.emails.map((m: EmailOutboxSummary) => (
              <tr key={m.id}>
                <td className="px-4 py-3">
                  <div className="font-medium">{m.subject}</div>
                  <div className="text-xs text-muted-foreground">
                    {m.template ?? 'custom'}
                    {m.content_hidden ? (
                      <span
                        className="ml-2 rounded-full bg-muted px-2 py-0.5"
                        title={outboxMessages.contentHidden}
                      >
                        {outboxMessages.contentHiddenBadge}
                      </span>
                    ) : null}
                  </div>
                </td>
                <td className="px-4 py-3">{m.to.join(', ')}</td>
                <td className="px-4 py-3">
                  <StatusBadge status={m.status} />
                  {m.last_error ? (
                    <div
                      className="mt-1 max-w-xs truncate text-xs text-muted-foreground"
                      title={m.last_error}
                    >
                      {m.last_error}
                    </div>
                  ) : null}
                </td>
                <td className="px-4 py-3 whitespace-nowrap">{formatTime(m.created_at)}</td>
                <td className="px-4 py-3 text-right">
                  <Button size="sm" variant="outline" onClick={() => setOpenId(m.id)}>
                    Open
                  </Button>
                </td>
              </tr>
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
    </div>
  );
};

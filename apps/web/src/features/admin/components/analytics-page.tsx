import { BarChart3 } from 'lucide-react';
import { useState } from 'react';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { useAnalytics } from '../api/get-analytics';
import {
  ActiveUsersChart,
  ErrorRateChart,
  MessagesChart,
  ProviderShareChart,
} from './analytics-charts';
import { ActivityDefinitions } from './activity-definitions';
import { TableLoadError, TableLoading } from '@/components/ui/data-table';

const windows = [7, 30, 90, 365] as const;

const Stat = ({ label, value }: { label: string; value: string }) => (
  <div className="rounded-xl border bg-card p-4 shadow-sm">
    <dt className="text-sm text-muted-foreground">{label}</dt>
    <dd className="mt-1 text-2xl font-semibold tabular-nums">{value}</dd>
  </div>
);

export const AnalyticsPage = () => {
  const [days, setDays] = useState<number>(30);
  const analytics = useAnalytics(days);
  const data = analytics.data;
  const quiet = data !== undefined && data.totals.messages === 0 && data.totals.calls === 0;

  return (
    <div>
      <PageHeader
        title="Analytics"
        description="How the workspace is used, counted from stored messages, AI calls and error reports, per UTC day."
        actions={
          <label className="flex items-center gap-2 text-sm">
            <span className="whitespace-nowrap text-muted-foreground">Show the last</span>
            <NativeSelect
              value={days}
              onChange={(event) => setDays(Number(event.target.value))}
              aria-label="Days to show"
            >
              {windows.map((n) => (
                <option key={n} value={n}>
                  {n} days
                </option>
              ))}
            </NativeSelect>
          </label>
        }
      />
      {analytics.isPending ? (
        <TableLoading label="Loading analytics" />
      ) : analytics.isError ? (
        <TableLoadError what="Analytics" error={analytics.error} />
      ) : !data ? null : quiet ? (
        <EmptyState
          icon={BarChart3}
          title={`No activity in the last ${days} days`}
          action={<LinkButton to="/chat">Open the chat</LinkButton>}
        >
          The charts are drawn from real use: every message, every chat or proxy call and every
          error report. Nothing was recorded in this window yet. Send a message in the chat, or pick
          a longer window above.
        </EmptyState>
      ) : (
        <div className="grid gap-6">
          <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3 xl:grid-cols-5">
            <Stat label="Active users" value={data.totals.active_users.toLocaleString()} />
            <Stat label="Messages" value={data.totals.messages.toLocaleString()} />
            <Stat label="Failed replies" value={data.totals.failed_replies.toLocaleString()} />
            <Stat label="AI calls" value={data.totals.calls.toLocaleString()} />
            <Stat
              label="Failed calls"
              value={`${data.totals.errors.toLocaleString()} (${
                data.totals.calls === 0
                  ? '0'
                  : Math.round((data.totals.errors / data.totals.calls) * 1000) / 10
              }%)`}
            />
          </dl>
          <ActivityDefinitions />
          <div className="grid gap-6 lg:grid-cols-2">
            <ActiveUsersChart days={data.days} />
            <MessagesChart days={data.days} />
            <ErrorRateChart days={data.days} />
            {data.providers.length === 0 ? (
              <EmptyState icon={BarChart3} title="No AI calls in this window">
                Provider share counts chat replies and proxy calls. Messages were stored, but no
                call was recorded yet; calls made from now on appear here.
              </EmptyState>
            ) : (
              <ProviderShareChart shares={data.providers} />
            )}
          </div>
        </div>
      )}
    </div>
  );
};

import { Download, TrendingUp } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button, buttonVariants } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { FormField } from '@/components/ui/form-field';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import type { UsageSource } from '@chorus/shared/api/usage';
import { providerName } from '@/lib/providers';
import {
  rangeProblem,
  useUsageStatistics,
  usageStatisticsCsvUrl,
  type UsageRange,
} from '../api/get-usage-statistics';
import { ActivityDefinitions } from './activity-definitions';
import {
  TableLoadError,
  TableLoading,
  DataTable,
  type TableColumn,
} from '@/components/ui/data-table';

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

const lastDays = (days: number): UsageRange => {
  const to = new Date();
  const from = new Date(to);
  from.setUTCDate(from.getUTCDate() - (days - 1));
  return { from: isoDay(from), to: isoDay(to) };
};

const promptColumns: TableColumn[] = [
  { label: 'Date' },
  { label: 'User' },
  { label: 'Prompts', end: true },
];

const tokenColumns: TableColumn[] = [
  { label: 'Provider' },
  { label: 'Model' },
  { label: 'Calls', end: true },
  { label: 'Failed calls', end: true },
  { label: 'Input tokens', end: true },
  { label: 'Output tokens', end: true },
  { label: 'Est. cost', end: true },
];

const sourceColumns: TableColumn[] = [
  { label: 'Used for' },
  { label: 'Calls', end: true },
  { label: 'Failed calls', end: true },
  { label: 'Input tokens', end: true },
  { label: 'Output tokens', end: true },
  { label: 'Est. cost', end: true },
];

const sourceLabels: Record<UsageSource, string> = {
  chat: 'Chat',
  proxy: 'API proxy',
  scenario: 'Scenarios',
  agent: 'Agents',
  workflow: 'Workflows',
  schedule: 'Scheduled runs',
  test: 'Test runner',
  widget: 'Embedded widget',
  knowledge: 'Knowledge base',
  trends: 'Trends questions',
};

/** Estimated dollars from the price table; a dash when no call had a known price. */
const dollars = (usd: number | null) =>
  usd === null
    ? '—'
    : usd.toLocaleString(undefined, {
        style: 'currency',
        currency: 'USD',
        minimumFractionDigits: 2,
        maximumFractionDigits: usd < 1 ? 4 : 2,
      });

const number = (n: number) => n.toLocaleString();

export const UsageStatisticsPage = () => {
  const [draft, setDraft] = useState<UsageRange>(() => lastDays(30));
  const [range, setRange] = useState<UsageRange>(draft);
  const [problem, setProblem] = useState<string | null>(null);
  const stats = useUsageStatistics(range, rangeProblem(range) === null);

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = rangeProblem(draft);
    setProblem(found);
    if (!found) setRange(draft);
  };

  const csvLink = (table: 'prompt_usage' | 'tokens' | 'sources', label: string) => (
    <a
      href={usageStatisticsCsvUrl(range, table)}
      download
      className={buttonVariants({ variant: 'outline', size: 'sm' })}
    >
      <Download aria-hidden="true" /> {label}
    </a>
  );

  return (
    <div>
      <PageHeader
        title="Usage statistics"
        description="Prompts each user sent per day (what daily limits count), and the tokens and estimated cost per provider and model and per use. Dates are UTC."
      />
      <form
        noValidate
        onSubmit={apply}
        aria-label="Date range"
        className="mb-6 flex flex-wrap items-end gap-3"
      >
        <div className="w-44">
          <FormField
            label="From"
            type="date"
            name="from"
            value={draft.from}
            onChange={(event) => setDraft({ ...draft, from: event.target.value })}
          />
        </div>
        <div className="w-44">
          <FormField
            label="To"
            type="date"
            name="to"
            value={draft.to}
            onChange={(event) => setDraft({ ...draft, to: event.target.value })}
          />
        </div>
        <Button type="submit">Apply</Button>
        {stats.isFetching && !stats.isPending ? (
          <Spinner className="size-4" label="Updating" />
        ) : null}
        <div className="ml-auto flex flex-wrap gap-2">
          {csvLink('prompt_usage', 'Export CSV')}
          {csvLink('tokens', 'Export tokens CSV')}
          {csvLink('sources', 'Export by use CSV')}
        </div>
      </form>
      {problem ? (
        <p role="alert" className="mb-4 text-sm text-destructive">
          {problem}
        </p>
      ) : null}

      {stats.isPending ? (
        <TableLoading label="Loading usage statistics" />
      ) : stats.isError ? (
        <TableLoadError what="The statistics" error={stats.error} />
      ) : (
        <div className="grid gap-8">
          <section aria-labelledby="activity-heading">
            <h2 id="activity-heading" className="mb-3 text-lg font-semibold">
              Activity in this range
            </h2>
            <dl className="grid grid-cols-3 gap-4">
              {(
                [
                  ['Active users', stats.data.activity.active_users],
                  ['Messages', stats.data.activity.messages],
                  ['Failed replies', stats.data.activity.failed_replies],
                ] as const
              ).map(([label, value]) => (
                <div key={label} className="rounded-xl border bg-card p-4 shadow-sm">
                  <dt className="text-sm text-muted-foreground">{label}</dt>
                  <dd className="mt-1 text-2xl font-semibold tabular-nums">{number(value)}</dd>
                </div>
              ))}
            </dl>
            <ActivityDefinitions className="mt-3" />
          </section>
          <section aria-labelledby="prompt-usage-heading">
            <h2 id="prompt-usage-heading" className="mb-3 text-lg font-semibold">
              Prompts per user per day
            </h2>
            {stats.data.prompt_usage.length === 0 ? (
              <EmptyState icon={TrendingUp} title="No prompts in this range">
                Nobody sent a chat or proxy prompt between {stats.data.from} and {stats.data.to}.
                Widen the range, or come back once people have chatted.
              </EmptyState>
            ) : (
              <DataTable columns={promptColumns}>
                {stats.data.prompt_usage.map((row) => (
                  <tr key={`${row.user_id}-${row.date}`}>
                    <td className="px-4 py-2 whitespace-nowrap tabular-nums">{row.date}</td>
                    <td className="px-4 py-2">{row.email}</td>
                    <td className="px-4 py-2 text-right tabular-nums">{number(row.count)}</td>
                  </tr>
                ))}
              </DataTable>
            )}
          </section>
          <section aria-labelledby="tokens-heading">
            <h2 id="tokens-heading" className="mb-3 text-lg font-semibold">
              Tokens per provider and model
            </h2>
            {stats.data.tokens.length === 0 ? (
              <EmptyState icon={TrendingUp} title="No AI calls in this range">
                Token counts appear here for every chat reply and proxy call, as the providers
                report them.
              </EmptyState>
            ) : (
              <DataTable columns={tokenColumns}>
                {stats.data.tokens.map((row) => (
                  <tr key={`${row.provider}-${row.model ?? ''}`}>
                    <td className="px-4 py-2">{providerName(row.provider)}</td>
                    <td className="px-4 py-2 font-mono text-xs">{row.model ?? '—'}</td>
                    <td className="px-4 py-2 text-right tabular-nums">{number(row.calls)}</td>
                    <td className="px-4 py-2 text-right tabular-nums">{number(row.errors)}</td>
                    <td className="px-4 py-2 text-right tabular-nums">
                      {number(row.input_tokens)}
                    </td>
                    <td className="px-4 py-2 text-right tabular-nums">
                      {number(row.output_tokens)}
                    </td>
                    <td className="px-4 py-2 text-right tabular-nums">{dollars(row.cost_usd)}</td>
                  </tr>
                ))}
              </DataTable>
            )}
          </section>
          <section aria-labelledby="sources-heading">
            <h2 id="sources-heading" className="mb-3 text-lg font-semibold">
              Usage by what it was for
            </h2>
            {stats.data.sources.length === 0 ? (
              <EmptyState icon={TrendingUp} title="No AI calls in this range">
                Every model call is counted here by where it came from: chat, the API proxy,
                scenarios, agents, workflows, scheduled runs, the test runner, the widget and the
                knowledge base.
              </EmptyState>
            ) : (
              <DataTable columns={sourceColumns}>
                {stats.data.sources.map((row) => (
                  <tr key={row.source}>
                    <td className="px-4 py-2">{sourceLabels[row.source]}</td>
                    <td className="px-4 py-2 text-right tabular-nums">{number(row.calls)}</td>
                    <td className="px-4 py-2 text-right tabular-nums">{number(row.errors)}</td>
                    <td className="px-4 py-2 text-right tabular-nums">
                      {number(row.input_tokens)}
                    </td>
                    <td className="px-4 py-2 text-right tabular-nums">
                      {number(row.output_tokens)}
                    </td>
                    <td className="px-4 py-2 text-right tabular-nums">{dollars(row.cost_usd)}</td>
                  </tr>
                ))}
              </DataTable>
            )}
          </section>
        </div>
      )}
    </div>
  );
};

import { Download, TrendingUp } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button, buttonVariants } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { FormField } from '@/components/ui/form-field';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { providerName } from '@/lib/providers';
import {
  rangeProblem,
  useUsageStatistics,
  usageStatisticsCsvUrl,
  type UsageRange,
} from '../api/get-usage-statistics';

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

const lastDays = (days: number): UsageRange => {
  const to = new Date();
  const from = new Date(to);
  from.setUTCDate(from.getUTCDate() - (days - 1));
  return { from: isoDay(from), to: isoDay(to) };
};

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

  const csvLink = (table: 'prompt_usage' | 'tokens', label: string) => (
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
        description="Prompts each user sent per day (what daily limits count) and the tokens used per provider and model. Dates are UTC."
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
        </div>
      </form>
      {problem ? (
        <p role="alert" className="mb-4 text-sm text-destructive">
          {problem}
        </p>
      ) : null}

      {stats.isPending ? (
        <div className="flex justify-center py-12">
          <Spinner label="Loading usage statistics" />
        </div>
      ) : stats.isError ? (
        <p role="alert" className="text-sm text-destructive">
          The statistics could not be loaded: {errorMessage(stats.error)}
        </p>
      ) : (
        <div className="grid gap-8">
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
              <div className="overflow-x-auto rounded-lg border">
                <table className="w-full text-left text-sm">
                  <thead className="bg-muted/50 text-xs text-muted-foreground uppercase">
                    <tr>
                      <th scope="col" className="px-4 py-3 font-medium">
                        Date
                      </th>
                      <th scope="col" className="px-4 py-3 font-medium">
                        User
                      </th>
                      <th scope="col" className="px-4 py-3 text-right font-medium">
                        Prompts
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y">
                    {stats.data.prompt_usage.map((row) => (
                      <tr key={`${row.user_id}-${row.date}`}>
                        <td className="px-4 py-2 whitespace-nowrap tabular-nums">{row.date}</td>
                        <td className="px-4 py-2">{row.email}</td>
                        <td className="px-4 py-2 text-right tabular-nums">{number(row.count)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
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
              <div className="overflow-x-auto rounded-lg border">
                <table className="w-full text-left text-sm">
                  <thead className="bg-muted/50 text-xs text-muted-foreground uppercase">
                    <tr>
                      <th scope="col" className="px-4 py-3 font-medium">
                        Provider
                      </th>
                      <th scope="col" className="px-4 py-3 font-medium">
                        Model
                      </th>
                      <th scope="col" className="px-4 py-3 text-right font-medium">
                        Calls
                      </th>
                      <th scope="col" className="px-4 py-3 text-right font-medium">
                        Errors
                      </th>
                      <th scope="col" className="px-4 py-3 text-right font-medium">
                        Input tokens
                      </th>
                      <th scope="col" className="px-4 py-3 text-right font-medium">
                        Output tokens
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y">
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
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </div>
      )}
    </div>
  );
};

import { TableLoadError, TableLoading } from '@/components/ui/data-table';
import { formatDate } from '@/lib/format';
import { usageDays, useWidgetUsage } from '../api/widgets';

/** A `YYYY-MM-DD` day as the browser reads dates, without moving it across midnight. */
const dayLabel = (day: string) => formatDate(`${day}T12:00:00Z`);

/** Messages, tokens and visitors per day over the last 30 days: a table with a bar per day. */
export const WidgetUsage = ({ widgetId }: { widgetId: string }) => {
  const usage = useWidgetUsage(widgetId);
  if (usage.isPending) return <TableLoading label="Loading the usage" />;
  if (usage.isError) return <TableLoadError what="The usage" error={usage.error} />;
  const days = [...usage.data.days].sort((a, b) => b.day.localeCompare(a.day));
  const tokensOf = (d: (typeof days)[number]) => d.input_tokens + d.output_tokens;
  const most = Math.max(0, ...days.map(tokensOf));
  const total = days.reduce(
    (sum, d) => ({
      messages: sum.messages + d.messages,
      tokens: sum.tokens + tokensOf(d),
    }),
    { messages: 0, tokens: 0 },
  );
  if (total.messages === 0 && total.tokens === 0) {
    return (
      <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
        No use in the last {usageDays} days.
      </p>
    );
  }
  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted-foreground">
        Last {usageDays} days: {total.messages.toLocaleString()} messages,{' '}
        {total.tokens.toLocaleString()} tokens.
      </p>
      <div className="overflow-x-auto rounded-lg border">
        <table className="w-full text-sm">
          <caption className="sr-only">Usage per day over the last {usageDays} days</caption>
          <thead className="bg-muted/50 text-left text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                Day
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Messages
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Visitors
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Tokens
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day} className="border-t">
                <th scope="row" className="px-3 py-1.5 text-left font-normal whitespace-nowrap">
                  {dayLabel(d.day)}
                </th>
                <td className="px-3 py-1.5 text-right tabular-nums">
                  {d.messages.toLocaleString()}
                </td>
                <td className="px-3 py-1.5 text-right tabular-nums">
                  {d.visitors.toLocaleString()}
                </td>
                <td className="w-1/2 px-3 py-1.5">
                  <div className="flex items-center gap-2">
                    <div aria-hidden="true" className="h-2 flex-1 overflow-hidden rounded bg-muted">
                      <div
                        className="h-full bg-primary"
                        style={{ width: `${most > 0 ? (tokensOf(d) / most) * 100 : 0}%` }}
                      />
                    </div>
                    <span
                      className="w-24 text-right tabular-nums"
                      title={`${d.input_tokens.toLocaleString()} in · ${d.output_tokens.toLocaleString()} out`}
                    >
                      {tokensOf(d).toLocaleString()}
                    </span>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
};

import type { SampleStat } from '@chorus/shared/sample-stats';

const count = new Intl.NumberFormat('en-US');

type SampleStatsFigureProps = {
  id: string;
  title: string;
  stats: readonly SampleStat[];
};

/**
 * One of spec §3's fixed sample lists as a bar chart and the same figures as a table. The bars
 * are drawn with plain elements (no chart library on a public page); screen readers get the table.
 */
export const SampleStatsFigure = ({ id, title, stats }: SampleStatsFigureProps) => {
  const top = Math.max(...stats.map((stat) => stat.percentage), 1);
  return (
    <section aria-labelledby={id} className="rounded-xl border bg-card p-4 sm:p-5">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={id} className="font-semibold">
          {title}
        </h3>
        <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          Sample figures
        </span>
      </div>
      <div className="mt-4 grid gap-6 lg:grid-cols-2">
        <div aria-hidden="true" data-testid={`${id}-chart`} className="grid content-start gap-3">
          {stats.map((stat) => (
            <div key={stat.title} className="grid gap-1">
              <div className="flex items-baseline justify-between gap-3 text-sm">
                <span className="min-w-0 break-words">{stat.title}</span>
                <span className="shrink-0 font-medium tabular-nums">{stat.percentage}%</span>
              </div>
              <div className="h-2.5 rounded-full bg-muted">
                <div
                  className="h-full rounded-full bg-primary"
                  style={{ width: `${(stat.percentage / top) * 100}%` }}
                />
              </div>
            </div>
          ))}
        </div>
        <table className="w-full self-start text-sm">
          <caption className="sr-only">{title}: sample figures, not measured here</caption>
          <thead>
            <tr className="border-b text-left text-xs text-muted-foreground">
              <th scope="col" className="py-1.5 pr-3 font-medium">
                Title
              </th>
              <th scope="col" className="py-1.5 pr-3 text-right font-medium">
                Clicks
              </th>
              <th scope="col" className="py-1.5 text-right font-medium">
                Share
              </th>
            </tr>
          </thead>
          <tbody>
            {stats.map((stat) => (
              <tr key={stat.title} className="border-b last:border-0">
                <th scope="row" className="py-1.5 pr-3 text-left font-normal">
                  {stat.title}
                </th>
                <td className="py-1.5 pr-3 text-right tabular-nums">{count.format(stat.clicks)}</td>
                <td className="py-1.5 text-right tabular-nums">{stat.percentage}%</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
};

import { sampleScenarioStats } from '@chorus/shared/sample-stats';

const count = new Intl.NumberFormat('en-US');
const top = Math.max(...sampleScenarioStats.map((stat) => stat.percentage));

/** Spec §3's scenario stats: fixed sample figures, said to be so. */
export const PopularScenarios = () => (
  <section aria-labelledby="popular-scenarios-title" className="rounded-xl border bg-card p-4">
    <h2 id="popular-scenarios-title" className="font-semibold">
      Popular scenarios
    </h2>
    <p className="mt-1 text-xs text-muted-foreground">
      Sample figures to show the idea, not usage measured in this workspace.
    </p>
    <ol className="mt-4 grid gap-3">
      {sampleScenarioStats.map((stat) => (
        <li key={stat.title} className="grid gap-1 text-sm">
          <span className="min-w-0 break-words">{stat.title}</span>
          <span className="text-xs text-muted-foreground tabular-nums">
            {count.format(stat.clicks)} clicks · {stat.percentage}%
          </span>
          <div aria-hidden="true" className="h-1.5 rounded-full bg-muted">
            <div
              className="h-full rounded-full bg-primary/70"
              style={{ width: `${(stat.percentage / top) * 100}%` }}
            />
          </div>
        </li>
      ))}
    </ol>
  </section>
);

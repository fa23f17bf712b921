import { Sparkles } from 'lucide-react';
import { sampleScenarioStats, sampleTrendStats } from '@chorus/shared/sample-stats';
import { LinkButton } from '@/components/ui/link-button';
import { PageHeader } from '@/components/ui/page-header';
import { usePageMeta } from '@/lib/use-page-meta';
import { InstanceTrends } from './instance-trends';
import { SampleStatsFigure } from './sample-stats-figure';

export const TrendsPage = () => {
  usePageMeta({
    title: 'Trends',
    description:
      'What people use AI models for, as sample figures, and the public prompts and cookbook scenarios used most on this Chorus instance over 7 and 30 days.',
  });
  return (
    <div>
      <PageHeader
        title="Trends"
        description="What people reach for AI models to do, and which shared prompts and cookbook scenarios are used most on this instance."
        actions={
          <LinkButton to="/trends-proxy">
            <Sparkles aria-hidden="true" />
            Ask AI about these trends
          </LinkButton>
        }
      />
      <div className="grid gap-12">
        <section aria-labelledby="trends-sample-title" className="grid gap-4">
          <div>
            <h2 id="trends-sample-title" className="text-xl font-semibold tracking-tight">
              Popular uses of AI
            </h2>
            <p className="mt-1 max-w-2xl text-sm text-muted-foreground">
              Sample figures that show the idea: fixed lists, not usage measured on this instance.
            </p>
          </div>
          <SampleStatsFigure
            id="trends-sample-uses"
            title="Trending uses"
            stats={sampleTrendStats}
          />
          <SampleStatsFigure
            id="trends-sample-scenarios"
            title="Popular scenarios"
            stats={sampleScenarioStats}
          />
        </section>
        <section aria-labelledby="trends-instance-title" className="grid gap-4">
          <div>
            <h2 id="trends-instance-title" className="text-xl font-semibold tracking-tight">
              On this instance
            </h2>
            <p className="mt-1 max-w-2xl text-sm text-muted-foreground">
              Real counts of copies of public prompts and runs of cookbook scenarios on this
              instance: totals only, never anyone&apos;s own data.
            </p>
          </div>
          <InstanceTrends />
        </section>
        <section
          aria-labelledby="trends-ask-title"
          className="flex flex-col gap-4 rounded-2xl border bg-muted/40 p-6 sm:flex-row sm:items-center sm:justify-between"
        >
          <div>
            <h2 id="trends-ask-title" className="text-lg font-semibold">
              Ask AI about these trends
            </h2>
            <p className="mt-1 max-w-xl text-sm text-muted-foreground">
              A model gets these lists as context and answers your question, such as what is rising
              fastest. It runs with your keys and counts against your quota, so you sign in first.
            </p>
          </div>
          <LinkButton to="/trends-proxy" variant="outline">
            Ask a question
          </LinkButton>
        </section>
      </div>
    </div>
  );
};

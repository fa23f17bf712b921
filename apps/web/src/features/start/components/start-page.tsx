import {
  BookOpen,
  Bot,
  CalendarClock,
  Check,
  Compass,
  FlaskConical,
  KeyRound,
  Library,
  LifeBuoy,
  MessageSquare,
  ScrollText,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router';
import type { OnboardingStep, OnboardingStepId } from '@chorus/shared/api/onboarding';
import { Button } from '@/components/ui/button';
import { LinkButton } from '@/components/ui/link-button';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { usePageMeta } from '@/lib/use-page-meta';
import { cn } from '@/lib/utils';
import { useOnboarding } from '../api/get-onboarding';
import { useSetChecklistDismissed } from '../api/update-onboarding';
import { checklistProgress } from '../utils/checklist-progress';

const stepIcons: Record<OnboardingStepId, LucideIcon> = {
  key: KeyRound,
  chat: MessageSquare,
  prompt: ScrollText,
  scenario: FlaskConical,
  knowledge: Library,
  agent: Bot,
  schedule: CalendarClock,
};

const startingPoints = [
  {
    to: '/chat',
    icon: MessageSquare,
    title: 'Chat',
    body: 'Talk to any provider; switch model mid-conversation.',
  },
  {
    to: '/prompts',
    icon: ScrollText,
    title: 'Prompt library',
    body: 'Save the prompts you reuse, with {{variables}}.',
  },
  {
    to: '/scenarios',
    icon: FlaskConical,
    title: 'Scenarios',
    body: 'Run one prompt on several models side by side.',
  },
  {
    to: '/scenarios-cookbook',
    icon: BookOpen,
    title: 'Scenarios cookbook',
    body: 'Ready-made scenarios to copy and adapt.',
  },
  {
    to: '/discover',
    icon: Compass,
    title: 'Discover',
    body: 'Everything public on this instance, searchable.',
  },
  {
    to: '/help',
    icon: LifeBuoy,
    title: 'Help center',
    body: 'Answers, guides and a contact form.',
  },
];

const StepAction = ({ step, primary }: { step: OnboardingStep; primary: boolean }) => (
  <LinkButton to={step.action.href} variant={primary ? 'default' : 'outline'} size="sm">
    {step.action.label}
  </LinkButton>
);

const StepRow = ({ step, primary }: { step: OnboardingStep; primary: boolean }) => {
  const Icon = stepIcons[step.id];
  return (
    <li
      aria-labelledby={`step-${step.id}`}
      data-done={step.done}
      className="flex gap-3 p-4 sm:items-center sm:gap-4"
    >
      <div
        className={cn(
          'flex size-9 shrink-0 items-center justify-center rounded-full',
          step.done
            ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200'
            : 'bg-primary/10 text-primary',
        )}
      >
        {step.done ? (
          <Check aria-hidden="true" className="size-5" />
        ) : (
          <Icon aria-hidden="true" className="size-5" />
        )}
      </div>
      <div className="flex min-w-0 flex-1 flex-col items-start gap-2 sm:flex-row sm:items-center sm:gap-4">
        <div className="min-w-0 flex-1">
          <h3
            id={`step-${step.id}`}
            className={cn('font-medium', step.done && 'text-muted-foreground')}
          >
            {step.title}
          </h3>
          <p className="mt-0.5 text-sm text-muted-foreground">{step.description}</p>
        </div>
        {step.done ? (
          <p className="flex items-center gap-1.5 text-sm font-medium text-emerald-800 dark:text-emerald-300">
            <Check aria-hidden="true" className="size-4" />
            Done
          </p>
        ) : (
          <StepAction step={step} primary={primary} />
        )}
      </div>
    </li>
  );
};

const Checklist = ({ steps, onDismiss }: { steps: OnboardingStep[]; onDismiss: () => void }) => {
  const progress = checklistProgress(steps);
  const finished = progress.total > 0 && progress.next === null;
  return (
    <section aria-labelledby="checklist-title" className="rounded-xl border bg-card shadow-sm">
      <div className="flex flex-col gap-3 border-b p-4 sm:p-5">
        <div className="flex items-start justify-between gap-4">
          <div>
            <h2 id="checklist-title" className="text-lg font-semibold">
              Getting-started checklist
            </h2>
            <p className="mt-0.5 text-sm text-muted-foreground">
              Worked out from what you have done so far: each step ticks itself once it is done.
            </p>
          </div>
          <Button variant="ghost" size="sm" onClick={onDismiss}>
            Dismiss
            <span className="sr-only"> the checklist</span>
          </Button>
        </div>
        <div className="flex items-center gap-3">
          <div
            role="progressbar"
            aria-labelledby="checklist-title"
            aria-valuemin={0}
            aria-valuemax={progress.total}
            aria-valuenow={progress.done}
            aria-valuetext={progress.label}
            className="h-2 flex-1 overflow-hidden rounded-full bg-muted"
          >
            <div
              className="h-full rounded-full bg-primary transition-[width] duration-500"
              style={{ width: `${progress.percent}%` }}
            />
          </div>
          <p className="shrink-0 text-sm font-medium tabular-nums">{progress.label}</p>
        </div>
      </div>
      {finished ? (
        <p role="status" className="border-b bg-emerald-50 p-4 text-sm dark:bg-emerald-950/40">
          All done: you have seen the main parts of Chorus. You can dismiss the checklist now.
        </p>
      ) : null}
      <ol aria-label="Steps" className="divide-y">
        {steps.map((step) => (
          <StepRow key={step.id} step={step} primary={step.id === progress.next?.id} />
        ))}
      </ol>
    </section>
  );
};

const ChecklistArea = () => {
  const onboarding = useOnboarding();
  const setDismissed = useSetChecklistDismissed();

  if (onboarding.isPending) {
    return (
      <div className="flex justify-center rounded-xl border py-12">
        <Spinner label="Loading your checklist" />
      </div>
    );
  }
  if (onboarding.isError) {
    return (
      <div
        role="alert"
        className="flex flex-col gap-3 rounded-xl border border-destructive/40 p-4 text-sm sm:flex-row sm:items-center sm:justify-between"
      >
        <p>
          Your checklist could not be loaded: {errorMessage(onboarding.error)} The starting points
          below still work.
        </p>
        <Button variant="outline" size="sm" onClick={() => void onboarding.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const { steps, dismissed } = onboarding.data;
  if (dismissed) {
    const progress = checklistProgress(steps);
    return (
      <div className="flex flex-col gap-2 rounded-xl border border-dashed p-4 text-sm sm:flex-row sm:items-center sm:justify-between">
        <p className="text-muted-foreground">
          You hid the getting-started checklist ({progress.label}).
        </p>
        <Button
          variant="outline"
          size="sm"
          disabled={setDismissed.isPending}
          onClick={() => setDismissed.mutate(false)}
        >
          Show the checklist
        </Button>
      </div>
    );
  }
  return <Checklist steps={steps} onDismiss={() => setDismissed.mutate(true)} />;
};

export const StartPage = () => {
  usePageMeta({
    title: 'Get started',
    description:
      'Your getting-started checklist for Chorus: a key, a first chat, a saved prompt and a scenario run.',
  });
  return (
    <div>
      <PageHeader
        title="Get started"
        description="A few steps to a working Chorus workspace, each one click away, and the places to go next."
      />
      <div className="grid gap-10">
        <ChecklistArea />
        <section aria-labelledby="starting-points-title">
          <h2 id="starting-points-title" className="text-lg font-semibold">
            Starting points
          </h2>
          <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {startingPoints.map(({ to, icon: Icon, title, body }) => (
              <li key={to}>
                <Link
                  to={to}
                  className="flex h-full gap-3 rounded-xl border bg-card p-4 transition-colors outline-none hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/50"
                >
                  <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-primary" />
                  <span>
                    <span className="block font-medium">{title}</span>
                    <span className="mt-1 block text-sm text-muted-foreground">{body}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
};

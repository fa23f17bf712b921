import { KeyRound, MessageSquare, ScrollText, User } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { LinkButton } from '@/components/ui/link-button';

const steps = [
  {
    icon: KeyRound,
    title: 'Set up your provider keys',
    body: 'Copy the system keys your administrator makes available, or bring your own.',
    to: '/copy-api-keys',
    action: 'Manage API keys',
  },
  {
    icon: MessageSquare,
    title: 'Choose a provider and start a chat',
    body: 'Pick the provider new conversations start with; you can switch at any time.',
    to: '/chat',
    action: 'Open chat',
  },
  {
    icon: ScrollText,
    title: 'Save the prompts you reuse',
    body: 'Your prompt library feeds chats, scheduled runs and test runs.',
    to: '/prompts',
    action: 'Open the prompt library',
  },
  {
    icon: User,
    title: 'Complete your profile',
    body: 'Set the public name others see on what you share, and check your plan.',
    to: '/profile',
    action: 'Open your profile',
  },
];

export const StartPage = () => (
  <div>
    <PageHeader title="Start" description="Four steps to a working Chorus workspace." />
    <ol className="grid gap-4">
      {steps.map((step, index) => (
        <li
          key={step.to}
          className="flex flex-col gap-4 rounded-xl border bg-card p-5 sm:flex-row sm:items-center"
        >
          <div className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
            <step.icon aria-hidden="true" className="size-5" />
          </div>
          <div className="flex-1">
            <h2 className="font-medium">
              <span className="text-muted-foreground">{index + 1}. </span>
              {step.title}
            </h2>
            <p className="mt-1 text-sm text-muted-foreground">{step.body}</p>
          </div>
          <LinkButton to={step.to} variant="outline" size="sm">
            {step.action}
          </LinkButton>
        </li>
      ))}
    </ol>
  </div>
);

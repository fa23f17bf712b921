import {
  Bot,
  CalendarClock,
  FlaskConical,
  KeyRound,
  Library,
  MessageSquare,
  ScrollText,
  Workflow,
} from 'lucide-react';
import { LinkButton } from '@/components/ui/link-button';
import { providerList } from '@/lib/providers';
import { useSession } from '@/lib/session';

const capabilities = [
  {
    icon: MessageSquare,
    title: 'One chat, every model',
    body: 'Switch provider and model mid-project without changing tools.',
  },
  {
    icon: KeyRound,
    title: 'Your keys or ours',
    body: 'Bring your own keys, or use the keys your administrator provides.',
  },
  {
    icon: ScrollText,
    title: 'Prompt library',
    body: 'Save the prompts you reuse and run them anywhere in the app.',
  },
  {
    icon: Bot,
    title: 'Agents and custom AIs',
    body: 'Package a model, instructions and tools into a reusable assistant.',
  },
  {
    icon: Library,
    title: 'Knowledge base',
    body: 'Ground answers in your own documents, with sources.',
  },
  {
    icon: Workflow,
    title: 'Workflows',
    body: 'Chain prompts, tools and agents into repeatable steps.',
  },
  {
    icon: CalendarClock,
    title: 'Scheduled runs',
    body: 'Run prompts on a schedule and get the results by email.',
  },
  {
    icon: FlaskConical,
    title: 'Test runner',
    body: 'Compare one prompt across providers side by side.',
  },
];

export const LandingPage = () => {
  const session = useSession();
  const signedIn = session.status === 'signed-in';

  return (
    <div className="flex flex-col">
      <section className="relative overflow-hidden border-b">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(60%_50%_at_50%_0%,color-mix(in_oklch,var(--primary)_18%,transparent),transparent)]"
        />
        <div className="relative mx-auto max-w-5xl px-4 py-20 text-center sm:px-6 sm:py-28">
          <p className="mx-auto mb-4 inline-flex rounded-full border bg-background/60 px-3 py-1 text-xs font-medium text-muted-foreground">
            Eight AI providers · one workspace
          </p>
          <h1 className="text-4xl font-semibold tracking-tight text-balance sm:text-6xl">
            Every AI model your team needs, in one place
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-pretty text-muted-foreground">
            Chorus is a chat workspace for AI models from several providers. Compare answers, keep
            your best prompts, build agents and workflows, and schedule runs — with your own keys or
            the ones your administrator provides.
          </p>
          <div className="mt-10 flex flex-wrap justify-center gap-3">
            {signedIn ? (
              <LinkButton to="/chat" size="lg">
                Open chat
              </LinkButton>
            ) : (
              <>
                <LinkButton to="/auth?mode=sign-up" size="lg">
                  Get started
                </LinkButton>
                <LinkButton to="/auth" size="lg" variant="outline">
                  Sign in
                </LinkButton>
              </>
            )}
          </div>
        </div>
      </section>

      <section
        aria-labelledby="providers-heading"
        className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6"
      >
        <h2 id="providers-heading" className="text-center text-2xl font-semibold tracking-tight">
          The providers you already use
        </h2>
        <p className="mx-auto mt-2 max-w-xl text-center text-muted-foreground">
          Pick a default, switch per conversation, and see which model answers best.
        </p>
        <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {providerList.map((provider) => (
            <li key={provider.id} className="rounded-xl border bg-card p-5">
              <p className="font-medium">{provider.name}</p>
              <p className="mt-1 text-sm text-muted-foreground">{provider.description}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="capabilities-heading" className="border-t bg-muted/40">
        <div className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6">
          <h2
            id="capabilities-heading"
            className="text-center text-2xl font-semibold tracking-tight"
          >
            More than a chat box
          </h2>
          <ul className="mt-10 grid gap-x-8 gap-y-10 sm:grid-cols-2 lg:grid-cols-4">
            {capabilities.map(({ icon: Icon, title, body }) => (
              <li key={title}>
                <Icon aria-hidden="true" className="size-6 text-primary" />
                <p className="mt-3 font-medium">{title}</p>
                <p className="mt-1 text-sm text-muted-foreground">{body}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="mx-auto w-full max-w-4xl px-4 py-16 text-center sm:px-6">
        <h2 className="text-2xl font-semibold tracking-tight">Ready when you are</h2>
        <p className="mt-2 text-muted-foreground">
          Create an account in a minute. Your first conversation is one click away.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <LinkButton to={signedIn ? '/chat' : '/auth?mode=sign-up'}>
            {signedIn ? 'Open chat' : 'Create your account'}
          </LinkButton>
          <LinkButton to="/help" variant="outline">
            Read the help center
          </LinkButton>
        </div>
      </section>
    </div>
  );
};

import { ArrowRight, FlaskConical, MessageSquare, ScrollText } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { LibraryPrompt, LibraryScenario } from '@chorus/shared/api/library';
import { providers, type ProviderId } from '@chorus/shared/providers';
import { LinkButton } from '@/components/ui/link-button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { formatDate } from '@/lib/format';
import { useEnabledProviders } from '@/lib/queries/enabled-providers';
import { useSession } from '@/lib/session';
import { usePageMeta } from '@/lib/use-page-meta';
import { useLibraryPrompts, useLibraryScenarios } from '../api/get-library-highlights';
import { useRecentConversations } from '../api/get-recent-conversations';
import { featuredFirst } from '../utils/featured-first';
import { ProviderIcon } from './provider-icon';

const highlightCount = 3;

const capabilities = [
  {
    icon: MessageSquare,
    title: 'Chat with any model',
    body: 'One conversation, any provider: switch model mid-thread and keep the history.',
  },
  {
    icon: ScrollText,
    title: 'Keep your best prompts',
    body: 'A prompt library with {{variables}}, versions and one-keystroke insert in chat.',
  },
  {
    icon: FlaskConical,
    title: 'Compare side by side',
    body: 'Run one prompt on several models at once, with timings, tokens and cost.',
  },
];

const Section = ({
  id,
  title,
  description,
  more,
  children,
}: {
  id: string;
  title: string;
  description?: string;
  more?: ReactNode;
  children: ReactNode;
}) => (
  <section aria-labelledby={id}>
    <div className="mb-4 flex flex-wrap items-end justify-between gap-x-4 gap-y-1">
      <div>
        <h2 id={id} className="text-xl font-semibold tracking-tight">
          {title}
        </h2>
        {description ? <p className="mt-1 text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {more}
    </div>
    {children}
  </section>
);

const MoreLink = ({ to, children }: { to: string; children: ReactNode }) => (
  <Link
    to={to}
    className="inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
  >
    {children}
    <ArrowRight aria-hidden="true" className="size-4" />
  </Link>
);

const Loading = ({ label }: { label: string }) => (
  <div className="flex justify-center rounded-xl border py-8">
    <Spinner label={label} />
  </div>
);

const Note = ({ children, alert = false }: { children: ReactNode; alert?: boolean }) => (
  <p
    role={alert ? 'alert' : undefined}
    className="rounded-xl border border-dashed p-4 text-sm text-muted-foreground"
  >
    {children}
  </p>
);

const FeaturedBadge = () => (
  <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-100">
    Featured
  </span>
);

type HighlightCardProps = {
  id: string;
  title: string;
  description: string;
  category: string;
  featured: boolean;
  preview: string;
  to: string;
};

const HighlightCard = ({
  id,
  title,
  description,
  category,
  featured,
  preview,
  to,
}: HighlightCardProps) => (
  <li
    aria-labelledby={id}
    className="relative flex flex-col gap-2 rounded-xl border bg-card p-4 shadow-sm transition-colors focus-within:ring-[3px] focus-within:ring-ring/50 hover:bg-accent/40"
  >
    <div className="flex flex-wrap items-center gap-2">
      <span className="rounded bg-muted px-1.5 py-0.5 text-xs">{category}</span>
      {featured ? <FeaturedBadge /> : null}
    </div>
    <h3 id={id} className="leading-snug font-medium">
      {/* The whole card is the link's target area; the link's name stays the title. */}
      <Link to={to} className="outline-none after:absolute after:inset-0 after:content-['']">
        {title}
      </Link>
    </h3>
    {description ? (
      <p className="line-clamp-2 text-sm text-muted-foreground">{description}</p>
    ) : null}
    <p className="mt-auto rounded-md bg-muted/50 px-2 py-1.5 font-mono text-xs break-words text-muted-foreground">
      {/* Clamped inside the padding: clamping the padded box would show a sliver of line 3. */}
      <span className="line-clamp-2">{preview}</span>
    </p>
  </li>
);

const promptCard = (prompt: LibraryPrompt) => (
  <HighlightCard
    key={prompt.id}
    id={`home-prompt-${prompt.id}`}
    title={prompt.title}
    description={prompt.description}
    category={prompt.category}
    featured={prompt.featured}
    preview={prompt.content}
    to={`/discover?kind=prompt&q=${encodeURIComponent(prompt.title)}`}
  />
);

const scenarioCard = (scenario: LibraryScenario) => (
  <HighlightCard
    key={scenario.id}
    id={`home-scenario-${scenario.id}`}
    title={scenario.title}
    description={scenario.description}
    category={scenario.category}
    featured={scenario.featured}
    preview={scenario.user_prompt || scenario.steps.join(' · ')}
    to={`/discover?kind=scenario&q=${encodeURIComponent(scenario.title)}`}
  />
);

const LibraryHighlights = () => {
  const prompts = useLibraryPrompts();
  const scenarios = useLibraryScenarios();
  return (
    <>
      <Section
        id="home-prompts"
        title="Prompts from the library"
        description="Published by this instance's curators: copy one into your own library."
        more={<MoreLink to="/discover?kind=prompt">All public prompts</MoreLink>}
      >
        {prompts.isPending ? (
          <Loading label="Loading prompts" />
        ) : prompts.isError ? (
          <Note alert>
            The prompt library could not be loaded: {errorMessage(prompts.error)} Try reloading the
            page.
          </Note>
        ) : prompts.data.items.length === 0 ? (
          <Note>
            No prompts are published yet. Once curators publish some, the featured ones show here.
          </Note>
        ) : (
          <ul aria-label="Library prompts" className="grid gap-3 md:grid-cols-3">
            {featuredFirst(prompts.data.items, highlightCount).map(promptCard)}
          </ul>
        )}
      </Section>
      <Section
        id="home-scenarios"
        title="From the scenarios cookbook"
        description="Ready-made jobs to run on several models side by side."
        more={<MoreLink to="/scenarios-cookbook">Open the cookbook</MoreLink>}
      >
        {scenarios.isPending ? (
          <Loading label="Loading the cookbook" />
        ) : scenarios.isError ? (
          <Note alert>
            The cookbook could not be loaded: {errorMessage(scenarios.error)} Try reloading the
            page.
          </Note>
        ) : scenarios.data.items.length === 0 ? (
          <Note>No cookbook scenarios are published yet.</Note>
        ) : (
          <ul aria-label="Cookbook scenarios" className="grid gap-3 md:grid-cols-3">
            {featuredFirst(scenarios.data.items, highlightCount).map(scenarioCard)}
          </ul>
        )}
      </Section>
    </>
  );
};

const ProviderList = ({ ids }: { ids: readonly ProviderId[] }) => (
  <ul aria-label="Providers" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
    {ids.map((id) => (
      <li key={id} className="flex items-start gap-3 rounded-xl border bg-card p-3">
        <ProviderIcon provider={providers[id]} />
        <div className="min-w-0">
          <p className="text-sm font-medium">{providers[id].name}</p>
          <p className="text-xs text-muted-foreground">{providers[id].description}</p>
        </div>
      </li>
    ))}
  </ul>
);

/** The providers an admin has turned on (`get-enabled-providers`, public). */
const EnabledProviders = () => {
  const enabled = useEnabledProviders();
  if (!enabled) return <Loading label="Loading the providers" />;
  if (enabled.length === 0) {
    return (
      <Note>An administrator has turned every provider off for now, so chats cannot be sent.</Note>
    );
  }
  return <ProviderList ids={enabled} />;
};

const Providers = ({ signedIn }: { signedIn: boolean }) => (
  <Section
    id="home-providers"
    title="Providers on this instance"
    description={
      signedIn
        ? 'The providers an administrator has turned on here. Use your own key, or the ones provided.'
        : 'The providers an administrator has turned on here. Sign up to chat with them, with your own key or the ones provided.'
    }
  >
    <EnabledProviders />
  </Section>
);

const RecentConversations = () => {
  const recent = useRecentConversations(true);
  return (
    <Section
      id="home-recent"
      title="Continue where you left off"
      more={<MoreLink to="/chat">All conversations</MoreLink>}
    >
      {recent.isPending ? (
        <Loading label="Loading your conversations" />
      ) : recent.isError ? (
        <Note alert>
          Your conversations could not be loaded: {errorMessage(recent.error)} Try reloading the
          page.
        </Note>
      ) : recent.data.conversations.length === 0 ? (
        <Note>
          No conversations yet.{' '}
          <Link to="/chat" className="font-medium text-primary underline underline-offset-4">
            Start your first chat
          </Link>
          .
        </Note>
      ) : (
        <ul aria-label="Recent conversations" className="divide-y rounded-xl border bg-card">
          {recent.data.conversations.map((conversation) => (
            <li key={conversation.id} className="flex items-center gap-3 p-3">
              <MessageSquare aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium">{conversation.title || 'Untitled'}</p>
                <p className="text-xs text-muted-foreground">
                  Updated {formatDate(conversation.updated_at)}
                </p>
              </div>
              <LinkButton to={`/chat/${conversation.id}`} variant="outline" size="sm">
                Continue
                <span className="sr-only"> “{conversation.title || 'Untitled'}”</span>
              </LinkButton>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
};

const SignUpCallToAction = () => (
  <section
    aria-labelledby="home-sign-up"
    className="rounded-2xl border bg-muted/40 px-6 py-10 text-center"
  >
    <h2 id="home-sign-up" className="text-xl font-semibold tracking-tight">
      Try it with your own questions
    </h2>
    <p className="mx-auto mt-2 max-w-xl text-sm text-muted-foreground">
      Create an account in a minute. The getting-started checklist takes you from a key to your
      first answer, and anything in Discover is one click from your workspace.
    </p>
    <div className="mt-6 flex flex-wrap justify-center gap-3">
      <LinkButton to="/auth?mode=sign-up">Create your account</LinkButton>
      <LinkButton to="/auth" variant="outline">
        Sign in
      </LinkButton>
    </div>
  </section>
);

export const HomePage = () => {
  usePageMeta({
    title: 'Home',
    description:
      'Chorus is one workspace for AI models from eight providers: chat, a prompt library, side-by-side scenarios and a public cookbook.',
  });
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  const name = signedIn ? session.user.name : '';
  return (
    <div className="grid gap-12">
      <header className="grid gap-6">
        <div>
          <h1 className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
            {signedIn
              ? `Welcome back${name ? `, ${name}` : ''}`
              : 'Every AI model your team uses, in one workspace'}
          </h1>
          <p className="mt-3 max-w-2xl text-base text-pretty text-muted-foreground">
            Chorus puts models from eight providers behind one chat. Keep the prompts that work, run
            the same job on several models to see which answers best, and start from recipes other
            people have published here.
          </p>
          <div className="mt-6 flex flex-wrap gap-3">
            {signedIn ? (
              <>
                <LinkButton to="/chat">Open chat</LinkButton>
                <LinkButton to="/start" variant="outline">
                  Getting-started checklist
                </LinkButton>
              </>
            ) : (
              <>
                <LinkButton to="/auth?mode=sign-up">Get started free</LinkButton>
                <LinkButton to="/discover" variant="outline">
                  Browse what is shared
                </LinkButton>
              </>
            )}
          </div>
        </div>
        <ul aria-label="What Chorus does" className="grid gap-3 sm:grid-cols-3">
          {capabilities.map(({ icon: Icon, title, body }) => (
            <li key={title} className="rounded-xl border bg-card p-4">
              <Icon aria-hidden="true" className="size-5 text-primary" />
              <p className="mt-2 text-sm font-medium">{title}</p>
              <p className="mt-1 text-sm text-muted-foreground">{body}</p>
            </li>
          ))}
        </ul>
      </header>
      {signedIn ? <RecentConversations /> : null}
      <LibraryHighlights />
      <Providers signedIn={signedIn} />
      {signedIn ? null : <SignUpCallToAction />}
    </div>
  );
};

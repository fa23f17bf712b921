import { BookOpen, Compass, LifeBuoy, TrendingUp } from 'lucide-react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/ui/page-header';
import { LinkButton } from '@/components/ui/link-button';
import { useSession } from '@/lib/session';

const destinations = [
  {
    to: '/discover',
    icon: Compass,
    title: 'Discover',
    body: 'What people in this workspace share.',
  },
  {
    to: '/trends',
    icon: TrendingUp,
    title: 'Trends',
    body: 'Which scenarios and providers are used most.',
  },
  {
    to: '/scenarios-cookbook',
    icon: BookOpen,
    title: 'Scenarios cookbook',
    body: 'Prompt recipes for common jobs.',
  },
  {
    to: '/help',
    icon: LifeBuoy,
    title: 'Help center',
    body: 'Answers to the questions people ask most.',
  },
];

export const HomePage = () => {
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  return (
    <div>
      <PageHeader
        title={
          signedIn ? `Welcome back${session.user.name ? `, ${session.user.name}` : ''}` : 'Home'
        }
        description="Everything in Chorus starts from here."
        actions={
          signedIn ? (
            <LinkButton to="/chat">Open chat</LinkButton>
          ) : (
            <LinkButton to="/auth">Sign in</LinkButton>
          )
        }
      />
      <ul className="grid gap-4 sm:grid-cols-2">
        {destinations.map(({ to, icon: Icon, title, body }) => (
          <li key={to}>
            <Link
              to={to}
              className="flex h-full gap-4 rounded-xl border bg-card p-5 transition-colors hover:bg-accent/50"
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
    </div>
  );
};

import {
  Activity,
  AlertTriangle,
  BarChart3,
  Gauge,
  KeyRound,
  Mail,
  MessageSquare,
  ScrollText,
  Shield,
  TrendingUp,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useAdminOverview } from '../api/get-overview';
import { ActivityDefinitions } from './activity-definitions';
import { useAdmin } from './admin-context';

type Area = {
  to: string;
  label: string;
  description: string;
  icon: LucideIcon;
  superOnly?: boolean;
};

const areas: Area[] = [
  {
    to: '/admin/users',
    label: 'Users',
    description: 'Roles, plans, suspension, access requests',
    icon: Users,
  },
  {
    to: '/admin/api-keys',
    label: 'API keys',
    description: 'System and default keys, providers',
    icon: KeyRound,
  },
  {
    to: '/admin/pricing-plans',
    label: 'Pricing plans',
    description: 'Prices, daily limits, providers',
    icon: Gauge,
  },
  {
    to: '/admin/usage-statistics',
    label: 'Usage statistics',
    description: 'Prompts and tokens per user',
    icon: TrendingUp,
  },
  {
    to: '/admin/analytics',
    label: 'Analytics',
    description: 'Active users, messages, errors',
    icon: BarChart3,
  },
  {
    to: '/admin/prompts',
    label: 'Prompts',
    description: 'The public library and cookbook',
    icon: ScrollText,
  },
  {
    to: '/admin/emails',
    label: 'E-mails',
    description: 'Sent and waiting transactional mail',
    icon: Mail,
  },
  {
    to: '/admin/audit-logs',
    label: 'Audit log',
    description: 'Every change made here',
    icon: ScrollText,
  },
  {
    to: '/admin/super-admin',
    label: 'Super admin',
    description: 'Admins, sign-up mode, settings',
    icon: Shield,
    superOnly: true,
  },
];

const Stat = ({
  label,
  value,
  hint,
  icon: Icon,
}: {
  label: string;
  value: number;
  hint?: string;
  icon: LucideIcon;
}) => (
  <div className="rounded-xl border bg-card p-5 shadow-sm">
    <dt className="flex items-center gap-2 text-sm text-muted-foreground">
      <Icon aria-hidden="true" className="size-4" />
      {label}
    </dt>
    <dd className="mt-2 text-3xl font-semibold tabular-nums">{value.toLocaleString()}</dd>
    {hint ? <dd className="mt-1 text-xs text-muted-foreground">{hint}</dd> : null}
  </div>
);

/** `/admin`: today's numbers (UTC day) and a way into every admin area. */
export const AdminOverviewPage = () => {
  const overview = useAdminOverview();
  const { isSuperAdmin } = useAdmin();
  return (
    <div>
      <PageHeader
        title="Back office"
        description="Today in this workspace (UTC day), and every area you manage. Every change you make is written to the audit log."
      />
      {overview.isPending ? (
        <div className="flex justify-center py-10">
          <Spinner label="Loading today's numbers" />
        </div>
      ) : overview.isError ? (
        <p role="alert" className="mb-6 text-sm text-destructive">
          Today's numbers could not be loaded: {errorMessage(overview.error)}
        </p>
      ) : (
        <>
          <dl className="mb-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Today">
            <Stat label="Users" value={overview.data.users_total} icon={Users} />
            <Stat label="Active today" value={overview.data.active_today} icon={Activity} />
            <Stat
              label="Messages today"
              value={overview.data.messages_today}
              icon={MessageSquare}
            />
            <Stat
              label="Errors today"
              value={overview.data.errors_today}
              icon={AlertTriangle}
              hint={`${overview.data.errors_breakdown.client_errors} in browsers · ${overview.data.errors_breakdown.failed_replies} failed replies`}
            />
          </dl>
          <ActivityDefinitions className="mb-2" />
          <p className="mb-8 text-sm text-muted-foreground">
            Sign-up is {overview.data.signup_mode === 'request' ? 'by request' : 'open'}.{' '}
            {overview.data.pending_access_requests > 0 ? (
              <Link
                to="/admin/users"
                className="font-medium text-primary underline-offset-4 hover:underline"
              >
                {overview.data.pending_access_requests} access{' '}
                {overview.data.pending_access_requests === 1 ? 'request waits' : 'requests wait'}{' '}
                for an answer.
              </Link>
            ) : (
              'No access request is waiting.'
            )}{' '}
            {overview.data.knowledge_search === 'hybrid'
              ? 'Knowledge bases are searched by meaning and full text.'
              : 'Knowledge bases are searched by full text alone: this database has no vector extension (pgvector).'}
          </p>
        </>
      )}
      <nav aria-label="Admin areas">
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {areas
            .filter((a) => !a.superOnly || isSuperAdmin)
            .map(({ to, label, description, icon: Icon }) => (
              <li key={to}>
                <Link
                  to={to}
                  className="flex h-full items-start gap-3 rounded-xl border p-4 transition-colors hover:bg-accent"
                >
                  <Icon aria-hidden="true" className="mt-0.5 size-5 text-muted-foreground" />
                  <span>
                    <span className="block font-medium">{label}</span>
                    <span className="block text-sm text-muted-foreground">{description}</span>
                  </span>
                </Link>
              </li>
            ))}
        </ul>
      </nav>
    </div>
  );
};

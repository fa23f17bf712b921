import {
  BarChart3,
  Gauge,
  KeyRound,
  LayoutDashboard,
  ScrollText,
  Shield,
  TrendingUp,
  type LucideIcon,
} from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';
import { AdminApiKeysPage } from './admin-api-keys-page';
import { useAdmin } from './admin-context';

export type AdminSection =
  | 'overview'
  | 'api-keys'
  | 'pricing-plans'
  | 'usage-statistics'
  | 'super-admin'
  | 'prompts'
  | 'analytics';

type SectionCopy = {
  title: string;
  description: string;
  icon: LucideIcon;
  emptyTitle: string;
  emptyBody: string;
  next: { to: string; label: string };
};

const sections: Record<AdminSection, SectionCopy> = {
  overview: {
    title: 'Back office',
    description: 'Manage the people, keys, plans and content of this Chorus workspace.',
    icon: LayoutDashboard,
    emptyTitle: 'Pick an area to manage',
    emptyBody:
      'Each area of the back office is in the navigation: users and their roles, the system API keys, pricing plans, usage statistics, shared prompts and analytics. Every change you make there is written to the audit log.',
    next: { to: '/admin/users', label: 'Manage users' },
  },
  'api-keys': {
    title: 'System API keys',
    description: 'The keys Chorus uses for a provider when a user has no key of their own.',
    icon: KeyRound,
    emptyTitle: 'No system keys listed',
    emptyBody:
      'System keys are listed here per provider with a masked hint, whether the provider is enabled, and when the key was last updated. Keys are stored encrypted and never shown again in full.',
    next: { to: '/admin/usage-statistics', label: 'See usage statistics' },
  },
  'pricing-plans': {
    title: 'Pricing plans',
    description: 'The plans users are on: price, daily prompt limit and allowed providers.',
    icon: Gauge,
    emptyTitle: 'No plans listed',
    emptyBody:
      'Plans are listed here with their price, daily prompt limit and the providers they allow. The plan named Free is the fallback for anyone without a plan.',
    next: { to: '/admin/users', label: 'Manage users' },
  },
  'usage-statistics': {
    title: 'Usage statistics',
    description: 'Registrations and prompt usage per user, newest registrations first.',
    icon: TrendingUp,
    emptyTitle: 'No statistics to show',
    emptyBody:
      'Statistics are listed here per user from their registration date onwards: prompts sent per day against their plan limit, and the providers they use.',
    next: { to: '/admin/analytics', label: 'Open analytics' },
  },
  'super-admin': {
    title: 'Super admin',
    description: 'Workspace-wide settings reserved for super admins.',
    icon: Shield,
    emptyTitle: 'No workspace settings to show',
    emptyBody:
      'Super admins grant and remove the admin role, enable or disable providers for the whole workspace, and read the audit log of every admin action here.',
    next: { to: '/admin/users', label: 'Manage users' },
  },
  prompts: {
    title: 'Prompts management',
    description: 'Prompts shared with everyone in the workspace and the cookbook recipes.',
    icon: ScrollText,
    emptyTitle: 'No shared prompts yet',
    emptyBody:
      'Prompts and recipes published to the whole workspace are listed here, where you can edit, feature or withdraw them.',
    next: { to: '/scenarios-cookbook', label: 'View the cookbook' },
  },
  analytics: {
    title: 'Analytics',
    description: 'How the workspace is used: active users, conversations and provider share.',
    icon: BarChart3,
    emptyTitle: 'No analytics to chart',
    emptyBody:
      'Charts of daily active users, conversations started and each provider’s share of answers appear here, counted from real use of this workspace.',
    next: { to: '/admin/usage-statistics', label: 'See usage statistics' },
  },
};

const SectionPlaceholder = ({ section }: { section: AdminSection }) => {
  const copy = sections[section];
  const { isSuperAdmin } = useAdmin();
  const superAdminOnly = section === 'super-admin' && !isSuperAdmin;
  return (
    <AreaPage
      title={copy.title}
      description={copy.description}
      icon={copy.icon}
      emptyTitle={superAdminOnly ? 'Super admins only' : copy.emptyTitle}
      emptyBody={
        superAdminOnly
          ? 'You are an admin but not a super admin, so this page shows nothing for you. Ask a super admin if you need these settings changed.'
          : copy.emptyBody
      }
      actions={<LinkButton to={copy.next.to}>{copy.next.label}</LinkButton>}
    />
  );
};

/** The admin areas; the ones already built render their page, the rest describe what is coming. */
export const AdminSectionPage = ({ section }: { section: AdminSection }) =>
  section === 'api-keys' ? <AdminApiKeysPage /> : <SectionPlaceholder section={section} />;

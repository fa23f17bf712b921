import {
  Bot,
  BarChart3,
  BookOpen,
  Boxes,
  CalendarClock,
  Compass,
  FlaskConical,
  History,
  Gauge,
  KeyRound,
  LayoutDashboard,
  Library,
  LifeBuoy,
  Mail,
  MessageSquareCode,
  Rocket,
  ScrollText,
  ServerCog,
  Shield,
  Sparkles,
  TrendingUp,
  User,
  Users,
  Workflow,
  Wrench,
} from 'lucide-react';
import type { NavSection } from './nav-types';

// The chat itself is reached through New chat and the conversation list beside these.
export const workspaceNav: NavSection[] = [
  {
    title: 'Workspace',
    items: [
      { to: '/start', label: 'Start', icon: Rocket },
      { to: '/prompts', label: 'Prompts', icon: ScrollText },
      { to: '/scenarios', label: 'Scenarios', icon: Boxes },
      { to: '/agents', label: 'Agents', icon: Bot, end: true },
      { to: '/agent-embed-chat', label: 'Embedded chat', icon: MessageSquareCode },
      { to: '/custom-ais', label: 'Custom AIs', icon: Sparkles },
      { to: '/knowledge-base', label: 'Knowledge base', icon: Library },
    ],
  },
  {
    title: 'Automation',
    items: [
      { to: '/tools', label: 'Tools', icon: Wrench },
      { to: '/workflows', label: 'Workflows', icon: Workflow },
      { to: '/schedule-runs', label: 'Schedule runs', icon: CalendarClock },
      { to: '/test-runner', label: 'Test runner', icon: FlaskConical },
    ],
  },
  {
    title: 'Account',
    items: [
      { to: '/profile', label: 'Profile', icon: User },
      { to: '/copy-api-keys', label: 'API keys', icon: KeyRound },
    ],
  },
];

/** Public pages a signed-in person may still want; they open in the public layout. */
export const exploreNav: NavSection = {
  title: 'Explore',
  items: [
    { to: '/discover', label: 'Discover', icon: Compass },
    { to: '/trends', label: 'Trends', icon: TrendingUp },
    { to: '/scenarios-cookbook', label: 'Cookbook', icon: BookOpen },
    { to: '/help', label: 'Help', icon: LifeBuoy },
  ],
};

export const adminNav: NavSection[] = [
  {
    title: 'Back office',
    items: [
      { to: '/admin', label: 'Overview', icon: LayoutDashboard, end: true },
      { to: '/admin/users', label: 'Users', icon: Users },
      { to: '/admin/emails', label: 'E-mails', icon: Mail },
      { to: '/admin/api-keys', label: 'API keys', icon: KeyRound },
      { to: '/admin/pricing-plans', label: 'Pricing plans', icon: Gauge },
      { to: '/admin/usage-statistics', label: 'Usage statistics', icon: TrendingUp },
      { to: '/admin/prompts', label: 'Prompts', icon: ScrollText },
      { to: '/admin/custom-ais', label: 'Custom AIs', icon: Sparkles },
      { to: '/admin/analytics', label: 'Analytics', icon: BarChart3 },
      { to: '/admin/super-admin', label: 'Super admin', icon: Shield },
      { to: '/admin/jobs', label: 'Background jobs', icon: ServerCog },
      { to: '/admin/audit-logs', label: 'Audit log', icon: History },
    ],
  },
];

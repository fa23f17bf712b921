import type { RouteObject } from 'react-router';
import { RouterErrorPage } from './errors/router-error-page';
import { RequireAdmin } from './guards/require-admin';
import { RequireAuth } from './guards/require-auth';
import { MarketingLayout } from './layouts/marketing-layout';
import { PublicLayout } from './layouts/public-layout';
import { RootLayout } from './layouts/root-layout';
import type { WorkspaceRouteHandle } from './layouts/workspace-layout';
import { lazyPage } from './lazy-page';

// The signed-in shell (sidebar, drawer, conversation list) is its own chunk: public pages,
// /auth above all, never load it.
const WorkspaceLayout = lazyPage(() => import('./layouts/workspace-layout'), 'WorkspaceLayout');
const fullBleed: WorkspaceRouteHandle = { fullBleed: true };

const Landing = lazyPage(() => import('@/features/landing/components/landing-page'), 'LandingPage');
const Home = lazyPage(() => import('@/features/home/components/home-page'), 'HomePage');
const Auth = lazyPage(() => import('@/features/auth/components/auth-page'), 'AuthPage');
const ResetPassword = lazyPage(
  () => import('@/features/auth/components/reset-password-page'),
  'ResetPasswordPage',
);
const RequestAccess = lazyPage(
  () => import('@/features/request-access/components/request-access-page'),
  'RequestAccessPage',
);
const Discover = lazyPage(
  () => import('@/features/discover/components/discover-page'),
  'DiscoverPage',
);
const Trends = lazyPage(() => import('@/features/trends/components/trends-page'), 'TrendsPage');
const Help = lazyPage(() => import('@/features/help/components/help-page'), 'HelpPage');
const HelpArticle = lazyPage(
  () => import('@/features/help/components/help-article-page'),
  'HelpArticlePage',
);
const ScenariosCookbook = lazyPage(
  () => import('@/features/scenarios/components/scenarios-cookbook-page'),
  'ScenariosCookbookPage',
);
const ApiDocs = lazyPage(
  () => import('@/features/api-docs/components/api-docs-page'),
  'ApiDocsPage',
);

const Start = lazyPage(() => import('@/features/start/components/start-page'), 'StartPage');
const Chat = lazyPage(() => import('@/features/chat/components/chat-page'), 'ChatPage');
const ChatProxy = lazyPage(
  () => import('@/features/chat/components/chat-proxy-page'),
  'ChatProxyPage',
);
const KnowledgeBase = lazyPage(
  () => import('@/features/knowledge-base/components/knowledge-base-page'),
  'KnowledgeBasePage',
);
const Agents = lazyPage(() => import('@/features/agents/components/agents-page'), 'AgentsPage');
const AgentEmbedChat = lazyPage(
  () => import('@/features/agent-embed-chat/components/agent-embed-chat-page'),
  'AgentEmbedChatPage',
);
const Scenarios = lazyPage(
  () => import('@/features/scenarios/components/scenarios-page'),
  'ScenariosPage',
);
const ScenarioDetail = lazyPage(
  () => import('@/features/scenarios/components/scenario-detail-page'),
  'ScenarioDetailPage',
);
const ScenarioProxyPlus = lazyPage(
  () => import('@/features/scenarios/components/scenario-proxy-plus-page'),
  'ScenarioProxyPlusPage',
);
const TrendsProxy = lazyPage(
  () => import('@/features/trends/components/trends-proxy-page'),
  'TrendsProxyPage',
);
const CustomAis = lazyPage(
  () => import('@/features/custom-ais/components/custom-ais-page'),
  'CustomAisPage',
);
const Profile = lazyPage(() => import('@/features/profile/components/profile-page'), 'ProfilePage');
const Prompts = lazyPage(() => import('@/features/prompts/components/prompts-page'), 'PromptsPage');
const ScheduleRuns = lazyPage(
  () => import('@/features/schedule-runs/components/schedule-runs-page'),
  'ScheduleRunsPage',
);
const Tools = lazyPage(() => import('@/features/tools/components/tools-page'), 'ToolsPage');
// One lazy route for the list, a set and a run (features/test-runner/components/test-runner-routes).
const TestRunner = lazyPage(
  () => import('@/features/test-runner/components/test-runner-routes'),
  'TestRunnerRoutes',
);
const Workflows = lazyPage(
  () => import('@/features/workflows/components/workflows-page'),
  'WorkflowsPage',
);
const ErrorTelemetryTest = lazyPage(
  () => import('@/features/error-telemetry/components/error-telemetry-test-page'),
  'ErrorTelemetryTestPage',
);
const CopyApiKeys = lazyPage(
  () => import('@/features/keys/components/copy-api-keys-page'),
  'CopyApiKeysPage',
);
const AdminUsers = lazyPage(
  () => import('@/features/admin/components/admin-users-page'),
  'AdminUsersPage',
);
const AdminEmails = lazyPage(
  () => import('@/features/admin/components/email-outbox-page'),
  'EmailOutboxPage',
);
const SharedConversation = lazyPage(
  () => import('@/features/share/components/shared-conversation-page'),
  'SharedConversationPage',
);
const Unsubscribe = lazyPage(
  () => import('@/features/unsubscribe/components/unsubscribe-page'),
  'UnsubscribePage',
);
const AdminOverview = lazyPage(
  () => import('@/features/admin/components/admin-overview-page'),
  'AdminOverviewPage',
);
const AdminAuditLogs = lazyPage(
  () => import('@/features/admin/components/audit-logs-page'),
  'AuditLogsPage',
);
const SuperAdmin = lazyPage(
  () => import('@/features/admin/components/super-admin-page'),
  'SuperAdminPage',
);
const AdminPricingPlans = lazyPage(
  () => import('@/features/admin/components/pricing-plans-page'),
  'PricingPlansPage',
);
const AdminUsageStatistics = lazyPage(
  () => import('@/features/admin/components/usage-statistics-page'),
  'UsageStatisticsPage',
);
const AdminPrompts = lazyPage(
  () => import('@/features/admin/components/admin-prompts-page'),
  'AdminPromptsPage',
);
const AdminCustomAis = lazyPage(
  () => import('@/features/admin/components/admin-custom-ais-page'),
  'AdminCustomAisPage',
);
// Its own chunk, with recharts: never part of the chat or the other admin pages.
const AdminAnalytics = lazyPage(
  () => import('@/features/admin/components/analytics-page'),
  'AnalyticsPage',
);
const AdminJobs = lazyPage(() => import('@/features/admin/components/jobs-page'), 'JobsPage');
const AdminApiKeys = lazyPage(
  () => import('@/features/admin/components/admin-api-keys-page'),
  'AdminApiKeysPage',
);

/** Every route of spec §2. Paths are relative to the root layout at '/'. */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouterErrorPage />,
    children: [
      {
        element: <MarketingLayout />,
        children: [
          { index: true, element: <Landing /> },
          { path: 'auth', element: <Auth /> },
          { path: 'reset-password', element: <ResetPassword /> },
          {
            element: <PublicLayout />,
            children: [
              { path: 'home', element: <Home /> },
              { path: 'request-access', element: <RequestAccess /> },
              { path: 'discover', element: <Discover /> },
              { path: 'trends', element: <Trends /> },
              { path: 'help', element: <Help /> },
              { path: 'help/:slug', element: <HelpArticle /> },
              { path: 'unsubscribe', element: <Unsubscribe /> },
              { path: 'share/:token', element: <SharedConversation /> },
              { path: 'scenarios-cookbook', element: <ScenariosCookbook /> },
              { path: 'api-docs', element: <ApiDocs /> },
            ],
          },
          { path: '*', element: <Landing /> },
        ],
      },
      {
        // One workspace layout for every signed-in page, the back office's too, so moving
        // between areas keeps the sidebar (its scroll, its search) as it was.
        element: <RequireAuth />,
        children: [
          {
            element: <WorkspaceLayout />,
            children: [
              { path: 'start', element: <Start /> },
              { path: 'chat', element: <Chat />, handle: fullBleed },
              { path: 'chat/:chatId', element: <Chat />, handle: fullBleed },
              { path: 'knowledge-base', element: <KnowledgeBase /> },
              { path: 'agents', element: <Agents /> },
              { path: 'scenarios', element: <Scenarios /> },
              { path: 'scenarios/:id', element: <ScenarioDetail /> },
              { path: 'scenario-proxy-plus', element: <ScenarioProxyPlus /> },
              { path: 'trends-proxy', element: <TrendsProxy /> },
              { path: 'chat-proxy', element: <ChatProxy /> },
              { path: 'custom-ais', element: <CustomAis /> },
              { path: 'profile', element: <Profile /> },
              { path: 'prompts', element: <Prompts /> },
              { path: 'schedule-runs', element: <ScheduleRuns /> },
              { path: 'tools', element: <Tools /> },
              { path: 'test-runner/*', element: <TestRunner /> },
              { path: 'workflows', element: <Workflows /> },
              { path: 'agent-embed-chat', element: <AgentEmbedChat /> },
              { path: 'error-telemetry-test', element: <ErrorTelemetryTest /> },
              { path: 'copy-api-keys', element: <CopyApiKeys /> },
              {
                path: 'admin',
                element: <RequireAdmin />,
                children: [
                  { index: true, element: <AdminOverview /> },
                  { path: 'users', element: <AdminUsers /> },
                  { path: 'emails', element: <AdminEmails /> },
                  { path: 'api-keys', element: <AdminApiKeys /> },
                  { path: 'pricing-plans', element: <AdminPricingPlans /> },
                  { path: 'usage-statistics', element: <AdminUsageStatistics /> },
                  { path: 'super-admin', element: <SuperAdmin /> },
                  { path: 'audit-logs', element: <AdminAuditLogs /> },
                  { path: 'jobs', element: <AdminJobs /> },
                  { path: 'prompts', element: <AdminPrompts /> },
                  { path: 'custom-ais', element: <AdminCustomAis /> },
                  { path: 'analytics', element: <AdminAnalytics /> },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

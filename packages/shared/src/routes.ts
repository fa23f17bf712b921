/** The routes of spec §2 and the rules that map a path to its guard and feature contexts. */

export const publicRoutes = [
  '/',
  '/home',
  '/auth',
  '/request-access',
  '/discover',
  '/trends',
  '/help',
  '/scenarios-cookbook',
  '/reset-password',
  '/api-docs',
] as const;

export const signedInRoutes = [
  '/start',
  '/chat',
  '/chat/:chatId',
  '/knowledge-base',
  '/agents',
  '/scenarios',
  '/scenarios/:id',
  '/scenario-proxy-plus',
  '/trends-proxy',
  '/chat-proxy',
  '/custom-ais',
  '/profile',
  '/prompts',
  '/schedule-runs',
  '/tools',
  '/test-runner',
  '/workflows',
  '/agent-embed-chat',
  '/error-telemetry-test',
  '/copy-api-keys',
] as const;

export const adminRoutes = [
  '/admin',
  '/admin/users',
  '/admin/api-keys',
  '/admin/pricing-plans',
  '/admin/usage-statistics',
  '/admin/super-admin',
  '/admin/prompts',
  '/admin/analytics',
  '/admin/audit-logs',
  '/admin/emails',
  '/admin/jobs',
] as const;

/** Where a guest is sent from a signed-in route. */
export const signInRedirect = (from: string) =>
  `/auth?redirect=true&from=${encodeURIComponent(from)}`;

/** Where anyone who is not an admin is sent from an admin route (spec §2: always from=/admin). */
export const adminRedirect = '/auth?redirect=true&from=/admin';

export type Feature = 'chat' | 'scenario' | 'admin';

/** The feature contexts that apply to a path, by the rules of spec §2. */
export const featuresForPath = (path: string): Feature[] => {
  const features: Feature[] = [];
  if (path.startsWith('/chat') || path === '/agents' || path === '/agent-embed-chat') {
    features.push('chat');
  }
  if (path.startsWith('/scenario') || path === '/scenarios' || path.startsWith('/scenarios/')) {
    features.push('scenario');
  }
  if (path.startsWith('/admin') || path === '/profile') features.push('admin');
  return features;
};

/** Only same-origin absolute paths are accepted as a post-sign-in destination. */
export const safeRedirectPath = (from: string | null | undefined): string | null => {
  if (!from || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\'))
    return null;
  return from;
};

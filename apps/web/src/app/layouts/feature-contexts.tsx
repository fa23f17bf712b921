import { Suspense, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { featuresForPath, type Feature } from '@chorus/shared/routes';
import { CenteredSpinner } from '@/components/ui/spinner';
import { lazyPage } from '../lazy-page';

const featureProviders = {
  chat: lazyPage(() => import('@/features/chat/components/chat-provider'), 'ChatProvider'),
  scenario: lazyPage(
    () => import('@/features/scenarios/components/scenario-provider'),
    'ScenarioProvider',
  ),
  admin: lazyPage(() => import('@/features/admin/components/admin-provider'), 'AdminProvider'),
} satisfies Record<Feature, unknown>;

/** Starts loading the feature contexts a path needs (beside its layout and page). */
export const preloadFeatureContexts = (pathname: string): Promise<unknown> =>
  Promise.all(featuresForPath(pathname).map((feature) => featureProviders[feature].preload()));

/** Wraps the page in the contexts of the features its path belongs to (spec §2). */
export const FeatureContexts = ({ children }: { children: ReactNode }) => {
  const { pathname } = useLocation();
  const content = featuresForPath(pathname).reduceRight<ReactNode>((inner, feature) => {
    const Provider = featureProviders[feature];
    return <Provider>{inner}</Provider>;
  }, children);
  return <Suspense fallback={<CenteredSpinner label="Loading feature" />}>{content}</Suspense>;
};

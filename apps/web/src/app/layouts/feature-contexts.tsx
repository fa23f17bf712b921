import { Suspense, lazy, type ComponentType, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { featuresForPath, type Feature } from '@chorus/shared/routes';
import { CenteredSpinner } from '@/components/ui/spinner';

type Provider = ComponentType<{ children: ReactNode }>;

const featureProviders: Record<Feature, Provider> = {
  chat: lazy(() =>
    import('@/features/chat/components/chat-provider').then((m) => ({ default: m.ChatProvider })),
  ),
  scenario: lazy(() =>
    import('@/features/scenarios/components/scenario-provider').then((m) => ({
      default: m.ScenarioProvider,
    })),
  ),
  admin: lazy(() =>
    import('@/features/admin/components/admin-provider').then((m) => ({
      default: m.AdminProvider,
    })),
  ),
};

/** Wraps the page in the contexts of the features its path belongs to (spec §2). */
export const FeatureContexts = ({ children }: { children: ReactNode }) => {
  const { pathname } = useLocation();
  const content = featuresForPath(pathname).reduceRight<ReactNode>((inner, feature) => {
    const Provider = featureProviders[feature];
    return <Provider>{inner}</Provider>;
  }, children);
  return <Suspense fallback={<CenteredSpinner label="Loading feature" />}>{content}</Suspense>;
};

import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { CrashBoundary } from '@/app/errors/crash-boundary';
import { CenteredSpinner } from '@/components/ui/spinner';
import { FeatureContexts } from './feature-contexts';

/**
 * Where a layout shows its page: a crash or a slow download stays inside it, so the header or
 * the sidebar around it keeps working.
 */
export const PageOutlet = () => {
  const { pathname } = useLocation();
  return (
    <CrashBoundary resetKey={pathname}>
      <FeatureContexts>
        <Suspense fallback={<CenteredSpinner />}>
          <Outlet />
        </Suspense>
      </FeatureContexts>
    </CrashBoundary>
  );
};

/** The first stop of a keyboard user: straight to the page, past the navigation. */
export const SkipLink = () => (
  <a
    href="#main"
    className="sr-only z-50 rounded-md bg-background px-3 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
  >
    Skip to content
  </a>
);

import { Suspense, lazy } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { CenteredSpinner, FullPageSpinner } from '@/components/ui/spinner';
import { CrashBoundary } from '@/app/errors/crash-boundary';
import { useSession } from '@/lib/session';
import { AppHeader } from './app-header';
import { FeatureContexts } from './feature-contexts';

// Toasts only follow a user's action, by which time the toaster has long loaded.
const AppToaster = lazy(() =>
  import('@/app/providers/app-toaster').then((m) => ({ default: m.AppToaster })),
);

const Toasts = () => (
  <Suspense fallback={null}>
    <AppToaster />
  </Suspense>
);

const SiteFooter = () => (
  <footer className="border-t">
    <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-6 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between sm:px-6">
      <p>© {new Date().getFullYear()} Chorus</p>
      <nav aria-label="Footer" className="flex flex-wrap gap-4">
        <Link to="/help" className="hover:text-foreground">
          Help
        </Link>
        <Link to="/api-docs" className="hover:text-foreground">
          API docs
        </Link>
        <Link to="/request-access" className="hover:text-foreground">
          Request access
        </Link>
      </nav>
    </div>
  </footer>
);

export const RootLayout = () => {
  const session = useSession();
  const { pathname } = useLocation();

  if (session.status === 'loading') {
    return (
      <>
        <FullPageSpinner />
        <Toasts />
      </>
    );
  }

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-background px-3 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <AppHeader />
      <main id="main" className="flex flex-1 flex-col">
        <CrashBoundary resetKey={pathname}>
          <FeatureContexts>
            <Suspense fallback={<CenteredSpinner />}>
              <Outlet />
            </Suspense>
          </FeatureContexts>
        </CrashBoundary>
      </main>
      <SiteFooter />
      <Toasts />
    </div>
  );
};

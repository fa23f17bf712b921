import { Link } from 'react-router';
import { AppHeader } from './app-header';
import { PageOutlet, SkipLink } from './page-outlet';

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

/** Public pages: the marketing header and footer around the page. */
export const MarketingLayout = () => (
  <div className="flex min-h-dvh flex-col">
    <SkipLink />
    <AppHeader />
    <main id="main" className="flex flex-1 flex-col">
      <PageOutlet />
    </main>
    <SiteFooter />
  </div>
);

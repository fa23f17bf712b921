import { Menu, Sun } from 'lucide-react';
import { Suspense, lazy } from 'react';
import { Button } from '@/components/ui/button';
import type { AuthUser } from '@/lib/auth-client';
import type { NavItem } from './nav-types';

// The menus need Radix's popper and focus management; they load after the first paint so
// the landing page's entry chunk stays small. Until then an inert look-alike button shows.
const ThemeMenu = lazy(() => import('./theme-menu').then((m) => ({ default: m.ThemeMenu })));
const UserMenu = lazy(() => import('./user-menu').then((m) => ({ default: m.UserMenu })));
const MobileNavMenu = lazy(() =>
  import('./mobile-nav-menu').then((m) => ({ default: m.MobileNavMenu })),
);

export const LazyThemeMenu = () => (
  <Suspense
    fallback={
      <Button variant="ghost" size="icon" aria-label="Toggle theme" disabled>
        <Sun aria-hidden="true" />
      </Button>
    }
  >
    <ThemeMenu />
  </Suspense>
);

export const LazyUserMenu = ({ user }: { user: AuthUser }) => (
  <Suspense
    fallback={
      <Button
        variant="ghost"
        size="icon"
        aria-label="Account menu"
        className="rounded-full"
        disabled
      >
        <span className="size-8 rounded-full bg-primary/10" />
      </Button>
    }
  >
    <UserMenu user={user} />
  </Suspense>
);

export const LazyMobileNavMenu = ({ links }: { links: NavItem[] }) => (
  <Suspense
    fallback={
      <Button
        variant="ghost"
        size="icon"
        aria-label="Open navigation"
        className="md:hidden"
        disabled
      >
        <Menu aria-hidden="true" />
      </Button>
    }
  >
    <MobileNavMenu links={links} />
  </Suspense>
);

import { MessageSquare } from 'lucide-react';
import { Link, NavLink, useLocation } from 'react-router';
import { Logo } from '@/components/logo';
import { buttonVariants } from '@/components/ui/button';
import { useSession } from '@/lib/session';
import { cn } from '@/lib/utils';
import { LazyMobileNavMenu, LazyThemeMenu, LazyUserMenu } from './header-menus';
import type { NavItem } from './nav-types';
import { publicNav } from './public-nav';

const chatLink: NavItem = { to: '/chat', label: 'Chat', icon: MessageSquare };

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-3 py-2 text-sm font-medium transition-colors hover:text-foreground',
    isActive ? 'text-foreground' : 'text-muted-foreground',
  );

export const AppHeader = () => {
  const session = useSession();
  const { pathname } = useLocation();
  const links = session.status === 'signed-in' ? [chatLink, ...publicNav] : publicNav;
  return (
    <header className="sticky top-0 z-40 border-b bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-4 px-4 sm:px-6">
        <Link to="/" className="flex items-center gap-2 rounded-md font-semibold tracking-tight">
          <Logo className="size-6" />
          <span>Chorus</span>
        </Link>
        <nav aria-label="Main" className="hidden items-center md:flex">
          {links.map((item) => (
            <NavLink key={item.to} to={item.to} className={navLinkClass}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-1">
          <LazyMobileNavMenu links={links} />
          <LazyThemeMenu />
          {session.status === 'signed-in' ? (
            <LazyUserMenu user={session.user} />
          ) : pathname === '/auth' ? null : (
            <Link to="/auth" className={buttonVariants({ size: 'sm', className: 'ml-1' })}>
              Sign in
            </Link>
          )}
        </div>
      </div>
    </header>
  );
};

import { Menu, MessageSquare } from 'lucide-react';
import { Link, NavLink } from 'react-router';
import { Button, buttonVariants } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useSession } from '@/lib/session';
import { cn } from '@/lib/utils';
import { publicNav, type NavItem } from './nav-items';
import { ThemeMenu } from './theme-menu';
import { UserMenu } from './user-menu';

const chatLink: NavItem = { to: '/chat', label: 'Chat', icon: MessageSquare };

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-3 py-2 text-sm font-medium transition-colors hover:text-foreground',
    isActive ? 'text-foreground' : 'text-muted-foreground',
  );

export const AppHeader = () => {
  const session = useSession();
  const links = session.status === 'signed-in' ? [chatLink, ...publicNav] : publicNav;
  return (
    <header className="sticky top-0 z-40 border-b bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-4 px-4 sm:px-6">
        <Link to="/" className="flex items-center gap-2 rounded-md font-semibold tracking-tight">
          <img src="/favicon.svg" alt="" className="size-6" width={24} height={24} />
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
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon" aria-label="Open navigation" className="md:hidden">
                <Menu aria-hidden="true" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              {links.map((item) => (
                <DropdownMenuItem key={item.to} asChild>
                  <Link to={item.to}>{item.label}</Link>
                </DropdownMenuItem>
              ))}
            </DropdownMenuContent>
          </DropdownMenu>
          <ThemeMenu />
          {session.status === 'signed-in' ? (
            <UserMenu user={session.user} />
          ) : (
            <Link to="/auth" className={buttonVariants({ size: 'sm', className: 'ml-1' })}>
              Sign in
            </Link>
          )}
        </div>
      </div>
    </header>
  );
};

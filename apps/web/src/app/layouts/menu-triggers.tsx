import { Menu, Moon, Sun } from 'lucide-react';
import { useTheme } from '@/app/providers/theme-context';
import { Button, type ButtonProps } from '@/components/ui/button';
import type { AuthUser } from '@/lib/auth-client';

// The header's menu buttons, drawn the same before and after the menus' code has loaded
// (header-menus.tsx); the menus wrap them in their Radix triggers.

/** How a menu starts when it mounts after a press on (or focus in) its stand-in button. */
export type MenuStart = { defaultOpen?: boolean; autoFocus?: boolean };

export const ThemeMenuButton = (props: ButtonProps) => {
  const { resolvedTheme } = useTheme();
  return (
    <Button variant="ghost" size="icon" aria-label="Toggle theme" {...props}>
      {resolvedTheme === 'dark' ? <Moon aria-hidden="true" /> : <Sun aria-hidden="true" />}
    </Button>
  );
};

const initialsOf = (user: AuthUser) => {
  const source = user.name?.trim() || user.email;
  const parts = source.split(/[\s@._-]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts[1]?.[0] ?? '')).toUpperCase() || '?';
};

export const UserMenuButton = ({ user, ...props }: ButtonProps & { user: AuthUser }) => (
  <Button variant="ghost" size="icon" aria-label="Account menu" className="rounded-full" {...props}>
    <span className="flex size-8 items-center justify-center rounded-full bg-primary/10 text-xs font-semibold text-primary">
      {initialsOf(user)}
    </span>
  </Button>
);

export const MobileNavButton = (props: ButtonProps) => (
  <Button variant="ghost" size="icon" aria-label="Open navigation" className="md:hidden" {...props}>
    <Menu aria-hidden="true" />
  </Button>
);

import {
  Suspense,
  lazy,
  startTransition,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import type { ButtonProps } from '@/components/ui/button';
import type { AuthUser } from '@/lib/auth-client';
import { MobileNavButton, ThemeMenuButton, UserMenuButton, type MenuStart } from './menu-triggers';
import type { NavItem } from './nav-types';

// The menus need Radix's popper, focus scope and scroll lock (about 25 KB of gzip): they load when
// a person reaches for one (pointer over it, focus on it, a press), not with the first paint.
const ThemeMenu = lazy(() => import('./theme-menu').then((m) => ({ default: m.ThemeMenu })));
const UserMenu = lazy(() => import('./user-menu').then((m) => ({ default: m.UserMenu })));
const MobileNavMenu = lazy(() =>
  import('./mobile-nav-menu').then((m) => ({ default: m.MobileNavMenu })),
);

type Handlers = Pick<
  ButtonProps,
  'onPointerEnter' | 'onPointerDown' | 'onFocus' | 'onBlur' | 'onKeyDown'
>;

/** The keys that open a Radix menu from its trigger. */
const openingKeys = new Set(['Enter', ' ', 'ArrowDown']);

/**
 * Shows `button` until a person reaches for it, then the menu, which starts open if they already
 * pressed, and focused if the button had the focus. The transition keeps the button on screen
 * while the menu's code loads.
 */
const MenuOnIntent = ({
  button,
  menu,
}: {
  button: (handlers: Handlers) => ReactNode;
  menu: (start: MenuStart) => ReactNode;
}) => {
  const [wanted, setWanted] = useState(false);
  const [pressed, setPressed] = useState(false);
  const [focused, setFocused] = useState(false);
  const want = () => startTransition(() => setWanted(true));
  const press = () => {
    setPressed(true);
    want();
  };
  const standIn = button({
    onPointerEnter: want,
    onPointerDown: press,
    onFocus: () => {
      setFocused(true);
      want();
    },
    onBlur: () => setFocused(false),
    onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => {
      if (!openingKeys.has(event.key)) return;
      event.preventDefault();
      press();
    },
  });
  return (
    <Suspense fallback={standIn}>
      {wanted ? menu({ defaultOpen: pressed, autoFocus: focused }) : standIn}
    </Suspense>
  );
};

export const LazyThemeMenu = () => (
  <MenuOnIntent
    button={(handlers) => <ThemeMenuButton {...handlers} />}
    menu={(start) => <ThemeMenu {...start} />}
  />
);

export const LazyUserMenu = ({ user }: { user: AuthUser }) => (
  <MenuOnIntent
    button={(handlers) => <UserMenuButton user={user} {...handlers} />}
    menu={(start) => <UserMenu user={user} {...start} />}
  />
);

export const LazyMobileNavMenu = ({ links }: { links: NavItem[] }) => (
  <MenuOnIntent
    button={(handlers) => <MobileNavButton {...handlers} />}
    menu={(start) => <MobileNavMenu links={links} {...start} />}
  />
);

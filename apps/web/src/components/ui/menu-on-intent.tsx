import { Suspense, startTransition, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { ButtonProps } from './button';

/** How a menu starts when it mounts after a press on (or focus in) its stand-in button. */
export type MenuStart = { defaultOpen?: boolean; autoFocus?: boolean };

export type MenuIntentHandlers = Pick<
  ButtonProps,
  'onPointerEnter' | 'onPointerDown' | 'onFocus' | 'onBlur' | 'onKeyDown'
>;

/** The keys that open a Radix menu from its trigger. */
const openingKeys = new Set(['Enter', ' ', 'ArrowDown']);

/**
 * Shows `button` until a person reaches for it (pointer over it, focus on it, a press), then the
 * menu, lazily loaded: Radix's popper and focus scope stay out of the first paint. The menu starts
 * open if they already pressed, and focused if the button had the focus; the transition keeps the
 * button on screen while the menu's code loads. (The header's menus do the same in
 * app/layouts/header-menus.tsx.)
 */
export const MenuOnIntent = ({
  button,
  menu,
}: {
  button: (handlers: MenuIntentHandlers) => ReactNode;
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

import { isValidElement, lazy, type ComponentType } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';

type Preloadable = { preload?: () => void };

/**
 * A page component loaded on demand from a module's named export. `preload()` starts the same
 * download early (see `preloadRoute`); React's lazy then finds it already under way.
 */
export const lazyPage = <K extends string, P extends object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
) => {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const loadOnce = () => (loading ??= load().then((module) => ({ default: module[name] })));
  return Object.assign(lazy(loadOnce), { preload: () => void loadOnce() });
};

/**
 * Starts downloading every lazy layout and page the URL will render, at once and side by side,
 * instead of one after another as each guard and layout renders (session → layout → page).
 */
export const preloadRoute = (routes: RouteObject[], pathname: string): void => {
  for (const match of matchRoutes(routes, pathname) ?? []) {
    const element = match.route.element;
    if (!isValidElement(element)) continue;
    const type = element.type as Preloadable;
    if (typeof type.preload === 'function') type.preload();
  }
};

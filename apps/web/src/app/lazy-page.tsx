import { isValidElement, lazy, type ComponentType } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';

type Preloadable = { preload?: () => Promise<unknown> };

/**
 * A component loaded on demand from a module's named export. `preload()` starts the same download
 * early (see `preloadRoute`). Once the module is in, the component renders it directly: React's
 * `lazy` would suspend once more even for a module already loaded, and React holds back the
 * content of a suspended boundary for up to 300 ms after showing its fallback.
 */
export const lazyPage = <K extends string, P extends object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
) => {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  let loaded: ComponentType<P> | undefined;
  const loadOnce = () =>
    (loading ??= load().then((module) => {
      loaded = module[name];
      return { default: module[name] };
    }));
  const Lazy = lazy(loadOnce);
  const Page = (props: P) => {
    const Component = loaded ?? Lazy;
    return <Component {...props} />;
  };
  return Object.assign(Page, { preload: () => loadOnce() });
};

/**
 * Starts downloading every lazy layout and page the URL will render, at once and side by side,
 * instead of one after another as each guard and layout renders (session → layout → page).
 * Resolves once all of them are in (or one failed: rendering then shows the failure).
 */
export const preloadRoute = (routes: RouteObject[], pathname: string): Promise<unknown> => {
  const loads: Promise<unknown>[] = [];
  for (const match of matchRoutes(routes, pathname) ?? []) {
    const element = match.route.element;
    if (!isValidElement(element)) continue;
    const type = element.type as Preloadable;
    if (typeof type.preload === 'function') loads.push(type.preload());
  }
  return Promise.all(loads);
};

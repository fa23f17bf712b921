import { lazy, type ComponentType } from 'react';

/** A page component loaded on demand from a module's named export. */
export const lazyPage = <K extends string, P extends object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
) =>
  lazy(async () => {
    const module = await load();
    return { default: module[name] };
  });

import { useEffect, useSyncExternalStore } from 'react';
import type { ExtraPlugins } from './markdown-plugins';

/**
 * Code highlighting and math are large, and most messages need neither: each is imported the
 * first time a message contains a code fence or math, and every message shares the result.
 */
type Extra = 'code' | 'math';
type PluggableList = ExtraPlugins['remarkPlugins'];

const loaders: Record<Extra, () => Promise<ExtraPlugins>> = {
  code: () => import('./markdown-code').then((m) => m.codePlugins),
  math: () => import('./markdown-math').then((m) => m.mathPlugins),
};

const loaded: Partial<Record<Extra, ExtraPlugins>> = {};
const pending = new Set<Extra>();
const listeners = new Set<() => void>();
let version = 0;

const load = (extra: Extra) => {
  if (loaded[extra] || pending.has(extra)) return;
  pending.add(extra);
  loaders[extra]()
    .then((plugins) => {
      loaded[extra] = plugins;
      version += 1;
      for (const listener of listeners) listener();
    })
    .catch(() => {
      // Offline or a stale deployment: the message stays readable as plain markdown.
    })
    .finally(() => pending.delete(extra));
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

const fencePattern = /^\s{0,3}(```|~~~)/m;
const mathPattern =
  /\$\$[\s\S]+?\$\$|(^|[^\\$\w])\$(?=\S)[^$\n]*?[^\s\\$]\$(?!\d)|(^|[^\\$\w])\$[^\s$\\]\$(?!\d)/m;

export const needsCode = (content: string) => fencePattern.test(content);
export const needsMath = (content: string) => mathPattern.test(content);

const none: PluggableList = [];

/** The plugins a message needs, once loaded; plain markdown until then. */
export const useMarkdownExtras = (content: string): ExtraPlugins => {
  const code = needsCode(content);
  const math = needsMath(content);
  useEffect(() => {
    if (code) load('code');
    if (math) load('math');
  }, [code, math]);
  useSyncExternalStore(subscribe, () => version);
  const codePlugins = code ? loaded.code : undefined;
  const mathPlugins = math ? loaded.math : undefined;
  return {
    remarkPlugins: [...(mathPlugins?.remarkPlugins ?? none)],
    rehypePlugins: [
      ...(codePlugins?.rehypePlugins ?? none),
      ...(mathPlugins?.rehypePlugins ?? none),
    ],
  };
};

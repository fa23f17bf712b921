import type { Options } from 'react-markdown';

type PluggableList = NonNullable<Options['remarkPlugins']>;

/** What an optional markdown extra (code highlighting, math) adds to the renderer. */
export type ExtraPlugins = { remarkPlugins: PluggableList; rehypePlugins: PluggableList };

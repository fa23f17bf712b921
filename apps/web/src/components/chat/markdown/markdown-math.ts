import rehypeKatex from 'rehype-katex';
import remarkMath from 'remark-math';
import type { ExtraPlugins } from './markdown-plugins';
import 'katex/dist/katex.min.css';

export const mathPlugins: ExtraPlugins = {
  remarkPlugins: [remarkMath],
  // `trust: false` keeps \href and \url from producing links of their own.
  rehypePlugins: [[rehypeKatex, { throwOnError: false, trust: false, strict: 'ignore' }]],
};

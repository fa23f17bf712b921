import rehypeHighlight from 'rehype-highlight';
import type { ExtraPlugins } from './markdown-plugins';
import './markdown-code.css';

/** Highlights fenced code whose language is named; unnamed fences stay plain (no guessing). */
export const codePlugins: ExtraPlugins = {
  remarkPlugins: [],
  rehypePlugins: [[rehypeHighlight, { detect: false }]],
};

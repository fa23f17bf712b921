// What the help center's build step (build/help-articles-plugin.ts) makes of its articles.

declare module 'virtual:help-articles' {
  import type { HelpArticleSummary } from '@/features/help/content-types';
  /** Every article's title, description and group, in their order. */
  export const helpArticles: HelpArticleSummary[];
}

declare module 'virtual:help-faq' {
  import type { HelpFaqItem } from '@/features/help/content-types';
  /** The questions and answers of /help's FAQ, from faq.md. */
  export const helpFaq: HelpFaqItem[];
}

declare module 'virtual:help-search' {
  import type { HelpSearchDocument } from '@/features/help/content-types';
  /** Every article as plain text by section: what the help search reads. */
  export const helpSearchDocuments: HelpSearchDocument[];
}

declare module '*.md' {
  import type { HelpArticle } from '@/features/help/content-types';
  const article: HelpArticle;
  export default article;
}

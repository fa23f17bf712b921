// The shapes the build step (build/compile-article.ts) writes and the help pages read. Plain
// types only: the build imports this file too, so it must not pull in anything of the browser.

/**
 * Blocks an article asks for by name (`<!-- help:shortcuts -->`) that the page draws itself,
 * because they differ by device (Ctrl or ⌘). Blocks the build can write (`<!-- help:providers -->`)
 * are HTML like the rest of the article.
 */
export const helpDirectives = ['shortcuts'] as const;
export type HelpDirective = (typeof helpDirectives)[number];

/** What the index of the help center knows of an article: enough to list and link it. */
export type HelpArticleSummary = {
  slug: string;
  title: string;
  description: string;
  /** Place in the list, lowest first. */
  order: number;
  /** The heading it is listed under on /help. */
  group: string;
  /** Slugs of the articles offered after it. */
  related: string[];
};

export type HelpHeading = { id: string; text: string; level: 2 | 3 };

/** An article is HTML compiled from its Markdown, with a named block here and there. */
export type HelpArticlePart = { html: string } | { directive: HelpDirective };

/** A question of the FAQ on /help, its answer compiled from faq.md like an article. */
export type HelpFaqItem = { id: string; question: string; html: string };

/** One article as its page shows it (one lazy chunk per article). */
export type HelpArticle = HelpArticleSummary & {
  headings: HelpHeading[];
  parts: HelpArticlePart[];
};

/** A stretch of an article under one heading, as plain text, for the search. */
export type HelpSearchSection = {
  /** The heading's anchor; null for the text before the first heading. */
  id: string | null;
  heading: string;
  text: string;
  /** Blocks shown in this section, whose words the page adds to the index when it loads. */
  directives: HelpDirective[];
};

export type HelpSearchDocument = {
  slug: string;
  /** Where it is read: `/help/{slug}` for an article, `/help` for the FAQ. */
  path: string;
  title: string;
  description: string;
  order: number;
  sections: HelpSearchSection[];
};

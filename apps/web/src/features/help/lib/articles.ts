import { helpArticles } from 'virtual:help-articles';
import type { HelpArticle, HelpArticleSummary } from '../content-types';

export { helpArticles };

// One chunk per article: a page downloads its own article, and the index none of them.
const loaders = import.meta.glob<{ default: HelpArticle }>('../articles/*.md');

export const findArticleSummary = (slug: string): HelpArticleSummary | undefined =>
  helpArticles.find((article) => article.slug === slug);

/** The article of `slug`, downloaded on first use; null when there is no such article. */
export const loadArticle = async (slug: string): Promise<HelpArticle | null> => {
  const load = Object.hasOwn(loaders, `../articles/${slug}.md`)
    ? loaders[`../articles/${slug}.md`]
    : undefined;
  return load ? (await load()).default : null;
};

export type ArticleGroup = { name: string; articles: HelpArticleSummary[] };

/** The articles under their group headings, groups in the order of their first article. */
export const groupArticles = (articles: HelpArticleSummary[]): ArticleGroup[] => {
  const groups: ArticleGroup[] = [];
  for (const article of articles) {
    const group = groups.find((g) => g.name === article.group);
    if (group) group.articles.push(article);
    else groups.push({ name: article.group, articles: [article] });
  }
  return groups;
};

// The build step of the help center: the Markdown of `articles/<slug>.md` and of `faq.md` is
// compiled to HTML when Vite loads it, so no Markdown parser ever reaches a browser.
//
//   import article from './articles/chat.md'                  → one article (a chunk each)
//   import { helpArticles } from 'virtual:help-articles'       → titles and descriptions, for /help
//   import { helpFaq } from 'virtual:help-faq'                 → the FAQ of /help
//   import { helpSearchDocuments } from 'virtual:help-search' → plain text, loaded on first search
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { Plugin } from 'vite';
// By path, not `@chorus/shared/providers`: Vite loads its config (and so this plugin) with every
// package import left to Node, which cannot read the shared package's TypeScript.
import { providerIds, providers } from '../../../../../../packages/shared/src/providers.ts';
import type { HelpArticleSummary } from '../content-types.ts';
import {
  checkArticleLinks,
  compileArticle,
  compileFaq,
  type CompiledArticle,
  type CompiledFaq,
} from './compile-article.ts';
import { providersBlock } from './provider-block.ts';

const virtualIds = ['virtual:help-articles', 'virtual:help-faq', 'virtual:help-search'];
const resolved = (id: string) => `\0${id}`;

/** What the build writes in place of `<!-- help:{name} -->`. */
const blocks = () => ({ providers: providersBlock(providerIds.map((id) => providers[id])) });

const compileFile = (path: string) =>
  compileArticle(basename(path, '.md'), readFileSync(path, 'utf8'), blocks());

type HelpContent = { articles: CompiledArticle[]; faq: CompiledFaq };

/**
 * Compiles every article of `dir` (in their `order`) and the FAQ, and checks that every link
 * into the help center leads to an article and heading that exist.
 */
export const compileHelpContent = (dir: string, faqFile: string): HelpContent => {
  const articles = readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .map((name) => compileFile(join(dir, name)))
    .sort((a, b) => a.article.order - b.article.order);
  const faq = compileFaq(readFileSync(faqFile, 'utf8'));
  const problems = checkArticleLinks(articles, [{ name: 'faq', links: faq.links }]);
  if (problems.length > 0) throw new Error(`Help articles:\n  ${problems.join('\n  ')}`);
  return { articles, faq };
};

const summaryOf = ({ article }: CompiledArticle): HelpArticleSummary => ({
  slug: article.slug,
  title: article.title,
  description: article.description,
  order: article.order,
  group: article.group,
  related: article.related,
});

const moduleCode = (id: string, { articles, faq }: HelpContent): string => {
  if (id === 'virtual:help-articles') {
    return `export const helpArticles = ${JSON.stringify(articles.map(summaryOf))};`;
  }
  if (id === 'virtual:help-faq') return `export const helpFaq = ${JSON.stringify(faq.items)};`;
  const documents = [...articles.map((c) => c.search), faq.search];
  return `export const helpSearchDocuments = ${JSON.stringify(documents)};`;
};

export const helpArticles = ({ dir, faq }: { dir: string; faq: string }): Plugin => {
  const articlesDir = resolve(dir);
  const faqFile = resolve(faq);
  const isArticle = (path: string) => path.endsWith('.md') && resolve(path, '..') === articlesDir;
  return {
    name: 'chorus:help-articles',
    enforce: 'pre',
    resolveId(id) {
      return virtualIds.includes(id) ? resolved(id) : null;
    },
    load(id) {
      const virtual = virtualIds.find((name) => resolved(name) === id);
      if (virtual) {
        for (const name of readdirSync(articlesDir)) this.addWatchFile(join(articlesDir, name));
        this.addWatchFile(faqFile);
        return moduleCode(virtual, compileHelpContent(articlesDir, faqFile));
      }
      const path = id.split('?')[0]!;
      if (isArticle(path)) return `export default ${JSON.stringify(compileFile(path).article)};`;
      return null;
    },
  };
};

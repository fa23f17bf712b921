import { Link } from 'react-router';
import type { HelpArticleSummary } from '../content-types';
import { loadArticle } from '../lib/articles';

/** An article as a card that links to it: its title and what it covers. Loads it on hover. */
export const ArticleCard = ({ article }: { article: HelpArticleSummary }) => (
  <Link
    to={`/help/${article.slug}`}
    onPointerEnter={() => void loadArticle(article.slug)}
    className="group flex h-full flex-col rounded-xl border bg-card p-4 shadow-xs outline-none transition-colors hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/50"
  >
    <span className="flex items-center justify-between gap-2 font-medium">
      {article.title}
      <span
        aria-hidden="true"
        className="text-muted-foreground transition-transform group-hover:translate-x-0.5"
      >
        →
      </span>
    </span>
    <span className="mt-1 line-clamp-2 text-sm text-muted-foreground">{article.description}</span>
  </Link>
);

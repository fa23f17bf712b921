import { Link } from 'react-router';
import { groupArticles, helpArticles, loadArticle } from '../lib/articles';

/** Every article under its group's heading: a card with its title and what it covers. */
export const ArticleList = () => (
  <section aria-labelledby="guides-title" className="grid gap-8">
    <h2 id="guides-title" className="text-xl font-semibold">
      Guides
    </h2>
    {groupArticles(helpArticles).map((group) => (
      <div key={group.name} className="grid gap-3">
        <h3 className="text-sm font-semibold tracking-wide text-muted-foreground uppercase">
          {group.name}
        </h3>
        <ul className="grid gap-3 sm:grid-cols-2">
          {group.articles.map((article) => (
            <li key={article.slug}>
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
                <span className="mt-1 text-sm text-muted-foreground">{article.description}</span>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    ))}
  </section>
);

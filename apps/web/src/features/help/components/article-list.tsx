import { groupArticles, helpArticles } from '../lib/articles';
import { ArticleCard } from './article-card';

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
              <ArticleCard article={article} />
            </li>
          ))}
        </ul>
      </div>
    ))}
  </section>
);

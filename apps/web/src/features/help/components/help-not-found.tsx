import { FileQuestion } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { usePageMeta } from '@/lib/use-page-meta';
import { helpArticles } from '../lib/articles';
import { BackToHelp } from './back-to-help';
import { HelpSearchField } from './search-field';

/** `/help/{slug}` without such an article: what happened, a search, and every article. */
export const HelpNotFound = ({ slug }: { slug: string }) => {
  usePageMeta({
    title: 'Help article not found',
    description: 'There is no help article at this address. Search the help center instead.',
  });
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  return (
    <div className="mx-auto max-w-2xl">
      <BackToHelp />
      <div className="mt-6 flex items-start gap-4">
        <div className="flex size-11 shrink-0 items-center justify-center rounded-full bg-muted">
          <FileQuestion aria-hidden="true" className="size-5 text-muted-foreground" />
        </div>
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight">There is no help article here</h1>
          <p className="mt-2 text-muted-foreground">
            Nothing is published at{' '}
            <code className="rounded bg-muted px-1.5 py-0.5 text-sm break-all">/help/{slug}</code>.
            The link may be mistyped, or the article was renamed. Search for what you need, or pick
            an article below.
          </p>
        </div>
      </div>
      <form
        role="search"
        action="/help"
        className="mt-8 flex flex-col gap-2 sm:flex-row"
        onSubmit={(event) => {
          event.preventDefault();
          const q = query.trim();
          void navigate(q ? `/help?q=${encodeURIComponent(q)}` : '/help');
        }}
      >
        <div className="flex-1">
          <HelpSearchField value={query} onChange={setQuery} />
        </div>
        <Button type="submit" size="lg" className="h-12">
          Search
        </Button>
      </form>
      <section aria-labelledby="all-articles-title" className="mt-10">
        <h2 id="all-articles-title" className="text-lg font-semibold">
          All help articles
        </h2>
        <ul className="mt-3 grid gap-2">
          {helpArticles.map((article) => (
            <li key={article.slug}>
              <Link
                to={`/help/${article.slug}`}
                className="font-medium text-primary underline-offset-4 hover:underline"
              >
                {article.title}
              </Link>
              <span className="text-sm text-muted-foreground"> — {article.description}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
};

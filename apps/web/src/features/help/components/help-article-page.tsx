import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, type RefObject } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { CenteredSpinner } from '@/components/ui/spinner';
import { usePageMeta } from '@/lib/use-page-meta';
import type { HelpArticle, HelpHeading } from '../content-types';
import { findArticleSummary, loadArticle } from '../lib/articles';
import { ArticleBody } from './article-body';
import { ArticleCard } from './article-card';
import { BackToHelp } from './back-to-help';

// Rare, so it is downloaded only when an address names no article.
const HelpNotFound = lazy(() =>
  import('./help-not-found').then((module) => ({ default: module.HelpNotFound })),
);

const TocLinks = ({ headings }: { headings: HelpHeading[] }) => (
  <ol className="grid gap-1.5 text-sm">
    {headings.map((heading) => (
      <li key={heading.id} className={heading.level === 3 ? 'pl-3' : undefined}>
        <Link
          to={{ hash: `#${heading.id}` }}
          className="rounded-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          {heading.text}
        </Link>
      </li>
    ))}
  </ol>
);

/** "On this page": beside the article on a wide screen, folded above it on a narrow one. */
const TableOfContents = ({
  headings,
  variant,
}: {
  headings: HelpHeading[];
  variant: 'side' | 'top';
}) => {
  if (headings.length === 0) return null;
  if (variant === 'top') {
    return (
      <nav aria-label="On this page" className="mb-8 rounded-lg border lg:hidden">
        <details className="group">
          <summary className="cursor-pointer rounded-lg px-4 py-3 text-sm font-medium outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
            On this page
          </summary>
          <div className="border-t px-4 py-3">
            <TocLinks headings={headings} />
          </div>
        </details>
      </nav>
    );
  }
  return (
    <nav aria-label="On this page" className="sticky top-24">
      <p className="mb-3 text-sm font-semibold">On this page</p>
      <TocLinks headings={headings} />
    </nav>
  );
};

const RelatedArticles = ({ slugs }: { slugs: string[] }) => {
  const related = slugs.flatMap((slug) => findArticleSummary(slug) ?? []);
  if (related.length === 0) return null;
  return (
    <section aria-labelledby="related-title" className="mt-12 border-t pt-8">
      <h2 id="related-title" className="text-lg font-semibold">
        Related articles
      </h2>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2">
        {related.map((article) => (
          <li key={article.slug}>
            <ArticleCard article={article} />
          </li>
        ))}
      </ul>
    </section>
  );
};

/**
 * Opens the article at the heading the URL names (a search result, a link from the app): it is
 * scrolled to, focused for screen readers and marked; without one, at the top.
 */
const useOpenAtHeading = (container: RefObject<HTMLElement | null>, slug: string) => {
  const { hash } = useLocation();
  useEffect(() => {
    const id = hash ? decodeURIComponent(hash.slice(1)) : '';
    const target = id
      ? [...(container.current?.querySelectorAll<HTMLElement>('[id]') ?? [])].find(
          (element) => element.id === id,
        )
      : undefined;
    if (!target) {
      window.scrollTo?.({ top: 0 });
      return;
    }
    target.scrollIntoView?.({ block: 'start' });
    target.focus({ preventScroll: true });
    target.setAttribute('data-target', '');
    return () => target.removeAttribute('data-target');
  }, [container, hash, slug]);
};

const ArticleView = ({ article }: { article: HelpArticle }) => {
  usePageMeta({ title: `${article.title} · Help`, description: article.description });
  const body = useRef<HTMLElement>(null);
  useOpenAtHeading(body, article.slug);
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_13rem] lg:gap-12">
      <article ref={body} aria-labelledby="help-article-title" className="min-w-0">
        <BackToHelp />
        <header className="mt-5 mb-8">
          <h1 id="help-article-title" className="text-2xl font-semibold tracking-tight sm:text-3xl">
            {article.title}
          </h1>
          <p className="mt-3 text-base text-muted-foreground sm:text-lg">{article.description}</p>
        </header>
        <TableOfContents headings={article.headings} variant="top" />
        <ArticleBody article={article} />
        <RelatedArticles slugs={article.related} />
        <footer className="mt-10 flex flex-wrap items-center justify-between gap-4 border-t pt-6 text-sm">
          <BackToHelp />
          <p className="text-muted-foreground">
            Still stuck?{' '}
            <Link
              to={{ pathname: '/help', hash: '#contact-heading' }}
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              Write to support
            </Link>
          </p>
        </footer>
      </article>
      <div className="hidden lg:block">
        <TableOfContents headings={article.headings} variant="side" />
      </div>
    </div>
  );
};

/** `/help/{slug}`: one article, downloaded on its own; an unknown slug says so. */
export const HelpArticlePage = () => {
  const { slug = '' } = useParams();
  const article = useQuery({
    queryKey: ['help-article', slug],
    queryFn: () => loadArticle(slug),
    staleTime: Infinity,
  });
  if (article.isPending) return <CenteredSpinner label="Loading the article" />;
  if (article.isError) {
    return (
      <div className="mx-auto max-w-2xl">
        <BackToHelp />
        <h1 className="mt-6 text-2xl font-semibold tracking-tight">This article did not load</h1>
        <p role="alert" className="mt-2 text-muted-foreground">
          The connection may have dropped. Check it, then try again.
        </p>
        <Button className="mt-4" variant="outline" onClick={() => void article.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (!article.data) {
    return (
      <Suspense fallback={<CenteredSpinner />}>
        <HelpNotFound slug={slug} />
      </Suspense>
    );
  }
  return <ArticleView key={article.data.slug} article={article.data} />;
};

import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { PageHeader } from '@/components/ui/page-header';
import { usePageMeta } from '@/lib/use-page-meta';
import { ArticleList } from './article-list';
import { ContactSection } from './contact-section';
import { Faq } from './faq';
import { HelpSearchPanel, useHelpQuery, useHelpSearch } from './help-search';
import { ShortcutsTable } from './shortcuts-table';

/**
 * `/help#contact-heading`, `/help#faq-…`: the part of the page the link names, scrolled to; a
 * question of the FAQ is opened and focused.
 */
const useScrollToHash = () => {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!target) return;
    if (target instanceof HTMLDetailsElement) {
      target.open = true;
      target.querySelector('summary')?.focus({ preventScroll: true });
    }
    target.scrollIntoView?.({ block: 'start' });
  }, [hash]);
};

/** `/help`: search, the guides, the FAQ, the keyboard shortcuts and the contact form. */
export const HelpPage = () => {
  usePageMeta({
    title: 'Help center',
    description:
      'Guides to Chorus: getting started, API keys and providers, chat, prompts, scenarios, plans and quotas, privacy, and keyboard shortcuts. Search them, read the FAQ, or contact support.',
  });
  useScrollToHash();
  const [query, setQuery] = useHelpQuery();
  const search = useHelpSearch(query);
  const searching = query.trim() !== '';
  const nothingFound = searching && search.ready && search.results.length === 0;
  return (
    <div>
      <PageHeader
        title="Help center"
        description="Guides to every part of Chorus, answers to the questions people ask most, and a way to reach us."
      />
      <HelpSearchPanel query={query} onQueryChange={setQuery} search={search} />
      {!searching || nothingFound ? (
        <div className="mt-10">
          <ArticleList />
        </div>
      ) : null}
      <Faq />
      <section aria-labelledby="shortcuts" className="mt-12">
        <h2 id="shortcuts" className="mb-3 text-xl font-semibold">
          Keyboard shortcuts
        </h2>
        <ShortcutsTable caption="Keyboard shortcuts in the chat" />
        <p className="mt-3 text-sm text-muted-foreground">
          More in{' '}
          <Link
            to="/help/keyboard-shortcuts"
            className="font-medium text-primary underline underline-offset-4"
          >
            Keyboard shortcuts
          </Link>
          .
        </p>
      </section>
      <ContactSection />
    </div>
  );
};

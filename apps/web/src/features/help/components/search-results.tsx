import type { KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { loadArticle } from '../lib/articles';
import type { HelpSearchResult, SnippetPart } from '../lib/help-search';

const Snippet = ({ parts }: { parts: SnippetPart[] }) => (
  <>
    {parts.map((part, index) =>
      part.match ? (
        <mark
          key={index}
          className="rounded-sm bg-amber-200 px-0.5 text-foreground dark:bg-amber-400/25"
        >
          {part.text}
        </mark>
      ) : (
        <span key={index}>{part.text}</span>
      ),
    )}
  </>
);

/**
 * The ranked results, each a link to the article at its best heading, with the words found
 * marked. ↑ and ↓ move through them; ↑ on the first goes back to the box (`onLeave`).
 */
export const ResultList = ({
  results,
  resultId,
  onLeave,
}: {
  results: HelpSearchResult[];
  resultId: (index: number) => string;
  onLeave: () => void;
}) => {
  const focus = (index: number) => document.getElementById(resultId(index))?.focus();
  const onKeyDown = (index: number) => (event: KeyboardEvent<HTMLAnchorElement>) => {
    if (event.key === 'ArrowDown' && index < results.length - 1) {
      event.preventDefault();
      focus(index + 1);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      if (index === 0) onLeave();
      else focus(index - 1);
    }
  };
  return (
    <ol aria-label="Search results" className="grid gap-3">
      {results.map((result, index) => (
        <li key={result.slug}>
          <Link
            id={resultId(index)}
            to={result.href}
            onKeyDown={onKeyDown(index)}
            onPointerEnter={() => void loadArticle(result.slug)}
            onFocus={() => void loadArticle(result.slug)}
            className="block rounded-xl border bg-card p-4 outline-none transition-colors hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/50"
          >
            <span className="block font-medium">
              {result.title}
              {result.sectionHeading ? (
                <span className="font-normal text-muted-foreground">
                  {' '}
                  › {result.sectionHeading}
                </span>
              ) : null}
            </span>
            <span className="mt-1.5 block text-sm leading-relaxed text-muted-foreground">
              <Snippet parts={result.snippet} />
            </span>
          </Link>
        </li>
      ))}
    </ol>
  );
};

import { Fragment, type ReactNode } from 'react';
import type { HelpArticle, HelpDirective } from '../content-types';
import { useInAppLinks } from '../hooks/use-in-app-links';
import { ShortcutsTable } from './shortcuts-table';
import './help-article.css';

const directives: Record<HelpDirective, () => ReactNode> = {
  shortcuts: () => (
    <div className="help-table" role="region" tabIndex={0} aria-label="Table: keyboard shortcuts">
      <ShortcutsTable caption="Keyboard shortcuts in the chat" />
    </div>
  ),
};

/**
 * The article's HTML, compiled at build time from our own Markdown (never user content), with the
 * blocks it names drawn here. A link to another page of the app moves within the app instead of
 * reloading it.
 */
export const ArticleBody = ({ article }: { article: HelpArticle }) => {
  const onClick = useInAppLinks();
  return (
    // The clicks handled here are those of the links inside, which keep their own semantics.
    <div className="help-article" onClick={onClick}>
      {article.parts.map((part, index) =>
        'html' in part ? (
          <div key={index} className="contents" dangerouslySetInnerHTML={{ __html: part.html }} />
        ) : (
          <Fragment key={index}>{directives[part.directive]()}</Fragment>
        ),
      )}
    </div>
  );
};

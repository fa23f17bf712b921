import { shortcuts } from '@/lib/shortcuts';
import type { HelpDirective, HelpSearchDocument } from '../content-types';
import type { HelpSearchResult } from './help-search';

export type HelpSearch = (query: string) => HelpSearchResult[];

/**
 * The words of the blocks the page draws itself, from the same list it draws them from, so a
 * search finds "Ctrl K" where the article shows it.
 */
export const directiveText: Record<HelpDirective, () => string> = {
  shortcuts: () => shortcuts.map((shortcut) => `${shortcut.action} ${shortcut.keys()}`).join('. '),
};

/** Adds each section's drawn blocks to its text. */
export const withDirectiveText = (documents: HelpSearchDocument[]): HelpSearchDocument[] =>
  documents.map((doc) => ({
    ...doc,
    sections: doc.sections.map((section) =>
      section.directives.length === 0
        ? section
        : {
            ...section,
            text: [section.text, ...section.directives.map((name) => directiveText[name]())]
              .filter(Boolean)
              .join(' '),
          },
    ),
  }));

let loading: Promise<HelpSearch> | null = null;

/**
 * The search, downloaded with its index on first use (the index is the articles' plain text, so
 * it stays off the help pages until someone searches).
 */
export const loadHelpSearch = (): Promise<HelpSearch> => {
  loading ??= Promise.all([import('virtual:help-search'), import('./help-search')]).then(
    ([{ helpSearchDocuments }, { buildHelpIndex, searchHelp }]) => {
      const index = buildHelpIndex(withDirectiveText(helpSearchDocuments));
      return (query: string) => searchHelp(index, query);
    },
  );
  loading.catch(() => {
    loading = null;
  });
  return loading;
};

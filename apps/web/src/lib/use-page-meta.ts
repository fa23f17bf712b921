import { useEffect } from 'react';

export const siteName = 'Chorus';

type PageMeta = {
  /** The page's own title; " · Chorus" is added. */
  title: string;
  /** One or two sentences for search results and link previews. */
  description: string;
};

const descriptionTag = (): HTMLMetaElement => {
  const existing = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (existing) return existing;
  const created = document.createElement('meta');
  created.name = 'description';
  document.head.append(created);
  return created;
};

/**
 * Sets the document's title and meta description while the page is shown, and puts back what
 * was there when it goes: a page without its own keeps the site's defaults from index.html.
 */
export const usePageMeta = ({ title, description }: PageMeta): void => {
  useEffect(() => {
    const tag = descriptionTag();
    const previousTitle = document.title;
    const previousDescription = tag.content;
    document.title = `${title} · ${siteName}`;
    tag.content = description;
    return () => {
      document.title = previousTitle;
      tag.content = previousDescription;
    };
  }, [title, description]);
};

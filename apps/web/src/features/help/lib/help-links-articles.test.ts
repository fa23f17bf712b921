import { describe, expect, it } from 'vitest';
import { helpSearchDocuments } from 'virtual:help-search';
import { helpArticle, helpLinks } from '@/lib/help-links';
import { helpArticles } from './articles';

const anchorsOf = (slug: string) =>
  helpSearchDocuments.find((doc) => doc.slug === slug)?.sections.flatMap((s) => s.id ?? []) ?? [];

describe('the app’s links into the help center', () => {
  it.each(Object.entries(helpArticle))('%s names an article that exists (%s)', (_, slug) => {
    expect(helpArticles.map((a) => a.slug)).toContain(slug);
  });

  it.each(Object.entries(helpLinks))(
    '%s leads to an article and heading that exist (%s)',
    (_, path) => {
      const [, slug, anchor] = /^\/help\/([a-z0-9-]+)(?:#([a-z0-9-]+))?$/.exec(path) ?? [];
      expect(slug, path).toBeDefined();
      expect(helpArticles.map((a) => a.slug)).toContain(slug);
      if (anchor) expect(anchorsOf(slug!)).toContain(anchor);
    },
  );
});

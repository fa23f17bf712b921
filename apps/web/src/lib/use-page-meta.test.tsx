import { render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { usePageMeta } from './use-page-meta';

const Page = ({ title, description }: { title: string; description: string }) => {
  usePageMeta({ title, description });
  return null;
};

const description = () =>
  document.head.querySelector<HTMLMetaElement>('meta[name="description"]')?.content;

// Test files share one document (isolate: false): start and end with no description tag.
const clear = () => {
  document.title = '';
  for (const tag of document.head.querySelectorAll('meta[name="description"]')) tag.remove();
};
beforeEach(clear);
afterEach(clear);

describe('a page title and description', () => {
  it("sets the page's own while it is shown and puts the site's back when it goes", () => {
    document.title = 'Chorus';
    const tag = document.createElement('meta');
    tag.name = 'description';
    tag.content = 'The site.';
    document.head.append(tag);

    const { rerender, unmount } = render(<Page title="Trends" description="The trends." />);
    expect(document.title).toBe('Trends · Chorus');
    expect(description()).toBe('The trends.');

    rerender(<Page title="Discover" description="The directory." />);
    expect(document.title).toBe('Discover · Chorus');
    expect(description()).toBe('The directory.');

    unmount();
    expect(document.title).toBe('Chorus');
    expect(description()).toBe('The site.');
  });

  it('adds a description tag when the document has none', () => {
    render(<Page title="Home" description="What Chorus does." />);
    expect(description()).toBe('What Chorus does.');
  });
});

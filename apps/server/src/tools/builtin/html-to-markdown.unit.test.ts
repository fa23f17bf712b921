import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './html-to-markdown.ts';

const paragraph = (words: string) =>
  `<p>${words} ${'The quick brown fox jumps over it. '.repeat(8)}</p>`;

const articlePage = `<!DOCTYPE html>
<html><head><title>Fox facts</title><style>body { color: red }</style>
<script>window.secret = "tracking-code";</script></head>
<body>
  <nav><a href="/">Home</a> <a href="/about">About us</a></nav>
  <article>
    <h1>All about foxes</h1>
    ${paragraph('Foxes are small omnivores.')}
    <p>Read <a href="/foxes/red">the red fox page</a> or <a href="javascript:alert(1)">this</a>.</p>
    <script>alert("inline")</script>
    ${paragraph('They live on every continent but one.')}
    <img src="/img/fox.png" alt="A fox"><img src="data:image/png;base64,AAAA" alt="inline">
  </article>
  <footer>© Fox Society</footer>
</body></html>`;

describe('htmlToMarkdown', () => {
  it('turns the article of a page into Markdown, with absolute links and no scripts', () => {
    const page = htmlToMarkdown(articlePage, 'https://foxes.example/wiki/index.html');
    expect(page.title).toBe('Fox facts');
    expect(page.markdown).toContain('Foxes are small omnivores.');
    expect(page.markdown).toContain('They live on every continent but one.');
    expect(page.markdown).toContain('[the red fox page](https://foxes.example/foxes/red)');
    expect(page.markdown).toContain('![A fox](https://foxes.example/img/fox.png)');
    expect(page.markdown).not.toMatch(/javascript:|data:image|tracking-code|alert|color: red/);
    expect(page.markdown).not.toContain('About us');
  });

  it('falls back to the body without scripts, styles and navigation when there is no article', () => {
    const page = htmlToMarkdown(
      '<html><head><title> Short </title></head><body><nav>Menu</nav><h2>Opening hours</h2>' +
        '<ul><li>Mon: 9–5</li></ul><script>track()</script><style>p{}</style></body></html>',
      'https://shop.example/',
    );
    expect(page).toEqual({ title: 'Short', markdown: '## Opening hours\n\n-   Mon: 9–5' });
  });

  it('reads a fragment without <html> or <body>', () => {
    expect(htmlToMarkdown('<p>Just <b>this</b></p>', 'https://x.example/')).toEqual({
      title: '',
      markdown: 'Just **this**',
    });
  });
});

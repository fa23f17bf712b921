import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CitationsContext } from '../citations';
import { Markdown } from './markdown';
import { needsCode, needsMath } from './markdown-extras';
import { safeUrl } from './safe-url';

describe('the markdown renderer', () => {
  it('never renders raw HTML from a message', () => {
    const { container } = render(
      <Markdown
        content={
          'Hi <script>alert(1)</script> <b>bold</b> <img src="https://x.test/a.png" onerror="alert(1)">\n\n<iframe src="https://evil.test"></iframe>\n\n<a href="javascript:alert(1)">x</a>'
        }
      />,
    );
    for (const tag of ['script', 'b', 'img', 'iframe']) {
      expect(container.querySelector(tag)).toBeNull();
    }
    expect(container.querySelector('a')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
  });

  it('drops javascript:, data: and other non-web links but keeps their text', () => {
    const { container } = render(
      <Markdown
        content={[
          '[one](javascript:alert(1))',
          '[two](JAVASCRIPT:alert(1))',
          '[three]( javascript:alert(1))',
          '[four](data:text/html,<script>alert(1)</script>)',
          '[five](vbscript:msgbox)',
          '[six](/relative/path)',
        ].join('\n\n')}
      />,
    );
    expect(container.querySelectorAll('a')).toHaveLength(0);
    for (const text of ['one', 'two', 'three', 'four', 'five', 'six']) {
      expect(screen.getByText(text)).toBeTruthy();
    }
  });

  it('opens web and mail links in a new tab without referrer or follow', () => {
    render(
      <Markdown content={'[site](https://example.com/a?b=1) and [mail](mailto:ada@example.com)'} />,
    );
    const site = screen.getByRole('link', { name: 'site' });
    expect(site.getAttribute('href')).toBe('https://example.com/a?b=1');
    expect(site.getAttribute('target')).toBe('_blank');
    expect(site.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(screen.getByRole('link', { name: 'mail' }).getAttribute('href')).toBe(
      'mailto:ada@example.com',
    );
  });

  it('does not load a remote image until the reader asks for it', () => {
    const { container } = render(<Markdown content={'![a cat](https://images.test/cat.png)'} />);
    expect(container.querySelector('img')).toBeNull();
    const button = screen.getByRole('button', { name: /Load image from images\.test/ });
    fireEvent.click(button);
    const image = container.querySelector('img');
    expect(image?.getAttribute('src')).toBe('https://images.test/cat.png');
    expect(image?.getAttribute('referrerpolicy')).toBe('no-referrer');
  });

  it('offers no image whose address is not http(s)', () => {
    const { container } = render(
      <Markdown content={'![x](javascript:alert(1)) ![y](data:image/png;base64,AAAA)'} />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('renders GitHub-flavoured markdown: tables and task lists', () => {
    const { container } = render(
      <Markdown content={'| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done'} />,
    );
    expect(container.querySelector('table')).not.toBeNull();
    expect(container.querySelector('input[type="checkbox"]')).not.toBeNull();
  });

  it('highlights a fenced code block once the highlighter has loaded', async () => {
    const { container } = render(<Markdown content={'```js\nconst answer = 42;\n```'} />);
    expect(container.querySelector('pre code')?.textContent).toContain('const answer = 42;');
    await waitFor(() => expect(container.querySelector('.hljs-keyword')).not.toBeNull());
  });

  it('renders math once the math renderer has loaded', async () => {
    // happy-dom documents have no doctype, which KaTeX warns about.
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { container } = render(<Markdown content={'Euler: $e^{i\\pi} + 1 = 0$'} />);
    await waitFor(() => expect(container.querySelector('.katex')).not.toBeNull());
  });
});

describe('code blocks', () => {
  it('name their language and copy exactly the code', async () => {
    const writeText = vi.fn(async (_text: string) => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<Markdown content={'```python\nprint("<b>hi</b>")\nx = 1\n```'} />);
    expect(screen.getByTestId('code-language').textContent).toBe('python');
    fireEvent.click(screen.getByRole('button', { name: 'Copy python' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('print("<b>hi</b>")\nx = 1'));
    expect(await screen.findByRole('button', { name: 'Code copied' })).toBeTruthy();
  });

  it('call a fence without a language "text"', () => {
    render(<Markdown content={'```\nplain\n```'} />);
    expect(screen.getByTestId('code-language').textContent).toBe('text');
    expect(screen.getByRole('button', { name: 'Copy code' })).toBeTruthy();
  });
});

describe('loading code highlighting and math on demand', () => {
  it('asks for the highlighter only when a message has a code fence', () => {
    expect(needsCode('```ts\nlet a = 1\n```')).toBe(true);
    expect(needsCode('~~~\nplain\n~~~')).toBe(true);
    expect(needsCode('use `inline` code only')).toBe(false);
  });

  it('asks for math only when a message has TeX between dollars', () => {
    expect(needsMath('$$\\int_0^1 x\\,dx$$')).toBe(true);
    expect(needsMath('so $x^2$ grows')).toBe(true);
    expect(needsMath('it costs $5 and $10')).toBe(false);
    expect(needsMath('no math here')).toBe(false);
  });
});

describe('safe URLs', () => {
  it('keeps http, https and mailto and drops everything else', () => {
    expect(safeUrl('https://a.test/x')).toBe('https://a.test/x');
    expect(safeUrl('http://a.test')).toBe('http://a.test/');
    expect(safeUrl('mailto:a@b.test')).toBe('mailto:a@b.test');
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl('java\nscript:alert(1)')).toBeNull();
    expect(safeUrl('  javascript:alert(1)')).toBeNull();
    expect(safeUrl('data:text/html,hi')).toBeNull();
    expect(safeUrl('#top')).toBeNull();
  });
});

describe('citation markers', () => {
  const source = {
    url: '',
    document_name: 'handbook.pdf',
    chunk_id: 'c1',
    knowledge_base_id: 'kb1',
    index: 1,
  };

  const renderCited = (content: string, open = vi.fn()) => {
    const view = render(
      <CitationsContext.Provider value={{ sources: [source], open }}>
        <Markdown citable content={content} />
      </CitationsContext.Provider>,
    );
    return { ...view, open };
  };

  it('makes only the [n] of plain text a button, never one in code, a link or raw HTML', () => {
    const { open, container } = renderCited(
      'Leave is 25 days [1]. In code: `[1]`. [A link [1]](https://a.test). <sup data-cite="1">1</sup>\n\n```\n[1]\n```',
    );
    const buttons = screen.getAllByRole('button', { name: 'Open source 1: handbook.pdf' });
    expect(buttons).toHaveLength(1);
    fireEvent.click(buttons[0]!);
    expect(open).toHaveBeenCalledWith(source);
    expect(container.querySelector('code')?.textContent).toBe('[1]');
    expect(screen.getByRole('link').textContent).toBe('A link [1]');
    expect(container.textContent).toContain('<sup data-cite="1">1</sup>');
  });

  it('leaves markers as text in a reply that cites no passage', () => {
    render(<Markdown content="See [1]." />);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByText('See [1].')).toBeTruthy();
  });
});

import { describe, expect, it } from 'vitest';
import { renderText, safeHref } from './render-text';

const render = (text: string) => {
  const div = document.createElement('div');
  div.append(renderText(text));
  return div;
};

describe('renderText', () => {
  it('never turns HTML in a reply into elements', () => {
    const attacks = [
      '<img src=x onerror="alert(1)">',
      '<script>alert(1)</script>',
      '<a href="javascript:alert(1)">click</a>',
      '**<iframe src="https://evil.example">**',
      '`<b>bold</b>`',
      '```html\n<svg onload=alert(1)></svg>\n```',
      '[<img src=x>](https://example.com)',
    ];
    for (const text of attacks) {
      const div = render(text);
      expect(div.querySelectorAll('img, script, iframe, svg, b')).toHaveLength(0);
      for (const a of div.querySelectorAll('a')) expect(a.protocol).toBe('https:');
    }
    expect(render(attacks[0]!).textContent).toBe(attacks[0]);
    expect(render(attacks[1]!).textContent).toBe(attacks[1]);
  });

  it('makes paragraphs and line breaks', () => {
    const div = render('First line\nsecond line\n\n\nNext paragraph');
    const paragraphs = div.querySelectorAll('p');
    expect(paragraphs).toHaveLength(2);
    expect(paragraphs[0]!.querySelectorAll('br')).toHaveLength(1);
    expect(paragraphs[0]!.textContent).toBe('First linesecond line');
    expect(paragraphs[1]!.textContent).toBe('Next paragraph');
  });

  it('shows fenced code blocks as they are, even while still open', () => {
    const div = render('Run:\n```sh\nnpm i\n\necho "<ok>"\n```\nDone.');
    const code = div.querySelector('pre > code')!;
    expect(code.textContent).toBe('npm i\n\necho "<ok>"');
    expect(code.getAttribute('data-language')).toBe('sh');
    expect(div.querySelectorAll('p')).toHaveLength(2);

    const open = render('```js\nconst a = 1;');
    expect(open.querySelector('pre > code')!.textContent).toBe('const a = 1;');
  });

  it('shows inline code and bold', () => {
    const div = render('Use `npm test` **now**.');
    expect(div.querySelector('code')!.textContent).toBe('npm test');
    expect(div.querySelector('strong')!.textContent).toBe('now');
    expect(div.textContent).toBe('Use npm test now.');
  });

  it('links http(s) URLs only, opened apart from the widget', () => {
    const div = render(
      'See https://docs.example.com/a?b=1. Or [the guide](http://example.com/guide), not [this](javascript:alert(1)) nor data:text/html,x.',
    );
    const links = [...div.querySelectorAll('a')];
    expect(links.map((a) => [a.getAttribute('href'), a.textContent])).toEqual([
      ['https://docs.example.com/a?b=1', 'https://docs.example.com/a?b=1'],
      ['http://example.com/guide', 'the guide'],
    ]);
    for (const a of links) {
      expect(a.getAttribute('target')).toBe('_blank');
      expect(a.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    }
    expect(div.textContent).toContain('[this](javascript:alert(1)');
    expect(div.textContent).toContain('https://docs.example.com/a?b=1. Or');
  });

  it('keeps a closing bracket around a URL out of the link', () => {
    const div = render('(see https://example.com/x)');
    expect(div.querySelector('a')!.getAttribute('href')).toBe('https://example.com/x');
    expect(div.textContent).toBe('(see https://example.com/x)');
  });
});

describe('safeHref', () => {
  it('accepts absolute http(s) URLs only', () => {
    expect(safeHref('https://example.com')).toBe('https://example.com/');
    expect(safeHref('HTTP://example.com/a')).toBe('http://example.com/a');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('JaVaScRiPt:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,<b>x</b>')).toBeNull();
    expect(safeHref('/relative')).toBeNull();
    expect(safeHref('//example.com')).toBeNull();
  });
});

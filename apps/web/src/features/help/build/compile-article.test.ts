import { describe, expect, it } from 'vitest';
import { helpArticles } from 'virtual:help-articles';
import { helpSearchDocuments } from 'virtual:help-search';
import { helpFaq } from 'virtual:help-faq';
import { checkArticleLinks, compileArticle, compileFaq, slugify } from './compile-article';

const article = (
  body: string,
  front = 'title: Chat\ndescription: About the chat.\norder: 3\ngroup: Using Chorus',
) => `---\n${front}\n---\n\n${body}`;

describe('compileArticle', () => {
  it('reads the front matter and anchors every heading for the table of contents', () => {
    const { article: compiled } = compileArticle(
      'chat',
      article(
        'Intro text.\n\n## Rate limits\n\nWait a moment.\n\n### Per key\n\nMore.\n\n## Rate limits\n\nAgain.',
        'title: Chat\ndescription: About the chat.\norder: 3\ngroup: Using Chorus\nrelated: prompts, keys-and-providers',
      ),
    );
    expect(compiled).toMatchObject({
      slug: 'chat',
      title: 'Chat',
      description: 'About the chat.',
      order: 3,
      group: 'Using Chorus',
      related: ['prompts', 'keys-and-providers'],
    });
    expect(compiled.headings).toEqual([
      { id: 'rate-limits', text: 'Rate limits', level: 2 },
      { id: 'per-key', text: 'Per key', level: 3 },
      { id: 'rate-limits-2', text: 'Rate limits', level: 2 },
    ]);
    const html = compiled.parts.map((p) => ('html' in p ? p.html : '')).join('');
    expect(html).toContain('<h2 id="rate-limits" tabindex="-1">Rate limits</h2>');
    expect(html).toContain('<h2 id="rate-limits-2" tabindex="-1">Rate limits</h2>');
  });

  it('splits the text by section as plain words for the search', () => {
    const { search } = compileArticle(
      'chat',
      article('Press **Enter** to send `code`.\n\n## Not sent\n\n- Retry\n- [Edit](/chat) it'),
    );
    expect(search.sections).toEqual([
      { id: null, heading: 'Chat', text: 'Press Enter to send code.', directives: [] },
      { id: 'not-sent', heading: 'Not sent', text: 'Retry Edit it', directives: [] },
    ]);
  });

  it('opens outside links in a new tab and says so, and keeps the app’s own links plain', () => {
    const { article: compiled, links } = compileArticle(
      'chat',
      article('See [keys](/help/keys-and-providers#formats) and [OpenAI](https://openai.com).'),
    );
    const html = 'html' in compiled.parts[0]! ? compiled.parts[0].html : '';
    expect(html).toContain('<a href="/help/keys-and-providers#formats">keys</a>');
    expect(html).toContain(
      '<a href="https://openai.com" target="_blank" rel="noopener noreferrer">OpenAI<span class="sr-only"> (opens in a new tab)</span></a>',
    );
    expect(links).toEqual(['/help/keys-and-providers#formats', 'https://openai.com']);
  });

  it('puts a named block between the HTML before and after it', () => {
    const { article: compiled, search } = compileArticle(
      'keyboard-shortcuts',
      article('Before.\n\n<!-- help:shortcuts -->\n\nAfter.'),
    );
    expect(compiled.parts).toEqual([
      { html: '<p>Before.</p>' },
      { directive: 'shortcuts' },
      { html: '<p>After.</p>' },
    ]);
    expect(search.sections[0]!.directives).toEqual(['shortcuts']);
  });

  it('wraps tables in a region a keyboard can scroll, named by their columns', () => {
    const { article: compiled } = compileArticle(
      'keys',
      article('| Provider | Prefix |\n| --- | --- |\n| OpenAI | `sk-` |'),
    );
    const html = 'html' in compiled.parts[0]! ? compiled.parts[0].html : '';
    expect(html).toMatch(
      /^<div class="help-table" role="region" tabindex="0" aria-label="Table: Provider, Prefix"><table>/,
    );
  });

  it.each([
    ['raw HTML', article('<div>hi</div>'), /raw HTML is not allowed/],
    ['a second title', article('# Title again'), /use ## and ###/],
    ['an unknown block', article('<!-- help:widgets -->'), /unknown block/],
    ['no title', article('Text', 'description: x\norder: 1\ngroup: g'), /needs "title"/],
    [
      'an unknown field',
      article('Text', 'title: t\ndescription: x\norder: 1\ngroup: g\nauthor: me'),
      /unknown front matter field "author"/,
    ],
    ['no front matter', 'Just text', /must begin with a front matter/],
  ])('refuses %s', (_, source, problem) => {
    expect(() => compileArticle('chat', source)).toThrow(problem);
  });

  it('makes anchors of headings with punctuation and accents', () => {
    expect(slugify('Add, test & remove your own key')).toBe('add-test-remove-your-own-key');
    expect(slugify('Résumé: “Not sent” messages')).toBe('resume-not-sent-messages');
  });
});

describe('compileFaq', () => {
  it('makes a question of each ## heading and an answer of what follows', () => {
    const faq = compileFaq(
      '## Can I use dark mode?\n\nYes. See [the guide](/help/chat).\n\n## Is there an API?\n\nYes.\n\nTwo paragraphs.',
    );
    expect(faq.items).toEqual([
      {
        id: 'faq-can-i-use-dark-mode',
        question: 'Can I use dark mode?',
        html: '<p>Yes. See <a href="/help/chat">the guide</a>.</p>',
      },
      {
        id: 'faq-is-there-an-api',
        question: 'Is there an API?',
        html: '<p>Yes.</p>\n<p>Two paragraphs.</p>',
      },
    ]);
    expect(faq.links).toEqual(['/help/chat']);
    expect(faq.search).toMatchObject({
      slug: 'faq',
      path: '/help',
      sections: [
        {
          id: 'faq-can-i-use-dark-mode',
          heading: 'Can I use dark mode?',
          text: 'Yes. See the guide.',
        },
        { id: 'faq-is-there-an-api', heading: 'Is there an API?', text: 'Yes. Two paragraphs.' },
      ],
    });
  });

  it.each([
    ['text before the first question', 'Hello\n\n## Q?\n\nA.', /must begin with a ## question/],
    ['a heading of another level', '## Q?\n\n### Detail\n\nA.', /each question is a ## heading/],
    ['a question asked twice', '## Q?\n\nA.\n\n## Q?\n\nB.', /asked twice/],
  ])('refuses %s', (_, source, problem) => {
    expect(() => compileFaq(source)).toThrow(problem);
  });
});

describe('checkArticleLinks', () => {
  it('names links and related articles that lead nowhere', () => {
    const chat = compileArticle(
      'chat',
      article(
        '[a](/help/prompts#variables) [b](/help/prompts#nope) [c](/help/nothing) [d](/chat)',
        'title: Chat\ndescription: d\norder: 1\ngroup: g\nrelated: prompts, gone',
      ),
    );
    const prompts = compileArticle('prompts', article('## Variables\n\nText.'));
    expect(checkArticleLinks([chat, prompts])).toEqual([
      'chat: related article "gone" is unknown',
      'chat: link /help/prompts#nope names no heading of "prompts"',
      'chat: link /help/nothing names no article',
    ]);
  });
});

// The build refuses articles whose links lead nowhere; what it made of them is checked here.
describe('the articles in the repository', () => {
  it('are all listed, in their order', () => {
    expect(helpArticles.map((a) => a.slug)).toEqual([
      'getting-started',
      'keys-and-providers',
      'chat',
      'prompts',
      'knowledge-base',
      'custom-ais',
      'scenarios',
      'test-runner',
      'plans-and-quotas',
      'privacy-and-data',
      'keyboard-shortcuts',
    ]);
  });

  it('and the FAQ answer the questions the help center promises', () => {
    expect(helpFaq.map((item) => item.question)).toContain('Why is my message marked “Not sent”?');
    expect(helpFaq.every((item) => item.html.startsWith('<p>'))).toBe(true);
  });

  it('each have a description short enough for a result, and several sections', () => {
    for (const a of helpArticles) {
      expect(a.description.length, a.slug).toBeLessThanOrEqual(200);
      expect(a.related.length, a.slug).toBeGreaterThan(0);
    }
    for (const doc of helpSearchDocuments.filter((d) => d.slug !== 'faq')) {
      expect(doc.sections.filter((s) => s.id !== null).length, doc.slug).toBeGreaterThan(1);
    }
  });
});

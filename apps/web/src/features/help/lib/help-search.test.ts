import { describe, expect, it } from 'vitest';
import { helpSearchDocuments } from 'virtual:help-search';
import type { HelpSearchDocument } from '../content-types';
import { buildHelpIndex, makeSnippet, searchHelp, type SnippetPart } from './help-search';
import { withDirectiveText } from './load-help-search';

const doc = (
  slug: string,
  title: string,
  sections: [string | null, string, string][],
  order = 1,
): HelpSearchDocument => ({
  slug,
  path: `/help/${slug}`,
  title,
  description: `About ${title.toLowerCase()}.`,
  order,
  sections: sections.map(([id, heading, text]) => ({ id, heading, text, directives: [] })),
});

const fixture = buildHelpIndex([
  doc(
    'chat',
    'Chat',
    [
      [null, 'Chat', 'The chat is where you talk to a model.'],
      ['rate-limits', 'Rate limits', 'Requests wait about 10 seconds once the limit is passed.'],
      ['export', 'Export', 'Export as Markdown or JSON. Keys are never exported.'],
    ],
    3,
  ),
  doc(
    'keys',
    'Keys and providers',
    [
      [null, 'Keys and providers', 'Chorus calls each provider with an API key.'],
      ['formats', 'Key formats', 'An OpenAI key starts with sk-. A Perplexity key with pplx-.'],
    ],
    2,
  ),
  doc('plans', 'Plans', [['limit', 'When you reach the limit', 'The daily limit resets.']], 6),
]);

const marked = (parts: SnippetPart[]) => parts.filter((p) => p.match).map((p) => p.text);
const text = (parts: SnippetPart[]) => parts.map((p) => p.text).join('');

describe('searchHelp', () => {
  it('finds nothing for an empty query, or one of spaces and punctuation only', () => {
    expect(searchHelp(fixture, '')).toEqual([]);
    expect(searchHelp(fixture, '   ')).toEqual([]);
    expect(searchHelp(fixture, '?!')).toEqual([]);
  });

  it('ranks a word in the title above the same word in the text', () => {
    const results = searchHelp(fixture, 'keys');
    expect(results.map((r) => r.slug)).toEqual(['keys', 'chat']);
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score);
  });

  it('leads to the section that matches best, at its heading', () => {
    const [first] = searchHelp(fixture, 'rate limit');
    expect(first).toMatchObject({
      slug: 'chat',
      sectionId: 'rate-limits',
      sectionHeading: 'Rate limits',
      href: '/help/chat#rate-limits',
    });
  });

  it('keeps only articles that hold every word of the query', () => {
    expect(
      searchHelp(fixture, 'limit')
        .map((r) => r.slug)
        .sort(),
    ).toEqual(['chat', 'plans']);
    expect(searchHelp(fixture, 'daily limit').map((r) => r.slug)).toEqual(['plans']);
    expect(searchHelp(fixture, 'limit banana')).toEqual([]);
  });

  it('matches a word being typed by its beginning, and singulars with plurals', () => {
    expect(searchHelp(fixture, 'perplex').map((r) => r.slug)).toEqual(['keys']);
    expect(searchHelp(fixture, 'format')[0]!.sectionId).toBe('formats');
    expect(searchHelp(fixture, 'second')[0]!.slug).toBe('chat');
  });

  it('ignores case, accents and the little words of a question', () => {
    expect(searchHelp(fixture, 'How do I EXPORT?')[0]!.href).toBe('/help/chat#export');
    expect(searchHelp(fixture, 'éxport')[0]!.href).toBe('/help/chat#export');
  });

  it('breaks ties by the articles’ order', () => {
    const index = buildHelpIndex([
      doc('b', 'Second', [['x', 'Same', 'word']], 2),
      doc('a', 'First', [['x', 'Same', 'word']], 1),
    ]);
    expect(searchHelp(index, 'word').map((r) => r.slug)).toEqual(['a', 'b']);
  });
});

describe('makeSnippet', () => {
  it('marks every match of the query’s words in the snippet', () => {
    const parts = makeSnippet('Export as Markdown or JSON. Keys are never exported.', 'export');
    expect(marked(parts)).toEqual(['Export', 'exported']);
    expect(text(parts)).toBe('Export as Markdown or JSON. Keys are never exported.');
  });

  it('starts shortly before the first match in a long text, at a word, with ellipses', () => {
    const long = `${'Lorem ipsum dolor sit amet. '.repeat(10)}The daily limit resets at midnight. ${'More words follow here. '.repeat(10)}`;
    const parts = makeSnippet(long, 'daily');
    expect(parts[0]).toEqual({ text: '…', match: false });
    expect(parts.at(-1)).toEqual({ text: '…', match: false });
    expect(marked(parts)).toEqual(['daily']);
    const shown = text(parts);
    expect(shown.length).toBeLessThanOrEqual(182);
    // Cut between words: what follows the ellipsis begins a word of the text.
    expect(long).toContain(` ${shown.slice(1, -1)}`);
    expect(shown.indexOf('daily')).toBeLessThan(60);
  });

  it('shows the beginning of the text when nothing in it matches', () => {
    expect(makeSnippet('Short text.', 'other')).toEqual([{ text: 'Short text.', match: false }]);
  });
});

describe('the help center’s own articles', () => {
  const index = buildHelpIndex(withDirectiveText(helpSearchDocuments));

  it.each([
    ['rate limit', '/help/chat#rate-limits'],
    ['variables', '/help/prompts#variables'],
    ['pplx', '/help/keys-and-providers#key-formats'],
    ['00:00 UTC reset', '/help/plans-and-quotas#when-the-count-resets'],
    ['revoke share link', '/help/privacy-and-data#share-links'],
    ['winner', '/help/scenarios#rate-pick-a-winner-keep-a-test-case'],
  ])('answer “%s” first with %s', (query, href) => {
    expect(searchHelp(index, query)[0]?.href).toBe(href);
  });

  it('find the shortcuts and models drawn from the app’s own lists', () => {
    expect(searchHelp(index, 'Stop the reply being written')[0]?.slug).toBe('keyboard-shortcuts');
    expect(searchHelp(index, 'sonar-deep-research')[0]?.href).toBe(
      '/help/keys-and-providers#the-eight-providers',
    );
  });
});

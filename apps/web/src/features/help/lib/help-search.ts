import type { HelpSearchDocument } from '../content-types';

// A small ranked full-text search over the help articles. The corpus is a few thousand words, so
// each query reads every section; no inverted index is worth its bytes.

export type SnippetPart = { text: string; match: boolean };

export type HelpSearchResult = {
  slug: string;
  title: string;
  /** The section the best match is in; null when it is the article's opening text. */
  sectionId: string | null;
  sectionHeading: string | null;
  /** Where the result leads: the article, at the section's heading. */
  href: string;
  /** A short stretch of the text around the match, the matching words marked. */
  snippet: SnippetPart[];
  score: number;
};

type IndexedSection = {
  id: string | null;
  heading: string;
  text: string;
  headingWords: string[];
  textWords: string[];
};

type IndexedArticle = {
  slug: string;
  path: string;
  title: string;
  description: string;
  order: number;
  titleWords: string[];
  descriptionWords: string[];
  sections: IndexedSection[];
};

export type HelpIndex = { articles: IndexedArticle[] };

const wordPattern = /[\p{L}\p{N}]+/gu;

/** Lower case, without accents: "Résumé" and "resume" are one word to the search. */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** The words of a text, folded. */
export const searchTerms = (text: string): string[] => fold(text).match(wordPattern) ?? [];

/** "keys" and "key", "replies" and "reply" count as one word. */
const stem = (word: string) => {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
};

const stopWords = new Set(
  'a an and are at be by can do does for from how i in is it me my of on or the this that to what when where which who why with you your'.split(
    ' ',
  ),
);

type Term = { word: string; stem: string };

/** The query's words, each once, without the little words unless there is nothing else. */
const queryTerms = (query: string): Term[] => {
  const words = [...new Set(searchTerms(query))];
  const meaningful = words.filter((word) => !stopWords.has(word));
  return (meaningful.length > 0 ? meaningful : words).map((word) => ({ word, stem: stem(word) }));
};

/** 1 for the same word, 0.6 for a word that begins with the term (as one types), else 0. */
const matchWeight = (word: string, term: Term): number => {
  if (word === term.word || stem(word) === term.stem) return 1;
  return term.word.length >= 2 && word.startsWith(term.word) ? 0.6 : 0;
};

const bestMatch = (words: string[], term: Term) => {
  let best = 0;
  for (const word of words) best = Math.max(best, matchWeight(word, term));
  return best;
};

/** Matches counted with their weights, at most `cap` of them. */
const countMatches = (words: string[], term: Term, cap = 5) => {
  let total = 0;
  let found = 0;
  for (const word of words) {
    const weight = matchWeight(word, term);
    if (weight > 0) {
      total += weight;
      found += 1;
      if (found === cap) break;
    }
  }
  return total;
};

const weights = { title: 10, description: 4, heading: 6, text: 1 } as const;

/** Builds the index from the documents the build step wrote (and any text added to them). */
export const buildHelpIndex = (documents: HelpSearchDocument[]): HelpIndex => ({
  articles: documents.map((doc) => ({
    slug: doc.slug,
    path: doc.path,
    title: doc.title,
    description: doc.description,
    order: doc.order,
    titleWords: searchTerms(doc.title),
    descriptionWords: searchTerms(doc.description),
    sections: doc.sections.map((section) => ({
      id: section.id,
      heading: section.heading,
      text: section.text,
      headingWords: section.id === null ? [] : searchTerms(section.heading),
      textWords: searchTerms(section.text),
    })),
  })),
});

const snippetChars = 180;
const leadChars = 50;

/**
 * A stretch of `text` around its first match, cut at word boundaries, with every match of the
 * terms marked. Without a match, the beginning of the text.
 */
export const makeSnippet = (text: string, query: string): SnippetPart[] => {
  const terms = queryTerms(query);
  const matches: { start: number; end: number }[] = [];
  for (const found of text.matchAll(wordPattern)) {
    const word = fold(found[0]);
    if (terms.some((term) => matchWeight(word, term) > 0)) {
      matches.push({ start: found.index, end: found.index + found[0].length });
    }
  }
  let start = 0;
  if (matches.length > 0 && matches[0]!.start > leadChars) {
    const from = matches[0]!.start - leadChars;
    const space = text.indexOf(' ', from);
    start = space === -1 || space >= matches[0]!.start ? from : space + 1;
  }
  let end = Math.min(text.length, start + snippetChars);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > start) end = space;
  }
  const parts: SnippetPart[] = [];
  if (start > 0) parts.push({ text: '…', match: false });
  let at = start;
  for (const match of matches) {
    if (match.end <= start || match.start >= end) continue;
    const from = Math.max(match.start, start);
    if (from > at) parts.push({ text: text.slice(at, from), match: false });
    parts.push({ text: text.slice(from, Math.min(match.end, end)), match: true });
    at = Math.min(match.end, end);
  }
  if (at < end) parts.push({ text: text.slice(at, end), match: false });
  if (end < text.length) parts.push({ text: '…', match: false });
  return parts;
};

/** Within one article: how much more the best section counts than the rest of them. */
const otherSectionsShare = 0.2;

/**
 * The articles that hold every word of the query (the last one may be half typed), best first.
 * A word in the title counts most, then in the description; of the sections, the one that
 * matches best counts in full (more when it holds every word, or the words as written), the
 * others a little. Each result points at its best section. An empty query finds nothing.
 */
export const searchHelp = (index: HelpIndex, query: string): HelpSearchResult[] => {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  const allWords = searchTerms(query);
  const phrase = allWords.length > 1 ? allWords.join(' ') : null;
  const results: HelpSearchResult[] = [];

  for (const article of index.articles) {
    let base = 0;
    const sectionScores = article.sections.map(() => 0);
    const covered = article.sections.map(() => 0);
    let everyTerm = true;
    for (const term of terms) {
      const inArticle =
        weights.title * bestMatch(article.titleWords, term) +
        weights.description * bestMatch(article.descriptionWords, term);
      let anywhere = inArticle > 0;
      article.sections.forEach((section, i) => {
        const inSection =
          weights.heading * bestMatch(section.headingWords, term) +
          weights.text * countMatches(section.textWords, term, 3);
        if (inSection > 0) {
          sectionScores[i]! += inSection;
          covered[i]! += 1;
          anywhere = true;
        }
      });
      if (!anywhere) {
        everyTerm = false;
        break;
      }
      base += inArticle;
    }
    if (!everyTerm) continue;

    article.sections.forEach((section, i) => {
      if (terms.length > 1 && covered[i] === terms.length) sectionScores[i]! += 4;
      if (
        phrase &&
        (section.headingWords.join(' ').includes(phrase) ||
          section.textWords.join(' ').includes(phrase))
      ) {
        sectionScores[i]! += 10;
      }
    });
    if (phrase && article.titleWords.join(' ').includes(phrase)) base += 15;

    let best = -1;
    sectionScores.forEach((value, i) => {
      if (value > 0 && (best === -1 || value > sectionScores[best]!)) best = i;
    });
    const bestScore = best === -1 ? 0 : sectionScores[best]!;
    const rest = sectionScores.reduce((sum, value) => sum + value, 0) - bestScore;
    const section = best === -1 ? undefined : article.sections[best];
    results.push({
      slug: article.slug,
      title: article.title,
      sectionId: section?.id ?? null,
      sectionHeading: section?.id ? section.heading : null,
      href: `${article.path}${section?.id ? `#${section.id}` : ''}`,
      snippet: makeSnippet(section?.text || article.description, query),
      score: base + bestScore + otherSectionsShare * rest,
    });
  }

  const order = new Map(index.articles.map((a) => [a.slug, a.order]));
  return results.sort((a, b) => b.score - a.score || order.get(a.slug)! - order.get(b.slug)!);
};

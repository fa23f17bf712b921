import { describe, expect, it } from 'vitest';
import { apiKeyFormatError } from './api/keys.ts';
import { emailMessages } from './email.ts';
import { errorCatalogue, messageFor, type CatalogueEntry } from './error-catalogue.ts';
import { errorCodes } from './error-codes.ts';
import { everyErrorMessage } from './error-examples.ts';
import { messages } from './messages.ts';
import { asSentence, joinSentences, sentenceProblems } from './sentences.ts';

const rendered = everyErrorMessage();

/** `code (variant): "text" problem, problem` for every message that breaks a rule. */
const faults = (list: { label: string; text: string; finalMark: boolean }[]) =>
  list.flatMap(({ label, text, finalMark }) => {
    const problems = sentenceProblems(text, { finalMark });
    return problems.length ? [`${label}: ${JSON.stringify(text)} ${problems.join(', ')}`] : [];
  });

describe('the error catalogue', () => {
  it('has words for every code, and no words for a code that does not exist', () => {
    expect(Object.keys(errorCatalogue).sort()).toEqual([...errorCodes].sort());
    expect(new Set(errorCodes).size).toBe(errorCodes.length);
  });

  it('renders every message, with every example of its particulars', () => {
    expect(new Set(rendered.map((m) => m.code))).toEqual(new Set(errorCodes));
    for (const code of errorCodes) {
      const entry: CatalogueEntry = errorCatalogue[code];
      if (entry.detail) {
        expect(rendered.filter((m) => m.code === code).length, code).toBeGreaterThan(1);
      }
    }
  });

  it('punctuates every message as one or more whole sentences', () => {
    expect(
      faults(
        rendered.map((m) => ({
          label: `${m.code} (${m.variant})`,
          text: m.text,
          finalMark: !m.spec,
        })),
      ),
    ).toEqual([]);
  });

  it("keeps the spec's wording, which needs only a full stop when more words follow it", () => {
    const spec = rendered.filter((m) => m.spec);
    expect(spec.map((m) => m.code)).toContain('auth:required');
    expect(
      faults(
        spec.map((m) => ({
          label: `${m.code} (${m.variant})`,
          text: asSentence(m.text),
          finalMark: true,
        })),
      ),
    ).toEqual([]);
    expect(messageFor('auth:required')).toBe(messages.auth.required);
    expect(messageFor('auth:forbidden', { action: 'log admin action' })).toBe(
      messages.admin.notAuthorizedToLog,
    );
    expect(messageFor('email:invalid_format', { email: 'bad@nodot' })).toBe(
      'Invalid email format: bad@nodot',
    );
  });

  it('never doubles a mark when two messages are joined', () => {
    const texts = [...new Set(rendered.map((m) => m.text))];
    const broken: string[] = [];
    for (const first of texts) {
      for (const second of texts) {
        const joined = joinSentences(first, second);
        const problems = sentenceProblems(joined);
        if (problems.length) broken.push(`${JSON.stringify(joined)} ${problems.join(', ')}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('gives the default message without particulars, and the detailed one with them', () => {
    expect(messageFor('keys:missing')).toBe(errorCatalogue['keys:missing'].message);
    expect(messageFor('keys:missing', { provider: 'OpenAI' })).toBe(
      'No OpenAI API key is available to you. Add one on the API keys page, or pick another provider.',
    );
    expect(messageFor('jobs:unavailable')).toBe(errorCatalogue['jobs:unavailable'].message);
  });

  it('words a validation failure as one sentence per problem, led by its field', () => {
    expect(
      messageFor('bad_request:validation', {
        issues: [
          { path: 'name', message: 'A name is at most 100 characters. Use a shorter one.' },
          { path: 'kind', message: 'Invalid option' },
        ],
      }),
    ).toBe(
      'Field name: A name is at most 100 characters. Use a shorter one. Field kind: Invalid option.',
    );
  });
});

describe('words the server passes through from shared checks', () => {
  it("keeps the spec's wording of key formats and run notices, all but the final stop", () => {
    const passedThrough = [
      apiKeyFormatError('openai', ''),
      apiKeyFormatError('openai', 'not-a-key'),
      apiKeyFormatError('perplexity', 'sk-wrong'),
      emailMessages.missingData,
      emailMessages.invalidFormat,
      emailMessages.noResponseText,
    ].map((text) => text ?? '');
    expect(
      faults(
        passedThrough.flatMap((text) => [
          { label: 'as sent', text, finalMark: false },
          { label: 'in a sentence', text: asSentence(text), finalMark: true },
        ]),
      ),
    ).toEqual([]);
  });
});

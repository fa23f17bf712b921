import { describe, expect, it } from 'vitest';
import { helpSearchDocuments } from 'virtual:help-search';
import { chatMessages, keyMessages, messages, planMessages } from '@chorus/shared/messages';
import { shareMessages } from '@chorus/shared/share-messages';

const textOf = (slug: string) =>
  helpSearchDocuments
    .find((doc) => doc.slug === slug)!
    .sections.map((section) => `${section.heading} ${section.text}`)
    .join(' ');

// The articles quote what the app says, so a reader recognises it; when the app's words change,
// this says which article to update.
describe('the articles quote the app’s own words', () => {
  it.each([
    ['keys-and-providers', keyMessages.mustStartWith('OpenAI', 'sk-')],
    ['keys-and-providers', keyMessages.mustStartWith('DeepSeek', 'sk-')],
    ['keys-and-providers', keyMessages.mustStartWith('Perplexity', 'pplx-')],
    ['keys-and-providers', keyMessages.emptyKey('Mistral')],
    ['keys-and-providers', keyMessages.valid('OpenAI')],
    ['keys-and-providers', keyMessages.invalidKey],
    ['keys-and-providers', keyMessages.rateLimited],
    ['keys-and-providers', keyMessages.unexpectedFormat],
    ['keys-and-providers', keyMessages.noModels],
    ['keys-and-providers', keyMessages.timedOut],
    ['keys-and-providers', keyMessages.emptyTestKey],
    ['keys-and-providers', keyMessages.anthropic.invalid],
    ['keys-and-providers', keyMessages.anthropic.rateLimited],
    ['keys-and-providers', keyMessages.anthropic.badRequest],
    ['plans-and-quotas', planMessages.quotaExceeded(50, 'Free', '5 h 12 min')],
    ['plans-and-quotas', planMessages.providerNotAllowed('Perplexity', 'Free')],
    ['plans-and-quotas', planMessages.modelNotAllowed('o3', 'Free')],
    ['plans-and-quotas', planMessages.paymentsNotConfigured],
    ['chat', chatMessages.serverRestarting],
    ['chat', messages.rateLimit.pageTitle],
    ['chat', messages.rateLimit.retryNow],
    ['chat', messages.rateLimit.operation('Creating a chat', 7).replace('7', 'N')],
    ['privacy-and-data', shareMessages.unavailable],
    ['privacy-and-data', shareMessages.revoke],
  ])('%s says “%s”', (slug, words) => {
    expect(textOf(slug)).toContain(words);
  });
});

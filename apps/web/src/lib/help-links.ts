// Where the app's empty states and error messages send people for more: an article of the help
// center (apps/web/src/features/help/articles), at a heading where one fits. A test there checks
// that every article and heading named here exists.

/** The help articles the app links to, by area. */
export const helpArticle = {
  gettingStarted: 'getting-started',
  keys: 'keys-and-providers',
  chat: 'chat',
  prompts: 'prompts',
  knowledgeBase: 'knowledge-base',
  customAis: 'custom-ais',
  scenarios: 'scenarios',
  testRunner: 'test-runner',
  plans: 'plans-and-quotas',
  privacy: 'privacy-and-data',
  shortcuts: 'keyboard-shortcuts',
} as const;

export type HelpSlug = (typeof helpArticle)[keyof typeof helpArticle];

/** `/help/{slug}`, or `/help/{slug}#{anchor}` to open it at a heading. */
export const helpPath = (slug: HelpSlug, anchor?: string): string =>
  `/help/${slug}${anchor ? `#${anchor}` : ''}`;

/** The links of the app's empty states and notices. */
export const helpLinks = {
  prompts: helpPath(helpArticle.prompts),
  scenarios: helpPath(helpArticle.scenarios),
  knowledgeBase: helpPath(helpArticle.knowledgeBase),
  customAis: helpPath(helpArticle.customAis),
  testRunner: helpPath(helpArticle.testRunner),
  testAssertions: helpPath(helpArticle.testRunner, 'assertions'),
  testImport: helpPath(helpArticle.testRunner, 'import-cases'),
  testRunnerCi: helpPath(helpArticle.testRunner, 'run-tests-from-ci'),
  keys: helpPath(helpArticle.keys),
  missingKey: helpPath(helpArticle.keys, 'which-key-a-call-uses'),
  keyProblems: helpPath(helpArticle.keys, 'when-a-key-is-missing-or-refused'),
  dailyLimit: helpPath(helpArticle.plans, 'when-you-reach-the-limit'),
  rateLimits: helpPath(helpArticle.chat, 'rate-limits'),
  replyFailures: helpPath(helpArticle.chat, 'when-a-reply-fails'),
  notSent: helpPath(helpArticle.chat, 'not-sent-messages'),
  shareLinks: helpPath(helpArticle.privacy, 'share-links'),
} as const;

/** By error code (`area:reason`, shared/error-codes.ts): an exact code first, then its area. */
const byCode = new Map<string, string>([
  ['provider:auth', helpLinks.keyProblems],
  ['provider:rate_limited', helpLinks.rateLimits],
  ['proxy:direct_call', helpLinks.keys],
]);

const byArea = new Map<string, string>([
  ['keys', helpLinks.keyProblems],
  ['quota', helpLinks.dailyLimit],
  ['rate_limit', helpLinks.rateLimits],
  ['provider', helpLinks.replyFailures],
  ['chat', helpLinks.replyFailures],
  ['shares', helpLinks.shareLinks],
  ['prompts', helpLinks.prompts],
  ['scenarios', helpLinks.scenarios],
  ['custom_ais', helpLinks.customAis],
]);

/** The help article that explains an error code, or null when none does. */
export const helpPathFor = (code: string | null | undefined): string | null => {
  if (!code) return null;
  return byCode.get(code) ?? byArea.get(code.split(':')[0]!) ?? null;
};

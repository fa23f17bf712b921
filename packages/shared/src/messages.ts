/**
 * Every user-facing string named by the product specification, written once.
 * Tests assert against these constants, never against copies of the text.
 */
export const messages = {
  crash: {
    title: 'Something went wrong',
    body: 'We encountered an unexpected error. Please try refreshing the page or contact support if the problem persists.',
    refresh: 'Refresh Page',
    retry: 'Try Again',
  },
  routerError: 'Unexpected Application Error!',
  auth: {
    signInFailed: 'Failed to sign in',
    signUpFailed: 'Failed to sign up',
    signOutFailed: 'Failed to sign out',
    resetRequestFailed: 'Failed to send reset instructions',
    passwordUpdateFailed: 'Failed to update password',
    credentialsRequired: 'You must provide either an email or phone number and a password',
    required: 'Authentication required',
    requiredSignInAgain: 'Authentication required - please sign in again',
    sessionMissing: 'Auth session missing!',
  },
  profile: {
    updated: 'Profile updated successfully!',
    updateFailed: 'Failed to update profile',
    notFound: 'No profile found to update',
  },
  admin: {
    notAuthorizedToLog: 'Not authorized to log admin action',
  },
  chat: {
    createFailed: 'Unable to create chat - please refresh and try again',
    defaultTitle: 'New Conversation',
  },
  rateLimit: {
    operation: (op: string, seconds: number) =>
      `${op} rate limited. Retry after ${seconds} seconds.`,
  },
} as const;

/** Spec §5 and §8: provider keys and their tests. `name` is the provider's display name. */
export const keyMessages = {
  emptyKey: (provider: string) => `Cannot save empty API key for ${provider}`,
  mustStartWith: (name: string, prefix: string) =>
    `Invalid ${name} API key format - should start with '${prefix}'`,
  emptyTestKey: 'Cannot test empty API key',
  valid: (name: string) => `${name} API key is valid`,
  appearsInvalid: (name: string, reason: string) => `${name} API key appears invalid: ${reason}`,
  invalidKey: 'Invalid API key',
  rateLimited: 'Rate limit exceeded',
  unexpectedFormat: 'Unexpected response format',
  noModels: 'No models available',
  timedOut: 'API key test timed out. The service might be experiencing delays.',
  loadTimedOut: 'Failed to load API keys: connection timed out',
  savedLocallyOnly: 'API key saved locally, but database update failed',
  removedLocallyOnly: 'API key removed locally, but database deletion failed',
  defaultProviderLocalOnly: 'Default provider saved locally, but database update failed',
  saveFailed: (provider: string) => `Failed to save ${provider} API key`,
  directCallNotAllowed: (provider: string) =>
    `Direct ${provider} API calls are not allowed. Use the provider selection instead.`,
  anthropic: {
    missing: 'No Anthropic API key provided. Please enter your API key.',
    invalid: 'Invalid Anthropic API key. Please check your key and try again.',
    rateLimited: 'Rate limit exceeded. Please try again in a few minutes.',
    badRequest: 'Invalid request format. This may be a temporary issue.',
    empty: 'Anthropic API key validation failed: Empty response',
  },
} as const;

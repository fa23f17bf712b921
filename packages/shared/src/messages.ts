import { acceptedFileTypes } from './limits.ts';

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
    paused: 'Too many requests. Taking a brief pause to avoid overloading the servers.',
    pausedDescription: 'This helps maintain service stability for all users.',
    retryNow: 'Retry Now',
    waitSeconds: (seconds: number) =>
      `Rate limited. Please wait ${seconds} seconds before retrying.`,
    restored: 'Connection restored successfully!',
    recoveryFailed:
      'Multiple recovery attempts failed. Please refresh the page or try again later.',
    pageTitle: 'Rate Limit Active',
    retryIn: (seconds: number) => `Retry in ${seconds} seconds`,
    /** Spec §8: words that mark an error as a rate limit (matched case-insensitively). */
    words: [
      'rate limit',
      '429',
      'too many requests',
      'over_request_rate_limit',
      'request rate limit reached',
    ],
  },
  session: {
    breakerOpen: (seconds: number) =>
      `Auth refresh circuit breaker is open. Try again in ${seconds} seconds.`,
    fetchTimeout: 'Session fetch timeout',
    unavailable: 'Auth system unavailable',
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
  noSavedKey: (name: string) => `You have no ${name} key saved. Paste one to test it.`,
  /** Ollama runs without a key: its test says so and checks that the server answers. */
  ollamaReachable: (host: string, models: number) =>
    `Ollama needs no API key. Its server at ${host} answers, with ${models} model${models === 1 ? '' : 's'} installed.`,
  ollamaNoModels: (host: string) =>
    `Ollama needs no API key. Its server at ${host} answers, but has no model installed; pull one first (for example: ollama pull llama2).`,
  ollamaUnreachable: (host: string, reason: string) =>
    `Ollama needs no API key, but its server at ${host} could not be reached: ${reason}.`,
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

/** Plans, quotas and payments (issue 6). `waitText` reads like "5 h 12 min". */
export const planMessages = {
  quotaExceeded: (limit: number, planName: string, waitText: string) =>
    `You have used all ${limit} prompts of your ${planName} plan for today. The limit resets at 00:00 UTC (in ${waitText}).`,
  providerNotAllowed: (providerName: string, planName: string) =>
    `Your ${planName} plan does not include ${providerName}. Pick another provider, or ask an admin for a plan that includes it.`,
  modelNotAllowed: (model: string, planName: string) =>
    `Your ${planName} plan does not include the model ${model}. Pick another model, or ask an admin for a plan that includes it.`,
  paymentsNotConfigured: 'Payments are not configured; an admin assigns plans.',
  freePlanUndeletable: 'The Free plan cannot be deleted: it is the fallback plan for every user.',
  freePlanNotRenamable: 'The Free plan cannot be renamed: it is the fallback plan for every user.',
  planNameTaken: (name: string) => `A plan named "${name}" already exists. Choose another name.`,
} as const;

/** People and governance in the back office: roles, suspension, sign-up by request (issue 6). */
export const peopleMessages = {
  nameTooLong: (max: number) => `A name is at most ${max} characters. Use a shorter one.`,
  accessRequestReceived:
    'Thank you. Your request has been received; if it is approved, an invitation link will be e-mailed to that address.',
  signUpByRequest:
    'Sign-up on this workspace is by invitation. Request access at /request-access; once approved, use the link in the invitation e-mail to sign up.',
  invitationInvalid:
    'This invitation link is not valid for this e-mail address, has expired, or was already used. Request access again at /request-access.',
  accountSuspended:
    'This account is suspended. Contact your administrator if you think this is a mistake.',
  cannotChangeOwnRole: 'You cannot change your own role. Ask another super admin.',
  cannotSuspendSelf: 'You cannot suspend your own account.',
  lastSuperAdmin: 'This is the last super admin. Make someone else a super admin first.',
  superAdminOnly: 'Only a super admin can grant or remove the super admin role.',
  cannotSuspendAdmin: 'Only a super admin can suspend or reactivate an admin.',
  userNotFound: 'There is no such user.',
  planNotFound: 'There is no such pricing plan. Reload the page to see the current plans.',
  accessRequestNotFound: 'There is no such access request.',
  accessRequestDecided: (status: string) =>
    `This request was already ${status}. Reload the page to see its current state.`,
  userAlreadyExists: 'An account with this e-mail address already exists.',
} as const;

const acceptedTypeLabels = (() => {
  const labels = Object.values(acceptedFileTypes).map((t) => t.label);
  return `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`;
})();

/** Files and the storage service (issue 11). Sizes arrive already formatted ("10 MB"). */
export const storageMessages = {
  acceptedTypes: acceptedTypeLabels,
  unsupportedType: (declared: string) =>
    `Files of type ${declared === '' ? '(none given)' : declared} cannot be uploaded. Accepted types: ${acceptedTypeLabels}.`,
  contentMismatch: (label: string) =>
    `The file's contents are not ${label}, the type it was sent as. Check the file, or send it with its real type. Accepted types: ${acceptedTypeLabels}.`,
  fileTooLarge: (limit: string, planName: string) =>
    `This file is larger than ${limit}, the largest file your ${planName} plan allows. Upload a smaller file, or ask an admin for a plan with a higher limit.`,
  quotaExceeded: (used: string, quota: string, planName: string) =>
    `Not enough storage left: your files use ${used} of the ${quota} your ${planName} plan includes. Delete files you no longer need, or ask an admin for a plan with more storage.`,
  emptyFile: 'The file is empty. Choose a file with content.',
  uploadIncomplete: 'The upload was cut off before the whole file arrived. Try again.',
  nameRequired:
    'Name the file in the X-File-Name header (percent-encoded UTF-8, at most 255 characters).',
  notFound: 'This file does not exist or is not yours.',
  linkInvalid: 'This download link is not valid. Ask for a new link.',
  linkExpired: 'This download link has expired. Ask for a new link.',
  unavailable:
    'File storage cannot be reached right now, so nothing was changed. Try again in a moment.',
  conversationFilesNotDeleted:
    "The conversation's files could not be deleted, so the conversation and its messages were kept. Try again in a moment.",
  conversationChanged:
    'A file was added to this conversation while it was being deleted, so it was kept. Try again.',
  conversationNotFound: 'This conversation does not exist or is not yours.',
} as const;

/** What a chat stream says when it cannot end normally (issue 13). */
export const chatMessages = {
  providerStoppedResponding: (providerName: string) =>
    `${providerName} stopped responding, so the reply was cut off. Try again, or switch to another provider.`,
  serverRestarting: 'Server restarting — retry in a moment.',
  /** A reply left streaming by a server that stopped (found at start-up or by the sweeper). */
  replyCutByRestart: 'The server restarted while this reply was being written. Try again.',
  replyNotSaved:
    'This reply could not be saved because the database is unavailable. Copy what you need; it will be gone after a reload.',
} as const;

/** The server itself cannot serve a request right now (issue 13). */
export const serviceMessages = {
  databaseUnavailable: (seconds: number) =>
    `The database is not answering right now, so nothing was changed. Try again in ${seconds} seconds.`,
} as const;

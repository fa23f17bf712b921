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

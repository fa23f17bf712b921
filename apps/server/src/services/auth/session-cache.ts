/**
 * How long a session's signed cookie cache lives before better-auth reads the database again.
 * Every instance hears at once of a session that ends (the `sessions` table announces each
 * deletion, invalidation.ts), so the cache is trusted this long only while that announcement
 * could not have been missed; otherwise for SESSION_UNANNOUNCED_TRUST_MS (http/session.ts).
 */
export const SESSION_COOKIE_CACHE_SECONDS = 60;

/**
 * The longest a session is trusted from its cookie cache when this instance may have missed an
 * ended session's announcement (its feed was down after the cache was made): sign-out and
 * suspension take effect within 5 s on every instance whatever happens (issue 11).
 */
export const SESSION_UNANNOUNCED_TRUST_MS = 5_000;

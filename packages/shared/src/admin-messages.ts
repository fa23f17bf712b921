import { hiddenContentMarker } from './email.ts';

/**
 * What the back office says about the outbox and the audit log. Apart from messages.ts on
 * purpose: only admin pages need these, and every public page's first script holds messages.ts.
 */

/** The back office's e-mail pages. */
export const outboxMessages = {
  contentHiddenTitle: 'Some of this e-mail is hidden',
  contentHidden: `It holds a user’s own content — what they wrote, the names they chose, or a model’s reply to them — shown here as “${hiddenContentMarker}”. Only a super admin can read it.`,
  contentHiddenBadge: 'Content hidden',
} as const;

/** The audit log's page. */
export const auditMessages = {
  postedBadge: 'Posted by the admin',
  postedNote: 'Their own words, sent through the API — not recorded by Chorus.',
  postedBy: (who: string) =>
    `Written by ${who} through the API, in their own words — not recorded by Chorus itself.`,
} as const;

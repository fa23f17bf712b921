/**
 * What exporting, sharing and pinning a conversation say (issue 14). Apart from messages.ts on
 * purpose: every public page's first script holds messages.ts, and these strings are needed only
 * by pages that load later (the chat's menu, the share page).
 */

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

export const shareMessages = {
  /** The public page and the API's 404 for a revoked, replaced or unknown link. */
  unavailable:
    'This shared chat is no longer available. Ask the person who shared it for a new link.',
  unavailableTitle: 'This link no longer works',
  nothingToShare:
    'This conversation has no finished messages yet, so there is nothing to share. Share it once a reply has arrived.',
  sharedOn: (date: string) => `Shared on ${date}`,
  readOnly:
    'A read-only copy of a conversation shared from Chorus. Messages written after it was shared are not included.',
  audience: (count: number) =>
    `Anyone with the link can read the ${count} ${plural(count, 'message', 'messages')} shared. Messages written later are not included.`,
  shownOnce: 'Copy the link now: it is shown only this once.',
  active: (date: string, count: number) =>
    `Shared on ${date}: anyone with the link can read ${count} ${plural(count, 'message', 'messages')}.`,
  notShared: 'This conversation is not shared.',
  replaceNote: 'A new link replaces the current one, which then stops working.',
  stopTitle: 'Stop sharing this conversation?',
  stopBody: 'The link stops working at once, for everyone who has it.',
  stopped: 'Sharing stopped. The link no longer works.',
  createFailed: 'Could not create a share link',
  stopFailed: 'Could not stop sharing',
  tryChorus: 'Try Chorus',
  pitch: 'Chat with AI models from eight providers in one workspace.',
  /** The share dialog. */
  dialogTitle: 'Share this conversation',
  intro:
    'A share link shows this conversation as it is now, read-only. Messages written after you create it are not shown, and nothing else of your account is: not your name, your e-mail or your other conversations.',
  create: 'Create link',
  createNew: 'Create a new link',
  revoke: 'Revoke link',
  linkLabel: 'Share link',
  copy: 'Copy link',
  copied: 'Link copied',
  /** An active link whose token is no longer known: only its hash is kept. */
  linkHidden:
    'The link itself was shown only when it was created. To share again, create a new link.',
  loadFailed: 'Could not check whether this conversation is shared',
  /** The public page. */
  untitled: 'Shared conversation',
  you: 'You',
  cutOff: 'This reply was cut off before it finished.',
  home: 'Go to the Chorus home page',
  loadSharedFailed: 'Could not open this shared chat',
} as const;

export const exportMessages = {
  failed: 'Could not export the conversation',
  markdown: 'Export as Markdown',
  json: 'Export as JSON',
} as const;

export const pinMessages = {
  pinnedGroup: 'Pinned',
  othersGroup: 'Recent',
  pinFailed: 'Could not pin the conversation',
  unpinFailed: 'Could not unpin the conversation',
  pin: 'Pin',
  unpin: 'Unpin',
  /** Read after a pinned conversation's title by screen readers. */
  pinnedSuffix: ', pinned',
  moreActions: (title: string) => `More actions for ${title}`,
  share: 'Share…',
} as const;
